package runner_test

import (
	"context"
	"strconv"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/gavelhq/gavel"
	"github.com/gavelhq/gavel/agent"
	"github.com/gavelhq/gavel/judge"
	"github.com/gavelhq/gavel/llm"
	"github.com/gavelhq/gavel/runner"
)

// A trial's number travels in the context of its conversation and of its
// judging, for every model call to carry (a cache keeps trials apart by
// it).
func TestTrialNumberInTheContext(t *testing.T) {
	var mu sync.Mutex
	type seen struct{ Conversation, Judging int }
	got := map[int]seen{} // by the transcript's trial
	// The agent answers with the trial its context carries.
	a := agent.Func(func(ctx context.Context, _ string, _ agent.Message) (*agent.Reply, error) {
		return &agent.Reply{Text: strconv.Itoa(llm.TrialFrom(ctx))}, nil
	})
	j := judge.Func(func(ctx context.Context, tr *judge.Transcript) (judge.Judgment, error) {
		mu.Lock()
		answered, _ := strconv.Atoi(tr.Response())
		got[tr.Trial] = seen{Conversation: answered, Judging: llm.TrialFrom(ctx)}
		mu.Unlock()
		return judge.Verdict(true, "ok"), nil
	})
	s := &gavel.Suite{Agent: a, Cases: []*gavel.Case{prompt("a", "hi", j)}}
	runner.Run(context.Background(), s, runner.Config{Trials: 3, Concurrency: 2})
	want := map[int]seen{1: {1, 1}, 2: {2, 2}, 3: {3, 3}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("trial numbers in the contexts, by trial (-want +got):\n%s", diff)
	}
}
