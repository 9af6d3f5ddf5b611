package jury

import (
	"context"
	"fmt"
	"testing"

	"github.com/gavelhq/gavel/judge"
	"github.com/google/go-cmp/cmp"
)

// Fixed judgments, as jurors return them.
var (
	pass    = judge.Verdict(true, "looks right")
	fail    = judge.Verdict(false, "looks wrong")
	abstain = judge.Abstained("does not apply")
	errored = judge.Errored("provider down")
)

// scored returns a judgment with the given status and score.
func scored(status judge.Status, s judge.Score) judge.Judgment {
	return judge.Judgment{Status: status, Score: s}
}

// number returns a numerical score; it panics on a bad score, which is a
// mistake in the test.
func number(value, min, max float64) judge.Score {
	s, err := judge.Number(value, min, max)
	if err != nil {
		panic(err)
	}
	return s
}

var grades = []judge.Label{{Name: "bad", Value: 0}, {Name: "poor", Value: 0.25}, {Name: "fair", Value: 0.5}, {Name: "good", Value: 0.75}, {Name: "great", Value: 1}}

// grade returns a categorical score from grades.
func grade(label string) judge.Score {
	s, err := judge.Category(label, grades)
	if err != nil {
		panic(err)
	}
	return s
}

// passScore and failScore are a PASS and a FAIL with a score of v/10.
func passScore(v float64) judge.Judgment { return scored(judge.StatusPass, number(v, 0, 10)) }
func failScore(v float64) judge.Judgment { return scored(judge.StatusFail, number(v, 0, 10)) }

// mixed holds one score of each kind: boolean 1, numerical 3 on 1..5
// (0.5), categorical "poor" (0.25).
var mixed = []judge.Judgment{
	scored(judge.StatusPass, judge.Bool(true)),
	scored(judge.StatusPass, number(3, 1, 5)),
	scored(judge.StatusFail, grade("poor")),
}

// fixed returns a juror that always returns j.
func fixed(j judge.Judgment) judge.Judge {
	return judge.Func(func(context.Context, *judge.Transcript) (judge.Judgment, error) { return j, nil })
}

// completed validates c as New does, with n fixed jurors and, for
// WeightedAverage without weights, a weight of 1 each.
func completed(t *testing.T, c Config, n int) Config {
	t.Helper()
	for range n {
		c.Jurors = append(c.Jurors, fixed(pass))
	}
	if c.Strategy == WeightedAverage && c.Weights == nil {
		for range n {
			c.Weights = append(c.Weights, 1)
		}
	}
	c, err := c.complete()
	if err != nil {
		t.Fatalf("bad test config: %v", err)
	}
	return c
}

// An outcome is what the strategy tables check of a verdict.
type outcome struct {
	Status    judge.Status
	Score     string // the normalised score to 3 decimals; "" for none
	DecidedBy string
	Reasoning string
}

func outcomeOf(j judge.Judgment) outcome {
	o := outcome{Status: j.Status, DecidedBy: j.DecidedBy, Reasoning: j.Reasoning}
	if !j.Score.IsZero() {
		o.Score = fmt.Sprintf("%.3f", j.Score.Normalized())
	}
	return o
}

type strategyCase struct {
	name  string
	c     Config
	votes []judge.Judgment
	want  outcome
}

func runStrategyCases(t *testing.T, strategy Strategy, cases []strategyCase) {
	t.Helper()
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			tc.c.Strategy = strategy
			got := outcomeOf(decide(completed(t, tc.c, len(tc.votes)), tc.votes))
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("verdict (-want +got):\n%s", diff)
			}
		})
	}
}

