package llmjudge

import (
	"testing"

	"github.com/gavelhq/gavel/judge"
	"github.com/gavelhq/gavel/judge/judgetest"
)

// Every judge that compares a score with a threshold records both on its
// judgment, on the score's own scale, so that reports read them there;
// a verdict reached without a score (no response to judge) records none.
func TestJudgesRecordTheirThreshold(t *testing.T) {
	criteria := func(mean float64) *judge.Threshold {
		th := judge.AtLeast(mean, 6.5)
		th.Of = "mean"
		return th
	}
	against := func(baseline *judge.Transcript) func() (judge.Judge, error) {
		return func() (judge.Judge, error) {
			p, err := NewPairwise(prefers("2026-03-15"), "The response should give the delivery date.", PairwiseConfig{})
			if err != nil {
				return nil, err
			}
			return p.Against(baseline), nil
		}
	}
	for _, tc := range []struct {
		name       string
		build      func() (judge.Judge, error)
		transcript *judge.Transcript
		want       *judge.Threshold
	}{
		{"rubric below its threshold", rubricWith(RubricConfig{}, scoreAnswer("0.4")), orderTranscript(), judge.AtLeast(0.4, 0.7)},
		{"rubric with its own threshold", rubricWith(RubricConfig{Threshold: new(0.9)}, scoreAnswer("0.85")), orderTranscript(), judge.AtLeast(0.85, 0.9)},
		{"rubric: the samples' aggregate", func() (judge.Judge, error) {
			return asJudge(NewRubric(answers(scoreAnswer("0.1"), scoreAnswer("0.8"), scoreAnswer("0.9")), dateCriteria, RubricConfig{Options: Options{Samples: 3}}))
		}, orderTranscript(), judge.AtLeast(0.6, 0.7)},
		{"rubric without a response records none", rubricWith(RubricConfig{}, "not called"), reply("where's my order?", " "), nil},
		{"traits on their 1..3 scale", traitsWith(TraitsConfig{}, `{"reasoning": "off-topic", "score": 1}`), orderTranscript(), judge.AtLeast(1, 2)},
		{"traits with a stricter minimum", traitsWith(TraitsConfig{MinScore: 3}, `{"reasoning": "no date", "score": 2}`), orderTranscript(), judge.AtLeast(2, 3)},
		{"correctness", correctnessWith(CorrectnessConfig{}, `{"reasoning": "looked it up", "score": 0.95}`), orderTranscript(), judge.AtLeast(0.95, 0.7)},
		{"criteria: the mean on 1..10", criteriaWith(CriteriaConfig{}, axesAnswer(6, 6, 7, 6)), orderTranscript(), criteria(6.25)},
		{"criteria: the mean passes, an axis does not", criteriaWith(CriteriaConfig{}, axesAnswer(10, 10, 10, 4)), orderTranscript(), criteria(8.5)},
		{"criteria without a response records none", criteriaWith(CriteriaConfig{}, "not called"), &judge.Transcript{}, nil},
		{"pairwise: a loss, below a tie", against(withDate), withoutDate, judge.AtLeast(0, 0.5)},
		{"pairwise: a win", against(withoutDate), withDate, judge.AtLeast(1, 0.5)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			j, err := tc.build()
			if err != nil {
				t.Fatal(err)
			}
			judgetest.CheckThreshold(t, judgetest.Run(t, j, tc.transcript), tc.want)
		})
	}
}

// Each axis of a criteria judge records its score against the lowest
// passing score of an axis, so that a report names the axis that failed.
func TestCriteriaAxesRecordTheirThreshold(t *testing.T) {
	j := must(NewCriteria(answers(axesAnswer(10, 10, 10, 4)), seedAxes, CriteriaConfig{}))
	got := judgetest.Run(t, j, orderTranscript())
	if len(got.Parts) != 4 {
		t.Fatalf("got %d parts, want one per axis", len(got.Parts))
	}
	for i, want := range []float64{10, 10, 10, 4} {
		t.Run(got.Parts[i].Name, func(t *testing.T) {
			judgetest.CheckThreshold(t, got.Parts[i], judge.AtLeast(want, 5))
		})
	}
}
