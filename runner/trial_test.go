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

// Every metered model call a trial makes, in its conversation and its
// judging, is in the trial's Models; the run's Models are the sum of its
// trials', reused ones (a resumed run's) included.
func TestTrialsKnowWhatEachModelCost(t *testing.T) {
	meter := llm.NewMeter(llm.Prices{"agent-m": {Input: 1, Output: 1}, "judge-m": {Input: 2, Output: 2}})
	answer := func(model string) llm.Model {
		return llm.Chain(llm.Func(func(context.Context, *llm.Request) (*llm.Response, error) {
			return &llm.Response{Text: "fine", Model: model, Usage: llm.Usage{InputTokens: 100, OutputTokens: 10}}, nil
		}), meter.Meter())
	}
	agentModel, judgeModel := answer("agent-m"), answer("judge-m")
	a := agent.Func(func(ctx context.Context, _ string, _ agent.Message) (*agent.Reply, error) {
		resp, err := agentModel.Generate(ctx, &llm.Request{})
		if err != nil {
			return nil, err
		}
		return &agent.Reply{Text: resp.Text, Usage: judge.Usage(resp.Usage)}, nil
	})
	j := judge.Func(func(ctx context.Context, _ *judge.Transcript) (judge.Judgment, error) {
		resp, err := judgeModel.Generate(ctx, &llm.Request{})
		if err != nil {
			return judge.Judgment{}, err
		}
		v := judge.Verdict(true, "ok")
		v.Usage = judge.Usage(resp.Usage)
		return v, nil
	})
	carried := gavel.Trial{CaseID: "a", N: 1, Verdict: judge.Verdict(true, "from an earlier run"),
		Usage:  gavel.RoleUsage{Agent: judge.Usage{InputTokens: 7, Calls: 1}},
		Models: map[string]judge.Usage{"agent-m": {InputTokens: 7, Calls: 1}}}
	s := &gavel.Suite{Agent: a, Cases: []*gavel.Case{prompt("a", "hi", j)}}
	run := runner.Run(context.Background(), s, runner.Config{Trials: 3, Concurrency: 2,
		Reuse: func(caseID string, n int) (gavel.Trial, bool) { return carried, n == 1 }})

	for _, tr := range run.Cases[0].Trials[1:] {
		want := map[string]judge.Usage{
			"agent-m": {InputTokens: 100, OutputTokens: 10, CostUSD: 110e-6, Calls: 1},
			"judge-m": {InputTokens: 100, OutputTokens: 10, CostUSD: 220e-6, Calls: 1},
		}
		if diff := cmp.Diff(want, tr.Models); diff != "" {
			t.Errorf("trial %d's models (-want +got):\n%s", tr.N, diff)
		}
	}
	want := map[string]judge.Usage{
		"agent-m": {InputTokens: 207, OutputTokens: 20, CostUSD: 220e-6, Calls: 3},
		"judge-m": {InputTokens: 200, OutputTokens: 20, CostUSD: 440e-6, Calls: 2},
	}
	if diff := cmp.Diff(want, run.Models); diff != "" {
		t.Errorf("the run's models (-want +got):\n%s", diff)
	}
}
