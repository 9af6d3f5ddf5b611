package runner_test

import (
	"context"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/gavelhq/gavel"
	"github.com/gavelhq/gavel/judge"
	"github.com/gavelhq/gavel/runner"
)

// RunTrial runs one (case, trial) with the code Run runs every trial
// with: the same conversation, the same judging, the same verdict.
func TestRunTrialIsRunsTrial(t *testing.T) {
	s := &gavel.Suite{Agent: echo, Cases: []*gavel.Case{
		prompt("passes", "hello", says("hello", nil)),
		prompt("fails", "hello", says("bye", nil)),
		prompt("crashes", "crash", says("crash", nil)),
		prompt("no-judge", "hi", nil),
	}}
	c := runner.Config{Trials: 2, Timeout: time.Second}
	run := runner.Run(context.Background(), s, c)
	ignore := cmpopts.IgnoreFields(gavel.Trial{}, "Duration")
	ignoreTimes := cmpopts.IgnoreFields(judge.Transcript{}, "Started", "Duration", "SessionID")
	ignoreJudging := cmpopts.IgnoreFields(judge.Judgment{}, "Duration")
	ignoreTurn := cmpopts.IgnoreFields(judge.Turn{}, "Time", "Latency")
	for i, cs := range s.Cases {
		if got := c.TrialsOf(s, cs); got != 2 {
			t.Errorf("TrialsOf(%s) = %d, want 2", cs.ID, got)
		}
		for _, want := range run.Cases[i].Trials {
			got := runner.RunTrial(context.Background(), s, cs, want.N, c)
			if diff := cmp.Diff(want, got, ignore, ignoreTimes, ignoreTurn, ignoreJudging, cmpopts.EquateEmpty()); diff != "" {
				t.Errorf("%s trial %d (-Run +RunTrial):\n%s", cs.ID, want.N, diff)
			}
		}
	}
}

// Budget.Exceeded says what Run's budget says: why no trial may start.
func TestBudgetExceeded(t *testing.T) {
	for _, tc := range []struct {
		b     runner.Budget
		spent judge.Usage
		want  string
	}{
		{runner.Budget{MaxCostUSD: 1}, judge.Usage{CostUSD: 0.5}, ""},
		{runner.Budget{MaxCostUSD: 1}, judge.Usage{CostUSD: 1.5}, "the budget of $1.00 was spent ($1.5000)"},
		{runner.Budget{MaxTokens: 100}, judge.Usage{InputTokens: 60, OutputTokens: 40}, "the budget of 100 tokens was spent (100)"},
		{runner.Budget{}, judge.Usage{CostUSD: 100}, ""},
	} {
		if got := tc.b.Exceeded(tc.spent); got != tc.want {
			t.Errorf("%+v.Exceeded(%+v) = %q, want %q", tc.b, tc.spent, got, tc.want)
		}
	}
}

// A token budget holds when what was spent is more than an int64 counts:
// the sum saturates, where it wrapped to a negative total below any budget.
func TestBudgetHoldsOnASaturatedSum(t *testing.T) {
	huge := judge.Usage{InputTokens: 1 << 62, OutputTokens: 1 << 62}
	spent := huge.Add(huge)
	want := "the budget of 1000 tokens was spent (at least 9223372036854775807)"
	if got := (runner.Budget{MaxTokens: 1000}).Exceeded(spent); got != want {
		t.Errorf("Exceeded(%+v) = %q, want %q", spent, got, want)
	}
}