func TestMajority(t *testing.T) {
	runStrategyCases(t, Majority, []strategyCase{
		{
			name:  "clear pass",
			votes: []judge.Judgment{pass, pass, fail},
			want:  outcome{judge.StatusPass, "0.667", "majority", "majority: 2 pass, 1 fail → PASS"},
		},
		{
			name:  "clear fail",
			votes: []judge.Judgment{fail, pass, fail},
			want:  outcome{judge.StatusFail, "0.333", "majority", "majority: 1 pass, 2 fail → FAIL"},
		},
		{
			name:  "unanimous pass",
			votes: []judge.Judgment{pass, pass, pass},
			want:  outcome{judge.StatusPass, "1.000", "majority", "majority: 3 pass, 0 fail → PASS"},
		},
		{
			name:  "abstentions left out",
			votes: []judge.Judgment{pass, abstain, abstain, fail, pass},
			want:  outcome{judge.StatusPass, "0.667", "majority", "majority: 2 pass, 1 fail, 2 abstained → PASS"},
		},
		{
			name:  "abstentions do not count as fails",
			votes: []judge.Judgment{pass, abstain, abstain},
			want:  outcome{judge.StatusPass, "1.000", "majority", "majority: 1 pass, 0 fail, 2 abstained → PASS"},
		},
		{
			name:  "tie with the default policy fails",
			votes: []judge.Judgment{pass, fail},
			want:  outcome{judge.StatusFail, "0.500", "majority (tie: fail)", "majority: 1 pass, 1 fail is a tie; tie policy fail → FAIL"},
		},
		{
			name:  "tie with TieFail",
			c:     Config{Ties: TieFail},
			votes: []judge.Judgment{pass, fail, fail, pass},
			want:  outcome{judge.StatusFail, "0.500", "majority (tie: fail)", "majority: 2 pass, 2 fail is a tie; tie policy fail → FAIL"},
		},
		{
			name:  "tie with TiePass",
			c:     Config{Ties: TiePass},
			votes: []judge.Judgment{pass, fail},
			want:  outcome{judge.StatusPass, "0.500", "majority (tie: pass)", "majority: 1 pass, 1 fail is a tie; tie policy pass → PASS"},
		},
		{
			name:  "tie with TieAbstain",
			c:     Config{Ties: TieAbstain},
			votes: []judge.Judgment{pass, fail},
			want:  outcome{judge.StatusAbstain, "0.500", "majority (tie: abstain)", "majority: 1 pass, 1 fail is a tie; tie policy abstain → ABSTAIN"},
		},
		{
			name:  "tie left after abstentions",
			c:     Config{Ties: TiePass},
			votes: []judge.Judgment{pass, abstain, fail},
			want:  outcome{judge.StatusPass, "0.500", "majority (tie: pass)", "majority: 1 pass, 1 fail, 1 abstained is a tie; tie policy pass → PASS"},
		},
		{
			name:  "error as verdict",
			votes: []judge.Judgment{pass, pass, errored},
			want:  outcome{judge.StatusError, "", "majority (errors: error)", "1 of 3 jurors could not judge: juror 3: provider down"},
		},
		{
			name:  "error as verdict even beside a known fail",
			c:     Config{Errors: ErrorsAsVerdict},
			votes: []judge.Judgment{fail, fail, errored},
			want:  outcome{judge.StatusError, "", "majority (errors: error)", "1 of 3 jurors could not judge: juror 3: provider down"},
		},
		{
			name:  "errors as fail",
			c:     Config{Errors: ErrorsAsFail},
			votes: []judge.Judgment{pass, errored, errored},
			want:  outcome{judge.StatusFail, "0.333", "majority", "majority: 1 pass, 2 fail (2 errored, counted as fail) → FAIL"},
		},
		{
			name:  "error as fail makes a tie",
			c:     Config{Errors: ErrorsAsFail, Ties: TiePass},
			votes: []judge.Judgment{pass, errored},
			want:  outcome{judge.StatusPass, "0.500", "majority (tie: pass)", "majority: 1 pass, 1 fail (1 errored, counted as fail) is a tie; tie policy pass → PASS"},
		},
		{
			name:  "errors ignored",
			c:     Config{Errors: ErrorsIgnored},
			votes: []judge.Judgment{pass, errored, fail, pass},
			want:  outcome{judge.StatusPass, "0.667", "majority", "majority: 2 pass, 1 fail, 1 errored (ignored) → PASS"},
		},
		{
			name:  "mixed score kinds count by status",
			votes: mixed,
			want:  outcome{judge.StatusPass, "0.667", "majority", "majority: 2 pass, 1 fail → PASS"},
		},
		{
			name:  "a pass with a low score is a pass vote",
			votes: []judge.Judgment{passScore(1), passScore(2), failScore(9)},
			want:  outcome{judge.StatusPass, "0.667", "majority", "majority: 2 pass, 1 fail → PASS"},
		},
	})
}

