package llmjudge

import (
	"context"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/gavelhq/gavel/judge"
	"github.com/gavelhq/gavel/judge/judgetest"
	"github.com/gavelhq/gavel/llm"
	"github.com/gavelhq/gavel/llm/llmtest"
)

func scoreAnswer(score string) string {
	return `{"reasoning": "scored ` + score + `", "score": ` + score + `}`
}

func TestSamples(t *testing.T) {
	for _, tc := range []struct {
		name       string
		scores     []string
		aggregate  Aggregate
		wantStatus judge.Status
		wantScore  float64
		wantStable bool
		wantIn     []string
	}{
		{name: "agreeing samples", scores: []string{"0.8", "0.9", "0.85"}, wantStatus: judge.StatusPass, wantScore: 0.85, wantStable: true,
			wantIn: []string{"mean score of 3 samples 0.85 ≥ 0.7 (range 0.8..0.9)", "sample 2, score 0.9: scored 0.9"}},
		{name: "disagreeing samples are unstable", scores: []string{"0.9", "0.3", "0.9"}, wantStatus: judge.StatusPass, wantScore: 0.7, wantStable: false,
			wantIn: []string{"unstable: the samples disagree (2 PASS, 1 FAIL)", "range 0.3..0.9"}},
		{name: "mean", scores: []string{"0.1", "0.8", "0.9"}, aggregate: AggregateMean, wantStatus: judge.StatusFail, wantScore: 0.6, wantStable: false,
			wantIn: []string{"mean score of 3 samples 0.6 < 0.7"}},
		{name: "median", scores: []string{"0.1", "0.8", "0.9"}, aggregate: AggregateMedian, wantStatus: judge.StatusPass, wantScore: 0.8, wantStable: false,
			wantIn: []string{"median score of 3 samples 0.8 ≥ 0.7"}},
		{name: "median of an even count", scores: []string{"0.2", "0.6", "0.8", "1"}, aggregate: AggregateMedian, wantStatus: judge.StatusPass, wantScore: 0.7, wantStable: false},
		{name: "all failing is stable", scores: []string{"0.1", "0.2"}, wantStatus: judge.StatusFail, wantScore: 0.15, wantStable: true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			answersIn := make([]string, len(tc.scores))
			for i, s := range tc.scores {
				answersIn[i] = scoreAnswer(s)
			}
			model := answers(answersIn...)
			r := must(NewRubric(model, dateCriteria, RubricConfig{Options: Options{Samples: len(tc.scores), Aggregate: tc.aggregate}}))
			got := judgetest.Run(t, r, orderTranscript())
			judgetest.Check(t, got, tc.wantStatus, tc.wantIn, nil)
			if v := got.Score.Normalized(); v < tc.wantScore-1e-9 || v > tc.wantScore+1e-9 {
				t.Errorf("score = %v, want %v", v, tc.wantScore)
			}
			var stability *judge.Check
			for i := range got.Checks {
				if got.Checks[i].Name == "stability" {
					stability = &got.Checks[i]
				}
			}
			if stability == nil || stability.Passed != tc.wantStable {
				t.Errorf("stability check = %+v, want one with Passed %v", stability, tc.wantStable)
			}
			if unstable := contains(got.Reasoning, "unstable"); unstable == tc.wantStable {
				t.Errorf("reasoning says unstable: %v, want %v:\n%s", unstable, !tc.wantStable, got.Reasoning)
			}

			// Each sample is its own request, so a cache keeps them apart.
			var trials []int
			for _, c := range model.Calls() {
				trials = append(trials, c.Trial)
			}
			want := make([]int, len(tc.scores))
			for i := range want {
				want[i] = i
			}
			if diff := cmp.Diff(want, trials); diff != "" {
				t.Errorf("trials of the calls (-want +got):\n%s", diff)
			}
		})
	}
}

// One sample that cannot be parsed makes the whole an error: the samples
// that did parse are not enough to call it.
func TestASampleThatFailsFailsTheWhole(t *testing.T) {
	model := answers(scoreAnswer("0.9"), "garbage")
	r := must(NewRubric(model, dateCriteria, RubricConfig{Options: Options{Samples: 2}}))
	got := judgetest.Run(t, r, orderTranscript())
	judgetest.Check(t, got, judge.StatusError, []string{"sample 2 of 2: the model's answer could not be used"}, nil)
	if n := len(model.Calls()); n != 4 {
		t.Errorf("got %d calls, want 4 (one, then three for sample 2)", n)
	}

	// What the four calls spent is in the ERROR's usage, as a meter
	// counted it.
	meter := llm.NewMeter(llm.DefaultPrices())
	metered := llm.Chain(answers(scoreAnswer("0.9"), "garbage"), meter.Meter())
	got = judgetest.Run(t, must(NewRubric(metered, dateCriteria, RubricConfig{Options: Options{Samples: 2}})), orderTranscript())
	if want := judge.Usage(meter.Total()); got.Usage != want || want.OutputTokens == 0 {
		t.Errorf("usage = %+v, want %+v (every call the meter counted)", got.Usage, want)
	}
}

// A single sample has no stability check: there is nothing to compare.
func TestOneSampleHasNoStabilityCheck(t *testing.T) {
	r := must(NewRubric(answers(scoreAnswer("0.9")), dateCriteria, RubricConfig{}))
	got := judgetest.Run(t, r, orderTranscript())
	if len(got.Checks) != 0 {
		t.Errorf("checks = %+v, want none", got.Checks)
	}
}

func TestAggregate(t *testing.T) {
	for _, tc := range []struct {
		vals       []float64
		mean, medi float64
	}{
		{[]float64{5}, 5, 5},
		{[]float64{1, 2, 9}, 4, 2},
		{[]float64{9, 1, 2, 4}, 4, 3},
		{[]float64{0.6, 0.8}, 0.7, 0.7},
	} {
		if got := aggregate(tc.vals, AggregateMean); got < tc.mean-1e-9 || got > tc.mean+1e-9 {
			t.Errorf("mean of %v = %v, want %v", tc.vals, got, tc.mean)
		}
		if got := aggregate(tc.vals, AggregateMedian); got != tc.medi {
			t.Errorf("median of %v = %v, want %v", tc.vals, got, tc.medi)
		}
	}
}

func TestSamplesAndTrialsGetTheirOwnCacheKeys(t *testing.T) {
	model := &llmtest.Scripted{Rules: []llmtest.Rule{{Text: `{"reasoning": "fine", "score": 0.9}`}}}
	rubric, err := NewRubric(model, "be helpful", RubricConfig{Options: Options{Samples: 3}})
	if err != nil {
		t.Fatal(err)
	}
	for _, trial := range []int{1, 2} {
		tr := &judge.Transcript{Goal: "hi", FinalResponse: "hello", Trial: trial}
		if got := judge.Run(context.Background(), rubric, tr); got.Status != judge.StatusPass {
			t.Fatalf("trial %d: %s %s", trial, got.Status, got.Reasoning)
		}
	}
	seen := map[int]bool{}
	for _, call := range model.Calls() {
		if seen[call.Trial] {
			t.Errorf("two calls share Trial %d: a cache would answer one from the other", call.Trial)
		}
		seen[call.Trial] = true
	}
	if len(seen) != 6 {
		t.Errorf("%d distinct trials over 6 calls, want 6", len(seen))
	}
}
