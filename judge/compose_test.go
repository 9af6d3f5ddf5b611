package judge_test

import (
	"context"
	"errors"
	"fmt"
	"math"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/gavelhq/gavel/judge"
)

func TestComposites(t *testing.T) {
	tests := []struct {
		name       string
		judge      judge.Judge
		wantStatus judge.Status
		wantScore  float64 // normalised; -1 when the verdict has no score
	}{
		{"all/every part passes", judge.All(pass, pass), judge.StatusPass, 1},
		{"all/one part fails", judge.All(pass, fail, pass), judge.StatusFail, 2.0 / 3},
		{"all/fail outweighs error", judge.All(broken, fail), judge.StatusFail, 0},
		{"all/error outweighs pass, and has no score", judge.All(pass, broken), judge.StatusError, -1},
		{"all/abstentions left out", judge.All(abstain, pass), judge.StatusPass, 1},
		{"all/only abstentions", judge.All(abstain, abstain), judge.StatusAbstain, -1},
		{"all/no judges abstains", judge.All(), judge.StatusAbstain, -1},
		{"all/mean of numerical scores", judge.All(scored("x", judge.StatusPass, 0.9), scored("y", judge.StatusFail, 0.3)), judge.StatusFail, 0.6},

		{"any/one part passes", judge.Any(fail, pass), judge.StatusPass, 1},
		{"any/every part fails", judge.Any(fail, fail), judge.StatusFail, 0},
		{"any/error without pass has no score", judge.Any(fail, broken), judge.StatusError, -1},
		{"any/only abstentions", judge.Any(abstain), judge.StatusAbstain, -1},
		{"any/highest score", judge.Any(scored("x", judge.StatusFail, 0.2), scored("y", judge.StatusFail, 0.4)), judge.StatusFail, 0.4},

		{"not/pass becomes fail", judge.Not(pass), judge.StatusFail, 0},
		{"not/fail becomes pass", judge.Not(fail), judge.StatusPass, 1},
		{"not/abstain stays", judge.Not(abstain), judge.StatusAbstain, -1},
		{"not/error stays, without a score", judge.Not(judge.All(pass, broken)), judge.StatusError, -1},
		{"not/mirrors a numerical score", judge.Not(scored("x", judge.StatusFail, 0.25)), judge.StatusPass, 0.75},

		{"soft/fail becomes a finding", judge.Soft(fail), judge.StatusPass, -1},
		{"soft/pass stays", judge.Soft(pass), judge.StatusPass, 1},
		{"soft/abstain stays", judge.Soft(abstain), judge.StatusAbstain, -1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := judge.Run(context.Background(), tt.judge, &judge.Transcript{})
			if got.Status != tt.wantStatus {
				t.Errorf("status = %s, want %s (reasoning: %s)", got.Status, tt.wantStatus, got.Reasoning)
			}
			if tt.wantScore < 0 {
				if !got.Score.IsZero() {
					t.Errorf("score = %v, want none", got.Score)
				}
			} else if n := got.Score.Normalized(); got.Score.IsZero() || math.Abs(n-tt.wantScore) > 1e-9 {
				t.Errorf("score = %v (normalised %v), want %v", got.Score, n, tt.wantScore)
			}
			if got.Reasoning == "" {
				t.Error("reasoning is empty")
			}
		})
	}
}

func TestAllRunsEveryJudgeAndListsEveryFailure(t *testing.T) {
	var calls atomic.Int32
	j := judge.All(counted(fixed("first", judge.StatusFail), &calls), counted(fixed("second", judge.StatusFail), &calls))
	got := judge.Run(context.Background(), j, &judge.Transcript{})
	if calls.Load() != 2 {
		t.Errorf("judges called %d times, want 2", calls.Load())
	}
	for _, name := range []string{"first", "second"} {
		if !strings.Contains(got.Reasoning, name) {
			t.Errorf("reasoning %q does not name failing judge %q", got.Reasoning, name)
		}
	}
	if len(got.Parts) != 2 {
		t.Errorf("got %d parts, want 2", len(got.Parts))
	}
}