func TestConsensus(t *testing.T) {
	runStrategyCases(t, Consensus, []strategyCase{
		{
			name:  "unanimous pass",
			votes: []judge.Judgment{pass, pass, pass},
			want:  outcome{judge.StatusPass, "1.000", "consensus", "consensus: 3 pass, 0 fail → PASS"},
		},
		{
			name:  "unanimous fail",
			votes: []judge.Judgment{fail, fail, fail},
			want:  outcome{judge.StatusFail, "0.000", "consensus", "consensus: 0 pass, 3 fail → FAIL"},
		},
		{
			name:  "split fails",
			votes: []judge.Judgment{pass, fail, pass},
			want:  outcome{judge.StatusFail, "0.667", "consensus", "no consensus: 2 pass, 1 fail → FAIL"},
		},
		{
			name:  "even split fails without a tie policy",
			votes: []judge.Judgment{pass, fail},
			want:  outcome{judge.StatusFail, "0.500", "consensus", "no consensus: 1 pass, 1 fail → FAIL"},
		},
		{
			name:  "abstentions left out",
			votes: []judge.Judgment{pass, abstain, pass},
			want:  outcome{judge.StatusPass, "1.000", "consensus", "consensus: 2 pass, 0 fail, 1 abstained → PASS"},
		},
		{
			name:  "error as verdict",
			votes: []judge.Judgment{pass, errored, pass},
			want:  outcome{judge.StatusError, "", "consensus (errors: error)", "1 of 3 jurors could not judge: juror 2: provider down"},
		},
		{
			name:  "error as fail breaks the consensus",
			c:     Config{Errors: ErrorsAsFail},
			votes: []judge.Judgment{pass, errored, pass},
			want:  outcome{judge.StatusFail, "0.667", "consensus", "no consensus: 2 pass, 1 fail (1 errored, counted as fail) → FAIL"},
		},
		{
			name:  "errors as fail with every vote failing",
			c:     Config{Errors: ErrorsAsFail},
			votes: []judge.Judgment{fail, errored},
			want:  outcome{judge.StatusFail, "0.000", "consensus", "consensus: 0 pass, 2 fail (1 errored, counted as fail) → FAIL"},
		},
		{
			name:  "errors ignored",
			c:     Config{Errors: ErrorsIgnored},
			votes: []judge.Judgment{pass, errored, pass},
			want:  outcome{judge.StatusPass, "1.000", "consensus", "consensus: 2 pass, 0 fail, 1 errored (ignored) → PASS"},
		},
		{
			name:  "mixed score kinds count by status",
			votes: mixed,
			want:  outcome{judge.StatusFail, "0.667", "consensus", "no consensus: 2 pass, 1 fail → FAIL"},
		},
		{
			name:  "mixed score kinds all passing",
			votes: []judge.Judgment{mixed[0], mixed[1], scored(judge.StatusPass, grade("fair"))},
			want:  outcome{judge.StatusPass, "1.000", "consensus", "consensus: 3 pass, 0 fail → PASS"},
		},
	})
}

