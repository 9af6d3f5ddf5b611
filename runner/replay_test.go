package runner_test

import (
	"context"
	"sync/atomic"
	"testing"

	"github.com/gavelhq/gavel"
	"github.com/gavelhq/gavel/agent"
	"github.com/gavelhq/gavel/judge"
	"github.com/gavelhq/gavel/runner"
)

// TestReplay judges the stored transcripts of a run again with other
// judges, without calling the agent: each case keeps its stored trials
// (their numbers too), an errored transcript stays an ERROR unjudged, a
// case with nothing stored is skipped for Replay's reason, and the
// trials' usage is their judging's alone.
func TestReplay(t *testing.T) {
	var agentCalls, judged atomic.Int32
	counting := agent.Func(func(ctx context.Context, id string, msg agent.Message) (*agent.Reply, error) {
		agentCalls.Add(1)
		return echo(ctx, id, msg)
	})
	first := runner.Run(context.Background(), &gavel.Suite{Agent: counting, Cases: []*gavel.Case{
		prompt("hello", "hello", says("hello", nil)),
		prompt("crashes", "crash", says("crash", nil)),
	}}, runner.Config{Trials: 2})
	if n := agentCalls.Load(); n != 4 {
		t.Fatalf("the first run called the agent %d times, want 4", n)
	}
	if got, want := outcomes(first), "hello:PASS crashes:ERROR"; got != want {
		t.Fatalf("first run: %s, want %s", got, want)
	}
	stored := map[string][]gavel.Trial{}
	for _, c := range first.Cases {
		stored[c.Case.ID] = c.Trials
	}
	// The judge of hello is tightened; crashes' would pass anything; new is
	// a case the first run did not have.
	second := runner.Run(context.Background(), &gavel.Suite{Agent: counting, Cases: []*gavel.Case{
		prompt("hello", "hello", says("hello, world", &judged)),
		prompt("crashes", "crash", says("", &judged)),
		prompt("new", "hi", says("hi", &judged)),
	}}, runner.Config{
		Replay: func(id string) ([]gavel.Trial, string) { return stored[id], "not in the run rejudged" },
	})
	if n := agentCalls.Load(); n != 4 {
		t.Errorf("rejudging called the agent %d times, want 0", n-4)
	}
	if n := judged.Load(); n != 2 {
		t.Errorf("judges called %d times, want 2 (hello's two trials; crashes has nothing to judge)", n)
	}
	if got, want := outcomes(second), "hello:FAIL crashes:ERROR new:SKIPPED"; got != want {
		t.Errorf("rejudged: %s, want %s", got, want)
	}
	if got := second.Cases[2].SkipReason; got != "not in the run rejudged" {
		t.Errorf("skip reason of new = %q", got)
	}
	if !second.Complete() {
		t.Errorf("rejudged run incomplete: %s", second.StopReason)
	}
	for _, c := range second.Cases[:2] {
		if len(c.Trials) != 2 {
			t.Fatalf("%s: %d trials, want 2", c.Case.ID, len(c.Trials))
		}
		for i, tr := range c.Trials {
			if tr.N != i+1 || tr.Transcript != stored[c.Case.ID][i].Transcript {
				t.Errorf("%s trial %d: N %d, same transcript %v", c.Case.ID, i+1, tr.N, tr.Transcript == stored[c.Case.ID][i].Transcript)
			}
			if tr.Usage.Agent != (judge.Usage{}) {
				t.Errorf("%s trial %d: agent usage %+v, want none: the agent was not called", c.Case.ID, tr.N, tr.Usage.Agent)
			}
		}
	}
	if v := second.Cases[1].Trials[0].Verdict; v.Name != "conversation" || v.Status != judge.StatusError {
		t.Errorf("crashes: verdict %s %s, want the conversation's ERROR", v.Name, v.Status)
	}
}