func TestAnyStopsAtFirstPass(t *testing.T) {
	var calls atomic.Int32
	j := judge.Any(counted(fail, &calls), counted(pass, &calls), counted(pass, &calls))
	judge.Run(context.Background(), j, &judge.Transcript{})
	if calls.Load() != 2 {
		t.Errorf("judges called %d times, want 2 (stop after the first pass)", calls.Load())
	}
}

func TestCompositesSumUsage(t *testing.T) {
	costly := func(tokens int64, cost float64) judge.Judge {
		return judge.Func(func(context.Context, *judge.Transcript) (judge.Judgment, error) {
			return judge.Judgment{Status: judge.StatusPass, Usage: judge.Usage{InputTokens: tokens, CostUSD: cost}}, nil
		})
	}
	got := judge.Run(context.Background(), judge.All(costly(100, 0.25), costly(50, 0.5)), &judge.Transcript{})
	want := judge.Usage{InputTokens: 150, CostUSD: 0.75}
	if got.Usage != want {
		t.Errorf("usage = %+v, want %+v", got.Usage, want)
	}
}

// Every token a part spent is in the composite's usage: a part that could
// not judge (an ERROR) included, and the parts that ran before the context
// ended, which the composite returns with its error.
func TestCompositesKeepTheUsageOfPartsThatErred(t *testing.T) {
	spent := judge.Usage{InputTokens: 100, OutputTokens: 10, CostUSD: 0.25}
	spender := judge.Func(func(context.Context, *judge.Transcript) (judge.Judgment, error) {
		return judge.Judgment{Name: "spender", Status: judge.StatusPass, Usage: spent}, nil
	})
	erring := judge.Func(func(context.Context, *judge.Transcript) (judge.Judgment, error) {
		return judge.Judgment{Name: "erring", Usage: spent}, errors.New("malformed answers")
	})
	// cancelling is a judge whose context ends while it asks (the trial's
	// time ran out): it spent tokens and returns the context's error.
	cancelling := func(cancel func()) judge.Judge {
		return judge.Func(func(context.Context, *judge.Transcript) (judge.Judgment, error) {
			cancel()
			return judge.Judgment{Name: "cancelling", Usage: spent}, context.Canceled
		})
	}
	weighted, err := judge.Weighted(0.5, judge.Weight{Judge: spender, Weight: 1}, judge.Weight{Judge: erring, Weight: 1})
	if err != nil {
		t.Fatal(err)
	}
	twice := judge.Usage{InputTokens: 200, OutputTokens: 20, CostUSD: 0.5}
	tests := []struct {
		name  string
		judge func(cancel func()) judge.Judge
		want  judge.Usage
	}{
		{"all", func(func()) judge.Judge { return judge.All(spender, erring) }, twice},
		{"any", func(func()) judge.Judge { return judge.Any(erring, erring) }, twice},
		{"weighted", func(func()) judge.Judge { return weighted }, twice},
		{"tiered", func(func()) judge.Judge { return judge.Tiered(spender, erring) }, twice},
		{"named", func(func()) judge.Judge { return judge.Named("tone", erring) }, spent},
		{"not", func(func()) judge.Judge { return judge.Not(erring) }, spent},
		{"soft", func(func()) judge.Judge { return judge.Soft(erring) }, spent},
		{"in round", func(func()) judge.Judge { return judge.InRound(1, erring) }, spent},
		{"all, cancelled", func(c func()) judge.Judge { return judge.All(spender, cancelling(c), spender) }, twice},
		{"any, cancelled", func(c func()) judge.Judge { return judge.Any(cancelling(c), spender) }, spent},
		{"tiered, cancelled", func(c func()) judge.Judge { return judge.Tiered(spender, cancelling(c), spender) }, twice},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			tr := &judge.Transcript{Turns: []judge.Turn{{Role: judge.RoleUser, Content: "hi", Round: 1}, {Role: judge.RoleAgent, Content: "hello", Round: 1}}}
			got := judge.Run(ctx, tt.judge(cancel), tr)
			if got.Status != judge.StatusError || got.Usage != tt.want {
				t.Errorf("got %s with usage %+v, want ERROR with usage %+v (reasoning: %s)", got.Status, got.Usage, tt.want, got.Reasoning)
			}
		})
	}
}