func TestAverage(t *testing.T) {
	runStrategyCases(t, Average, []strategyCase{
		{
			name:  "clear pass",
			votes: []judge.Judgment{passScore(8), passScore(9), failScore(4)},
			want:  outcome{judge.StatusPass, "0.700", "average", "average 0.70 ≥ threshold 0.50: 2 pass, 1 fail → PASS"},
		},
		{
			name:  "clear fail",
			votes: []judge.Judgment{failScore(2), failScore(3), passScore(7)},
			want:  outcome{judge.StatusFail, "0.400", "average", "average 0.40 < threshold 0.50: 1 pass, 2 fail → FAIL"},
		},
		{
			name:  "verdicts without a score count as 1 and 0",
			votes: []judge.Judgment{pass, pass, fail},
			want:  outcome{judge.StatusPass, "0.667", "average", "average 0.67 ≥ threshold 0.50: 2 pass, 1 fail → PASS"},
		},
		{
			name:  "even split reaches the default threshold",
			votes: []judge.Judgment{pass, fail},
			want:  outcome{judge.StatusPass, "0.500", "average", "average 0.50 ≥ threshold 0.50: 1 pass, 1 fail → PASS"},
		},
		{
			name:  "exactly at the threshold passes despite rounding",
			c:     Config{Threshold: new(0.6)},
			votes: []judge.Judgment{passScore(7), passScore(6), failScore(5)},
			want:  outcome{judge.StatusPass, "0.600", "average", "average 0.60 ≥ threshold 0.60: 2 pass, 1 fail → PASS"},
		},
		{
			// In floating point, (0.7 + 0.7 + 0.7) / 3 is 0.6999999999999998.
			name:  "a mean that rounding puts a hair below the threshold passes",
			c:     Config{Threshold: new(0.7)},
			votes: []judge.Judgment{passScore(7), passScore(7), passScore(7)},
			want:  outcome{judge.StatusPass, "0.700", "average", "average 0.70 ≥ threshold 0.70: 3 pass, 0 fail → PASS"},
		},
		{
			name:  "just below the threshold fails and says so",
			c:     Config{Threshold: new(0.6)},
			votes: []judge.Judgment{passScore(7), passScore(6), failScore(4.98)},
			want:  outcome{judge.StatusFail, "0.599", "average", "average 0.599 < threshold 0.600: 2 pass, 1 fail → FAIL"},
		},
		{
			name:  "threshold of 1 needs every score at the top",
			c:     Config{Threshold: new(1.0)},
			votes: []judge.Judgment{passScore(10), passScore(9.9)},
			want:  outcome{judge.StatusFail, "0.995", "average", "average 0.99 < threshold 1.00: 2 pass, 0 fail → FAIL"},
		},
		{
			name:  "abstentions left out",
			votes: []judge.Judgment{passScore(8), abstain, failScore(4)},
			want:  outcome{judge.StatusPass, "0.600", "average", "average 0.60 ≥ threshold 0.50: 1 pass, 1 fail, 1 abstained → PASS"},
		},
		{
			name:  "error as verdict",
			votes: []judge.Judgment{passScore(7), passScore(6), errored},
			want:  outcome{judge.StatusError, "", "average (errors: error)", "1 of 3 jurors could not judge: juror 3: provider down"},
		},
		{
			name:  "error as fail scores 0",
			c:     Config{Errors: ErrorsAsFail},
			votes: []judge.Judgment{passScore(7), passScore(6), errored},
			want:  outcome{judge.StatusFail, "0.433", "average", "average 0.43 < threshold 0.50: 2 pass, 1 fail (1 errored, counted as fail) → FAIL"},
		},
		{
			name:  "errors ignored",
			c:     Config{Errors: ErrorsIgnored},
			votes: []judge.Judgment{passScore(7), passScore(6), errored},
			want:  outcome{judge.StatusPass, "0.650", "average", "average 0.65 ≥ threshold 0.50: 2 pass, 0 fail, 1 errored (ignored) → PASS"},
		},
		{
			name:  "mixed score kinds",
			votes: mixed,
			want:  outcome{judge.StatusPass, "0.583", "average", "average 0.58 ≥ threshold 0.50: 2 pass, 1 fail → PASS"},
		},
		{
			name:  "a fail with a high score counts with its score",
			votes: []judge.Judgment{failScore(9), failScore(8), passScore(1)},
			want:  outcome{judge.StatusPass, "0.600", "average", "average 0.60 ≥ threshold 0.50: 1 pass, 2 fail → PASS"},
		},
	})
}

