package judge_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/gavelhq/gavel/judge"
)

// TestObserverSeesEveryJudge checks that an Observer in the context is
// told of every judge Run runs, composites' parts included, nested as they
// ran, and of the judgment each returned, an error or a panic turned into
// an ERROR included.
func TestObserverSeesEveryJudge(t *testing.T) {
	var log []string
	depth := 0
	type depthKey struct{}
	obs := judge.ObserverFunc(func(ctx context.Context) (context.Context, func(judge.Judgment)) {
		d, _ := ctx.Value(depthKey{}).(int)
		depth = max(depth, d+1)
		return context.WithValue(ctx, depthKey{}, d+1), func(j judge.Judgment) {
			log = append(log, strings.Repeat(" ", d)+j.Name+" "+string(j.Status))
		}
	})
	pass := judge.Func(func(context.Context, *judge.Transcript) (judge.Judgment, error) {
		j := judge.Verdict(true, "fine")
		j.Name = "pass"
		return j, nil
	})
	broken := judge.Func(func(context.Context, *judge.Transcript) (judge.Judgment, error) {
		return judge.Judgment{Name: "broken"}, errors.New("provider down")
	})
	panics := judge.Func(func(context.Context, *judge.Transcript) (judge.Judgment, error) { panic("boom") })

	ctx := judge.WithObserver(context.Background(), obs)
	got := judge.Run(ctx, judge.Named("both", judge.All(pass, broken, panics)), &judge.Transcript{})
	if got.Status != judge.StatusError {
		t.Fatalf("verdict %s, want ERROR", got.Status)
	}
	want := []string{" pass PASS", " broken ERROR", "  ERROR", "both ERROR"} // Named renames All's judgment
	if strings.Join(log, "\n") != strings.Join(want, "\n") {
		t.Errorf("observed:\n%s\nwant:\n%s", strings.Join(log, "\n"), strings.Join(want, "\n"))
	}

	log = nil
	judge.Run(context.Background(), pass, &judge.Transcript{})
	if len(log) != 0 {
		t.Errorf("without an observer in the context, observed %q", log)
	}
}