func TestSoftKeepsTheFailureAsFinding(t *testing.T) {
	got := judge.Run(context.Background(), judge.Soft(fixed("bubbles", judge.StatusFail)), &judge.Transcript{})
	if len(got.Findings) != 1 || got.Findings[0].Judge != "bubbles" || got.Findings[0].Message != "bubbles says FAIL" {
		t.Errorf("findings = %+v, want one from bubbles", got.Findings)
	}
	if len(got.Parts) != 1 || got.Parts[0].Status != judge.StatusFail {
		t.Errorf("parts = %+v, want the original FAIL", got.Parts)
	}
}

func TestNamed(t *testing.T) {
	got := judge.Run(context.Background(), judge.Named("tone", pass), &judge.Transcript{})
	if got.Name != "tone" {
		t.Errorf("name = %q, want %q", got.Name, "tone")
	}
	got = judge.Run(context.Background(), judge.Named("tone", broken), &judge.Transcript{})
	if got.Name != "tone" || got.Status != judge.StatusError || !strings.Contains(got.Reasoning, "unreachable") {
		t.Errorf("got %+v, want an ERROR named tone with the cause", got)
	}
}

func TestWeighted(t *testing.T) {
	w := func(j judge.Judge, weight float64) judge.Weight { return judge.Weight{Judge: j, Weight: weight} }
	scored := func(v float64) judge.Judge {
		return judge.Func(func(context.Context, *judge.Transcript) (judge.Judgment, error) {
			return judge.Judgment{Name: "scored", Status: judge.StatusPass, Score: judge.Unit(v)}, nil
		})
	}
	tests := []struct {
		name       string
		threshold  float64
		parts      []judge.Weight
		wantStatus judge.Status
		wantScore  float64
	}{
		{"heavy pass outweighs light fail", 0.7, []judge.Weight{w(pass, 3), w(fail, 1)}, judge.StatusPass, 0.75},
		{"light pass loses", 0.5, []judge.Weight{w(pass, 1), w(fail, 3)}, judge.StatusFail, 0.25},
		{"exactly at threshold passes", 0.5, []judge.Weight{w(pass, 1), w(fail, 1)}, judge.StatusPass, 0.5},
		// 0.1*0.7 + 0.1*0.7 over 0.1 + 0.1 is 0.6999999999999998 in floating point.
		{"at threshold up to rounding passes", 0.7, []judge.Weight{w(scored(0.7), 0.1), w(scored(0.7), 0.1)}, judge.StatusPass, 0.7},
		{"abstention left out", 0.5, []judge.Weight{w(abstain, 10), w(pass, 1)}, judge.StatusPass, 1},
		{"error makes the mean unknown", 0.5, []judge.Weight{w(pass, 1), w(broken, 1)}, judge.StatusError, -1},
		{"all abstain", 0.5, []judge.Weight{w(abstain, 1)}, judge.StatusAbstain, -1},
		{"zero-weight part does not count", 0.5, []judge.Weight{w(fail, 0), w(pass, 1)}, judge.StatusPass, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			j, err := judge.Weighted(tt.threshold, tt.parts...)
			if err != nil {
				t.Fatal(err)
			}
			got := judge.Run(context.Background(), j, &judge.Transcript{})
			if got.Status != tt.wantStatus {
				t.Errorf("status = %s, want %s (%s)", got.Status, tt.wantStatus, got.Reasoning)
			}
			if tt.wantScore >= 0 && math.Abs(got.Score.Normalized()-tt.wantScore) > 1e-9 {
				t.Errorf("score = %v, want %v", got.Score.Normalized(), tt.wantScore)
			}
			// The mean is recorded against its own threshold, so that
			// reports read it there and not out of the reasoning.
			th := got.Threshold
			switch {
			case tt.wantScore < 0 && th != nil:
				t.Errorf("threshold = %+v, want none: no mean was computed", *th)
			case tt.wantScore >= 0 && (th == nil || th.Of != "weighted mean" || math.Abs(th.Value-tt.wantScore) > 1e-9 || th.Min == nil || *th.Min != tt.threshold || th.Max != nil):
				t.Errorf("threshold = %+v, want the weighted mean %v at least %v", th, tt.wantScore, tt.threshold)
			}
		})
	}
}