func TestWeightedAverage(t *testing.T) {
	runStrategyCases(t, WeightedAverage, []strategyCase{
		{
			name:  "clear pass: a heavy juror outweighs two light ones",
			c:     Config{Weights: []float64{3, 1, 1}},
			votes: []judge.Judgment{passScore(8), failScore(2), failScore(3)},
			want:  outcome{judge.StatusPass, "0.580", "weighted_average", "weighted average 0.58 ≥ threshold 0.50: 1 pass, 2 fail → PASS"},
		},
		{
			name:  "clear fail",
			c:     Config{Weights: []float64{1, 1, 3}},
			votes: []judge.Judgment{pass, pass, fail},
			want:  outcome{judge.StatusFail, "0.400", "weighted_average", "weighted average 0.40 < threshold 0.50: 2 pass, 1 fail → FAIL"},
		},
		{
			name:  "even split at the threshold passes",
			c:     Config{Weights: []float64{2, 2}},
			votes: []judge.Judgment{pass, fail},
			want:  outcome{judge.StatusPass, "0.500", "weighted_average", "weighted average 0.50 ≥ threshold 0.50: 1 pass, 1 fail → PASS"},
		},
		{
			name:  "exactly at the threshold passes despite rounding",
			c:     Config{Weights: []float64{0.1, 0.2, 0.3}, Threshold: new(0.7)},
			votes: []judge.Judgment{passScore(10), passScore(10), passScore(4)},
			want:  outcome{judge.StatusPass, "0.700", "weighted_average", "weighted average 0.70 ≥ threshold 0.70: 3 pass, 0 fail → PASS"},
		},
		{
			name:  "abstaining heavy juror leaves the others to decide",
			c:     Config{Weights: []float64{10, 1, 1}},
			votes: []judge.Judgment{abstain, pass, pass},
			want:  outcome{judge.StatusPass, "1.000", "weighted_average", "weighted average 1.00 ≥ threshold 0.50: 2 pass, 0 fail, 1 abstained; weights renormalised over the 2 jurors that voted → PASS"},
		},
		{
			name:  "abstaining juror of weight zero changes nothing",
			c:     Config{Weights: []float64{0, 1, 1}},
			votes: []judge.Judgment{abstain, pass, fail},
			want:  outcome{judge.StatusPass, "0.500", "weighted_average", "weighted average 0.50 ≥ threshold 0.50: 1 pass, 1 fail, 1 abstained → PASS"},
		},
		{
			name:  "a juror of weight zero does not move the mean",
			c:     Config{Weights: []float64{1, 0}},
			votes: []judge.Judgment{fail, pass},
			want:  outcome{judge.StatusFail, "0.000", "weighted_average", "weighted average 0.00 < threshold 0.50: 1 pass, 1 fail → FAIL"},
		},
		{
			name:  "only jurors of weight zero voted",
			c:     Config{Weights: []float64{1, 0}},
			votes: []judge.Judgment{abstain, pass},
			want:  outcome{judge.StatusAbstain, "", "weighted_average", "no vote carries weight (the jurors that voted have weight 0): 1 pass, 0 fail, 1 abstained"},
		},
		{
			name:  "only jurors of weight zero voted, the others errored",
			c:     Config{Weights: []float64{1, 0}, Errors: ErrorsIgnored},
			votes: []judge.Judgment{errored, pass},
			want:  outcome{judge.StatusError, "", "weighted_average (errors: ignore)", "no vote carries weight (the jurors that voted have weight 0): 1 pass, 0 fail, 1 errored (ignored); could not judge: juror 1: provider down"},
		},
		{
			name:  "error as verdict",
			c:     Config{Weights: []float64{2, 1, 1}},
			votes: []judge.Judgment{errored, pass, pass},
			want:  outcome{judge.StatusError, "", "weighted_average (errors: error)", "1 of 3 jurors could not judge: juror 1: provider down"},
		},
		{
			name:  "error as fail scores 0 at its weight",
			c:     Config{Weights: []float64{2, 1, 1}, Errors: ErrorsAsFail, Threshold: new(0.6)},
			votes: []judge.Judgment{errored, pass, pass},
			want:  outcome{judge.StatusFail, "0.500", "weighted_average", "weighted average 0.50 < threshold 0.60: 2 pass, 1 fail (1 errored, counted as fail) → FAIL"},
		},
		{
			name:  "errors ignored renormalise the weights",
			c:     Config{Weights: []float64{2, 1, 1}, Errors: ErrorsIgnored, Threshold: new(0.6)},
			votes: []judge.Judgment{errored, pass, pass},
			want:  outcome{judge.StatusPass, "1.000", "weighted_average", "weighted average 1.00 ≥ threshold 0.60: 2 pass, 0 fail, 1 errored (ignored); weights renormalised over the 2 jurors that voted → PASS"},
		},
		{
			name:  "mixed score kinds",
			c:     Config{Weights: []float64{1, 2, 1}},
			votes: mixed,
			want:  outcome{judge.StatusPass, "0.562", "weighted_average", "weighted average 0.56 ≥ threshold 0.50: 2 pass, 1 fail → PASS"},
		},
	})
}

