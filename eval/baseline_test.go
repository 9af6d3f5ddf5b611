package eval

import (
	"context"
	"errors"
	"path/filepath"
	"testing"
	"time"

	"github.com/gavelhq/gavel"
	"github.com/gavelhq/gavel/judge"
	"github.com/gavelhq/gavel/store"
	"github.com/gavelhq/gavel/store/sqlite"
)

// FindBaseline takes a run id first, then a branch's newest run that
// finished every trial (not the run being gated, not one still running,
// incomplete or of another suite).
func TestFindBaseline(t *testing.T) {
	ctx := context.Background()
	st, err := sqlite.Open(filepath.Join(t.TempDir(), "results.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	start := time.Date(2026, 11, 20, 9, 0, 0, 0, time.UTC)
	save := func(suite, branch string, status store.Status, hours int) string {
		t.Helper()
		info, err := st.CreateRun(ctx, store.RunInfo{Suite: suite, GitBranch: branch, Started: start.Add(time.Duration(hours) * time.Hour)})
		if err != nil {
			t.Fatal(err)
		}
		if status == store.Running {
			return info.ID
		}
		run := &gavel.Run{Cases: []gavel.CaseResult{{Case: &gavel.Case{ID: "a"}, Trials: []gavel.Trial{{CaseID: "a", N: 1, Verdict: judge.Verdict(true, "")}}}}}
		run.Cases[0].Summarize()
		if err := st.FinishRun(ctx, info.ID, store.RunEnd{Status: status, Ended: info.Started.Add(time.Minute), Run: run}); err != nil {
			t.Fatal(err)
		}
		return info.ID
	}
	oldMain := save("desk", "main", store.Passed, 0)
	newMain := save("desk", "main", store.Failed, 1)
	save("desk", "main", store.Incomplete, 2)
	save("desk", "main", store.Running, 3)
	save("other", "main", store.Passed, 4)
	head := save("desk", "main", store.Passed, 5) // the run being gated

	for _, tc := range []struct {
		ref, want, err string
	}{
		{ref: "main", want: newMain},
		{ref: oldMain, want: oldMain},
		{ref: "feature", err: `no run has id or label "feature", and no finished run of suite "desk" is on a branch of that name`},
	} {
		got, err := FindBaseline(ctx, st, tc.ref, "desk", head)
		switch {
		case tc.err != "":
			if err == nil || err.Error() != tc.err || !errors.Is(err, store.ErrNotFound) {
				t.Errorf("%s: %v, want %q", tc.ref, err, tc.err)
			}
		case err != nil || got.Info.ID != tc.want:
			t.Errorf("%s: %v, %v; want run %s", tc.ref, got, err, tc.want)
		}
	}
	if _, err := FindBaseline(ctx, st, oldMain, "other", head); err == nil {
		t.Error("a run of another suite is a baseline")
	}
}