func TestWeightedRefusesBadConfigurationWhenBuilt(t *testing.T) {
	w := func(weight float64) judge.Weight { return judge.Weight{Judge: pass, Weight: weight} }
	tests := []struct {
		name      string
		threshold float64
		parts     []judge.Weight
		wantErr   string
	}{
		{"no judges", 0.5, nil, "no judges"},
		{"threshold above 1", 1.5, []judge.Weight{w(1)}, "threshold 1.5"},
		{"threshold NaN", math.NaN(), []judge.Weight{w(1)}, "threshold NaN"},
		{"negative weight", 0.5, []judge.Weight{w(1), w(-2)}, "judge 2 has weight -2"},
		{"infinite weight", 0.5, []judge.Weight{w(math.Inf(1))}, "judge 1 has weight +Inf"},
		{"weights add to zero", 0.5, []judge.Weight{w(0), w(0)}, "add up to zero"},
		{"nil judge", 0.5, []judge.Weight{{Weight: 1}}, "judge 1 is nil"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := judge.Weighted(tt.threshold, tt.parts...)
			if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
				t.Errorf("error = %v, want one containing %q", err, tt.wantErr)
			}
		})
	}
}

func TestCompositesStopOnCancelledContext(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	for name, j := range map[string]judge.Judge{"all": judge.All(pass), "any": judge.Any(pass), "tiered": judge.Tiered(pass)} {
		if _, err := j.Judge(ctx, &judge.Transcript{}); err != context.Canceled {
			t.Errorf("%s: error = %v, want context.Canceled", name, err)
		}
	}
}

func TestInRound(t *testing.T) {
	tr := &judge.Transcript{Turns: []judge.Turn{
		{Role: judge.RoleUser, Content: "a", Round: 1},
		{Role: judge.RoleAgent, Content: "one", Round: 1, ToolCalls: []judge.ToolCall{{Name: "lookup"}}},
		{Role: judge.RoleUser, Content: "b", Round: 2},
		{Role: judge.RoleAgent, Content: "two", Round: 2},
	}}
	calls := judge.Func(func(_ context.Context, t *judge.Transcript) (judge.Judgment, error) {
		j := judge.Verdict(len(t.ToolCalls()) == 0, fmt.Sprintf("%d calls, response %q", len(t.ToolCalls()), t.Response()))
		j.Name = "no_calls"
		return j, nil
	})
	ctx := context.Background()
	if got := judge.Run(ctx, judge.InRound(2, calls), tr); got.Status != judge.StatusPass || got.Name != "round 2: no_calls" || got.Reasoning != `0 calls, response "two"` {
		t.Errorf("round 2: %+v", got)
	}
	if got := judge.Run(ctx, judge.InRound(1, calls), tr); got.Status != judge.StatusFail {
		t.Errorf("round 1 made a call: %+v", got)
	}
	if got := judge.Run(ctx, judge.InRound(3, calls), tr); got.Status != judge.StatusError || !strings.Contains(got.Reasoning, "round 3 never took place") {
		t.Errorf("round 3: %+v", got)
	}
}

// Time that runs out between tiers ends the verdict there, an ERROR that
// keeps the tiers that ran: a rule that passed is not lost to the judge
// after it.
func TestTieredKeepsWhatRanWhenTimeRunsOut(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	first := judge.Func(func(context.Context, *judge.Transcript) (judge.Judgment, error) {
		cancel() // as a deadline passing while the first tier ran
		return judge.Judgment{Name: "rules", Status: judge.StatusPass, Score: judge.Bool(true)}, nil
	})
	got, err := judge.Tiered(first, pass).Judge(ctx, &judge.Transcript{})
	if err != nil {
		t.Fatal(err)
	}
	if got.Status != judge.StatusError || len(got.Parts) != 2 || got.Parts[0].Name != "rules" || got.Parts[0].Status != judge.StatusPass ||
		got.Parts[1].Reasoning != "tier 2 did not run: context canceled" || got.Parts[1].Cause != judge.CauseCancelled {
		t.Errorf("got %+v", got)
	}
}