func TestMedian(t *testing.T) {
	runStrategyCases(t, Median, []strategyCase{
		{
			name:  "odd count, clear pass",
			votes: []judge.Judgment{passScore(9), failScore(2), passScore(6)},
			want:  outcome{judge.StatusPass, "0.600", "median", "median 0.60 ≥ threshold 0.50: 2 pass, 1 fail → PASS"},
		},
		{
			name:  "odd count, clear fail: one wild juror cannot move it",
			votes: []judge.Judgment{failScore(1), failScore(4), passScore(10)},
			want:  outcome{judge.StatusFail, "0.400", "median", "median 0.40 < threshold 0.50: 1 pass, 2 fail → FAIL"},
		},
		{
			name:  "even count takes the mean of the two middle values",
			votes: []judge.Judgment{passScore(9), failScore(2), passScore(7), failScore(4)},
			want:  outcome{judge.StatusPass, "0.550", "median", "median 0.55 ≥ threshold 0.50: 2 pass, 2 fail → PASS"},
		},
		{
			name:  "even count below the threshold",
			c:     Config{Threshold: new(0.6)},
			votes: []judge.Judgment{passScore(9), failScore(2), passScore(7), failScore(4)},
			want:  outcome{judge.StatusFail, "0.550", "median", "median 0.55 < threshold 0.60: 2 pass, 2 fail → FAIL"},
		},
		{
			name:  "even split at the threshold passes",
			votes: []judge.Judgment{pass, fail},
			want:  outcome{judge.StatusPass, "0.500", "median", "median 0.50 ≥ threshold 0.50: 1 pass, 1 fail → PASS"},
		},
		{
			name:  "exactly at the threshold passes",
			c:     Config{Threshold: new(0.7)},
			votes: []judge.Judgment{failScore(3), passScore(7), passScore(8)},
			want:  outcome{judge.StatusPass, "0.700", "median", "median 0.70 ≥ threshold 0.70: 2 pass, 1 fail → PASS"},
		},
		{
			name:  "exactly at the threshold with an even count",
			c:     Config{Threshold: new(0.7)},
			votes: []judge.Judgment{passScore(6), passScore(8)},
			want:  outcome{judge.StatusPass, "0.700", "median", "median 0.70 ≥ threshold 0.70: 2 pass, 0 fail → PASS"},
		},
		{
			name:  "abstentions left out",
			votes: []judge.Judgment{abstain, failScore(3), abstain, passScore(8), passScore(9)},
			want:  outcome{judge.StatusPass, "0.800", "median", "median 0.80 ≥ threshold 0.50: 2 pass, 1 fail, 2 abstained → PASS"},
		},
		{
			name:  "error as verdict",
			votes: []judge.Judgment{passScore(8), passScore(6), errored, errored},
			want:  outcome{judge.StatusError, "", "median (errors: error)", "2 of 4 jurors could not judge: juror 3: provider down; juror 4: provider down"},
		},
		{
			name:  "errors as fail score 0",
			c:     Config{Errors: ErrorsAsFail},
			votes: []judge.Judgment{passScore(8), passScore(6), errored, errored},
			want:  outcome{judge.StatusFail, "0.300", "median", "median 0.30 < threshold 0.50: 2 pass, 2 fail (2 errored, counted as fail) → FAIL"},
		},
		{
			name:  "errors ignored",
			c:     Config{Errors: ErrorsIgnored},
			votes: []judge.Judgment{passScore(8), passScore(6), errored, errored},
			want:  outcome{judge.StatusPass, "0.700", "median", "median 0.70 ≥ threshold 0.50: 2 pass, 0 fail, 2 errored (ignored) → PASS"},
		},
		{
			name:  "mixed score kinds",
			votes: mixed,
			want:  outcome{judge.StatusPass, "0.500", "median", "median 0.50 ≥ threshold 0.50: 2 pass, 1 fail → PASS"},
		},
	})
}

