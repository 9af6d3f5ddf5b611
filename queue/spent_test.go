package queue

import (
	"context"
	"math"
	"testing"

	"github.com/gavelhq/gavel/judge"
	"github.com/gavelhq/gavel/runner"
	"github.com/gavelhq/gavel/store"
)

// What a run's settled trials spent saturates at the largest int64, as
// judge.Usage sums do, so the run's budget holds: past it, PostgreSQL
// refused the sum ("bigint out of range") and the trial was never settled.
func TestSpentSaturates(t *testing.T) {
	q, ctx := openQueue(t), context.Background()
	p := Plan{Suite: "s.yaml", Budget: runner.Budget{MaxTokens: 1000}, Cases: []PlannedCase{{ID: "a", Trials: 3}}}
	info, err := q.Enqueue(ctx, store.RunInfo{Suite: "s"}, p)
	if err != nil {
		t.Fatal(err)
	}
	var after planned
	for n, spent := range []judge.Usage{
		{InputTokens: math.MaxInt64 - 1, OutputTokens: 7},
		{InputTokens: 5, OutputTokens: math.MaxInt64},
	} {
		if after, err = q.settle(ctx, info.ID, "a", n+1, settlement{spent: spent}); err != nil {
			t.Fatalf("settle trial %d: %v", n+1, err)
		}
	}
	want := judge.Usage{InputTokens: math.MaxInt64, OutputTokens: math.MaxInt64}
	if after.spent != want || after.settled != 2 {
		t.Errorf("spent %+v over %d trials, want %+v over 2", after.spent, after.settled, want)
	}
	if why := after.Budget.Exceeded(after.spent); why == "" {
		t.Errorf("the budget of 1000 tokens holds no more after %+v", after.spent)
	}
}
