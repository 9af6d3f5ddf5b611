package judge_test

import (
	"context"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/gavelhq/gavel/judge"
)

func TestTieredStopsAtAFailingTier(t *testing.T) {
	tests := []struct {
		name          string
		firstTier     judge.Judge
		wantStatus    judge.Status
		wantLaterRuns int32
		wantDecidedBy string
	}{
		{"hard fail spends nothing later", fail, judge.StatusFail, 0, "tier 1"},
		{"error spends nothing later", broken, judge.StatusError, 0, "tier 1"},
		{"pass goes on", pass, judge.StatusPass, 2, ""},
		{"abstain goes on", abstain, judge.StatusPass, 2, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var later atomic.Int32
			j := judge.Tiered(tt.firstTier, counted(pass, &later), counted(pass, &later))
			got := judge.Run(context.Background(), j, &judge.Transcript{})
			if got.Status != tt.wantStatus {
				t.Errorf("status = %s, want %s (%s)", got.Status, tt.wantStatus, got.Reasoning)
			}
			if later.Load() != tt.wantLaterRuns {
				t.Errorf("later tiers ran %d times, want %d", later.Load(), tt.wantLaterRuns)
			}
			if got.DecidedBy != tt.wantDecidedBy {
				t.Errorf("decided by %q, want %q", got.DecidedBy, tt.wantDecidedBy)
			}
		})
	}
}

func TestTieredSaysWhatDidNotRun(t *testing.T) {
	got := judge.Run(context.Background(), judge.Tiered(fail, pass, pass), &judge.Transcript{})
	if !strings.Contains(got.Reasoning, "2 later tier(s) did not run") {
		t.Errorf("reasoning %q does not say that 2 tiers were skipped", got.Reasoning)
	}
}

func TestTieredHandsFindingsToLaterTiers(t *testing.T) {
	var seen []judge.Finding
	listener := judge.Func(func(ctx context.Context, _ *judge.Transcript) (judge.Judgment, error) {
		seen = judge.FindingsFrom(ctx)
		return judge.Verdict(true, "weighed the findings"), nil
	})
	outer := judge.WithFindings(context.Background(), judge.Finding{Judge: "outer", Message: "from the caller"})
	tiers := judge.Tiered(
		judge.All(pass, judge.Soft(fixed("bubbles", judge.StatusFail))),
		listener,
	)
	got := judge.Run(outer, tiers, &judge.Transcript{})
	if got.Status != judge.StatusPass {
		t.Fatalf("status = %s, want PASS: a soft failure must not fail the case (%s)", got.Status, got.Reasoning)
	}
	want := []string{"outer: from the caller", "bubbles: bubbles says FAIL"}
	if len(seen) != len(want) {
		t.Fatalf("later tier saw %v, want %v", seen, want)
	}
	for i := range want {
		if seen[i].String() != want[i] {
			t.Errorf("finding %d = %q, want %q", i, seen[i], want[i])
		}
	}
	if all := got.AllFindings(); len(all) != 1 {
		t.Errorf("verdict carries %d findings, want the 1 its tiers found", len(all))
	}
}