// TestNoVotes checks, for every strategy, the verdicts with no vote left.
func TestNoVotes(t *testing.T) {
	cases := []struct {
		name   string
		errors ErrorPolicy
		votes  []judge.Judgment
		want   func(s Strategy) outcome
	}{
		{
			name:  "all abstain",
			votes: []judge.Judgment{abstain, abstain, abstain},
			want: func(s Strategy) outcome {
				return outcome{judge.StatusAbstain, "", string(s), "all 3 jurors abstained"}
			},
		},
		{
			name:   "all abstain, errors ignored",
			errors: ErrorsIgnored,
			votes:  []judge.Judgment{abstain, abstain},
			want: func(s Strategy) outcome {
				return outcome{judge.StatusAbstain, "", string(s), "all 2 jurors abstained"}
			},
		},
		{
			name:   "all error, errors ignored",
			errors: ErrorsIgnored,
			votes:  []judge.Judgment{errored, errored},
			want: func(s Strategy) outcome {
				return outcome{judge.StatusError, "", string(s) + " (errors: ignore)",
					"no votes: 0 pass, 0 fail, 2 errored (ignored); could not judge: juror 1: provider down; juror 2: provider down"}
			},
		},
		{
			name:   "abstain and error, errors ignored",
			errors: ErrorsIgnored,
			votes:  []judge.Judgment{abstain, errored},
			want: func(s Strategy) outcome {
				return outcome{judge.StatusError, "", string(s) + " (errors: ignore)",
					"no votes: 0 pass, 0 fail, 1 abstained, 1 errored (ignored); could not judge: juror 2: provider down"}
			},
		},
		{
			name:  "all error, errors as verdict",
			votes: []judge.Judgment{errored, errored},
			want: func(s Strategy) outcome {
				return outcome{judge.StatusError, "", string(s) + " (errors: error)",
					"2 of 2 jurors could not judge: juror 1: provider down; juror 2: provider down"}
			},
		},
	}
	for _, s := range strategies {
		for _, tc := range cases {
			t.Run(string(s)+"/"+tc.name, func(t *testing.T) {
				c := completed(t, Config{Strategy: s, Errors: tc.errors}, len(tc.votes))
				got := outcomeOf(decide(c, tc.votes))
				if diff := cmp.Diff(tc.want(s), got); diff != "" {
					t.Errorf("verdict (-want +got):\n%s", diff)
				}
			})
		}
	}
}

// TestErrorsAsFailAcrossStrategies checks that all errors counted as fails
// give a FAIL verdict with score 0 under every strategy.
func TestErrorsAsFailAcrossStrategies(t *testing.T) {
	for _, s := range strategies {
		t.Run(string(s), func(t *testing.T) {
			c := completed(t, Config{Strategy: s, Errors: ErrorsAsFail}, 2)
			got := decide(c, []judge.Judgment{errored, errored})
			if got.Status != judge.StatusFail || got.Score.Normalized() != 0 {
				t.Errorf("got %s with score %v, want FAIL with score 0 (%s)", got.Status, got.Score, got.Reasoning)
			}
		})
	}
}

func TestDecideParts(t *testing.T) {
	in := []judge.Judgment{
		{Name: "critic", Status: judge.StatusPass, Usage: judge.Usage{InputTokens: 100, OutputTokens: 10, CostUSD: 0.5}},
		{Status: judge.StatusError, Reasoning: "judge panicked: boom\ngoroutine 7 [running]:\n...", Usage: judge.Usage{InputTokens: 5}},
		{Status: judge.StatusFail, Usage: judge.Usage{OutputTokens: 1, CachedTokens: 3, CostUSD: 0.25}},
	}
	t.Run("default name and parts named in juror order", func(t *testing.T) {
		got := decide(completed(t, Config{Errors: ErrorsAsFail}, 3), in)
		if got.Name != "jury" {
			t.Errorf("name: got %q, want %q", got.Name, "jury")
		}
		var names []string
		var statuses []judge.Status
		for _, p := range got.Parts {
			names = append(names, p.Name)
			statuses = append(statuses, p.Status)
		}
		if diff := cmp.Diff([]string{"critic", "juror 2", "juror 3"}, names); diff != "" {
			t.Errorf("part names (-want +got):\n%s", diff)
		}
		// An error counted as a fail is still reported as the ERROR it was.
		if diff := cmp.Diff([]judge.Status{judge.StatusPass, judge.StatusError, judge.StatusFail}, statuses); diff != "" {
			t.Errorf("part statuses (-want +got):\n%s", diff)
		}
		if in[1].Name != "" {
			t.Errorf("decide named the caller's judgment: got %q, want it unchanged", in[1].Name)
		}
	})
	t.Run("usage is the sum of the jurors' usage", func(t *testing.T) {
		got := decide(completed(t, Config{}, 3), in)
		want := judge.Usage{InputTokens: 105, OutputTokens: 11, CachedTokens: 3, CostUSD: 0.75}
		if diff := cmp.Diff(want, got.Usage); diff != "" {
			t.Errorf("usage (-want +got):\n%s", diff)
		}
	})
	t.Run("the given name", func(t *testing.T) {
		got := decide(completed(t, Config{Name: "tone"}, 3), in)
		if got.Name != "tone" {
			t.Errorf("name: got %q, want %q", got.Name, "tone")
		}
	})
	t.Run("an error's reasoning is cut to its first line", func(t *testing.T) {
		got := decide(completed(t, Config{}, 3), in)
		want := "1 of 3 jurors could not judge: juror 2: judge panicked: boom"
		if got.Reasoning != want {
			t.Errorf("reasoning: got %q, want %q", got.Reasoning, want)
		}
	})
	t.Run("the verdict is a valid judgment", func(t *testing.T) {
		for _, c := range []Config{{}, {Errors: ErrorsAsFail}, {Strategy: Median, Errors: ErrorsIgnored}} {
			got := decide(completed(t, c, 3), in)
			if err := got.Validate(); err != nil {
				t.Errorf("%+v: got an invalid judgment: %v", c, err)
			}
		}
	})
}
