package llmjudge

import (
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/gavelhq/gavel/judge"
	"github.com/gavelhq/gavel/judge/judgetest"
	"github.com/gavelhq/gavel/llm"
)

// axesAnswer is an answer scoring the seed axes in order.
func axesAnswer(character, guidance, conversation, style int) string {
	return fmt.Sprintf(`{"character": {"reasoning": "c", "score": %d}, "guidance": {"reasoning": "g", "score": %d}, "conversation": {"reasoning": "v", "score": %d}, "style": {"reasoning": "s", "score": %d}}`,
		character, guidance, conversation, style)
}

func criteriaWith(c CriteriaConfig, texts ...string) func() (judge.Judge, error) {
	return func() (judge.Judge, error) { return asJudge(NewCriteria(answers(texts...), seedAxes, c)) }
}

func TestCriteria(t *testing.T) {
	pass, fail, errored := judge.StatusPass, judge.StatusFail, judge.StatusError
	judgetest.RunCases(t, []judgetest.Case{
		{Name: "good on every axis", Build: criteriaWith(CriteriaConfig{}, axesAnswer(8, 7, 7, 7)), Transcript: orderTranscript(), WantStatus: pass,
			WantIn: []string{"mean 7.25 ≥ 6.5, lowest 7 ≥ 5 (guidance)", "\ncharacter 8: c", "\nstyle 7: s"}},
		{Name: "the mean is too low", Build: criteriaWith(CriteriaConfig{}, axesAnswer(6, 6, 7, 6)), Transcript: orderTranscript(), WantStatus: fail,
			WantIn: []string{"mean 6.25 < 6.5"}},
		{Name: "one axis is too low, however good the mean", Build: criteriaWith(CriteriaConfig{}, axesAnswer(10, 10, 10, 4)), Transcript: orderTranscript(), WantStatus: fail,
			WantIn: []string{"mean 8.5 ≥ 6.5, lowest 4 < 5 (style)"}},
		{Name: "exactly at both thresholds", Build: criteriaWith(CriteriaConfig{}, axesAnswer(8, 8, 5, 5)), Transcript: orderTranscript(), WantStatus: pass},
		{Name: "stricter thresholds", Build: criteriaWith(CriteriaConfig{MinMean: 8, MinAxis: 7}, axesAnswer(8, 8, 8, 7)), Transcript: orderTranscript(), WantStatus: fail, WantIn: []string{"mean 7.75 < 8"}},
		{Name: "a missing axis is re-asked", Build: criteriaWith(CriteriaConfig{}, `{"character": {"reasoning": "c", "score": 8}}`, axesAnswer(8, 7, 7, 7)), Transcript: orderTranscript(), WantStatus: pass},
		{Name: "an axis out of range is re-asked", Build: criteriaWith(CriteriaConfig{}, axesAnswer(11, 7, 7, 7), axesAnswer(9, 7, 7, 7)), Transcript: orderTranscript(), WantStatus: pass},
		{Name: "always a missing axis", Build: criteriaWith(CriteriaConfig{}, `{"character": {"reasoning": "c", "score": 10}}`), Transcript: orderTranscript(), WantStatus: errored,
			WantIn: []string{`axis "guidance" is missing`}},
		{Name: "no response", Build: criteriaWith(CriteriaConfig{}, "not called"), Transcript: &judge.Transcript{}, WantStatus: fail},
	})
}

// Every axis keeps its score: a check and a part each, with a 1..10
// score; the judgment's score is the mean, normalised.
func TestCriteriaKeepsEveryAxis(t *testing.T) {
	c := must(NewCriteria(answers(axesAnswer(8, 7, 4, 9)), seedAxes, CriteriaConfig{}))
	got := judgetest.Run(t, c, orderTranscript())

	wantChecks := []judge.Check{
		{Name: "character", Passed: true, Message: "8/10, at least 5 needed"},
		{Name: "guidance", Passed: true, Message: "7/10, at least 5 needed"},
		{Name: "conversation", Passed: false, Message: "4/10, at least 5 needed"},
		{Name: "style", Passed: true, Message: "9/10, at least 5 needed"},
		{Name: "mean", Passed: true, Message: "mean 7 ≥ 6.5"},
	}
	if diff := cmp.Diff(wantChecks, got.Checks); diff != "" {
		t.Errorf("checks (-want +got):\n%s", diff)
	}
	var wantParts []judge.Judgment
	for i, s := range []float64{8, 7, 4, 9} {
		status := judge.StatusPass
		if s < 5 {
			status = judge.StatusFail
		}
		wantParts = append(wantParts, judge.Judgment{Name: seedAxes[i].Name, Status: status, Score: must(judge.Number(s, 1, 10)), Reasoning: "cgvs"[i : i+1], Threshold: judge.AtLeast(s, 5)})
	}
	if diff := cmp.Diff(wantParts, got.Parts); diff != "" {
		t.Errorf("parts (-want +got):\n%s", diff)
	}
	if got.Status != judge.StatusFail {
		t.Errorf("status = %s, want FAIL (conversation is below 5)", got.Status)
	}
	if want := (7.0 - 1) / 9; got.Score.Kind != judge.Numerical || got.Score.Min != 0 || got.Score.Max != 1 || got.Score.Value < want-1e-9 || got.Score.Value > want+1e-9 {
		t.Errorf("score = %+v, want the mean 7 normalised to 0..1 (%v)", got.Score, want)
	}
}

func TestCriteriaSamples(t *testing.T) {
	model := answers(axesAnswer(8, 8, 8, 8), axesAnswer(5, 5, 5, 5), axesAnswer(7, 7, 7, 9))
	c := must(NewCriteria(model, seedAxes, CriteriaConfig{Options: Options{Samples: 3, Aggregate: AggregateMedian}}))
	got := judgetest.Run(t, c, orderTranscript())
	judgetest.Check(t, got, judge.StatusPass, []string{
		"median of 3 samples per axis: mean 7.25 ≥ 6.5, lowest 7 ≥ 5 (character)",
		"sample means 5..8",
		"unstable: the samples disagree (2 PASS, 1 FAIL)",
		"style 8: [sample 1, 8] s [sample 2, 5] s [sample 3, 9] s",
	}, nil)
	last := got.Checks[len(got.Checks)-1]
	if last.Name != "stability" || last.Passed {
		t.Errorf("last check = %+v, want a failed stability check", last)
	}
	if got.Parts[3].Score.Value != 8 {
		t.Errorf("style part = %+v, want the median 8", got.Parts[3].Score)
	}
}

func TestCriteriaRefusesBadConfiguration(t *testing.T) {
	model := answers("")
	build := func(m llm.Model, axes []Axis, c CriteriaConfig) func() (judge.Judge, error) {
		return func() (judge.Judge, error) { return asJudge(NewCriteria(m, axes, c)) }
	}
	one := []Axis{{Name: "style", Description: "short"}}
	many := make([]Axis, 21)
	for i := range many {
		many[i] = Axis{Name: fmt.Sprintf("a%d", i), Description: "x"}
	}
	judgetest.RunBuildErrorCases(t, []judgetest.BuildErrorCase{
		{Name: "no model", Build: build(nil, one, CriteriaConfig{}), WantErr: "criteria: no model given"},
		{Name: "no axes", Build: build(model, nil, CriteriaConfig{}), WantErr: "0 axes: want 1..20"},
		{Name: "too many axes", Build: build(model, many, CriteriaConfig{}), WantErr: "21 axes"},
		{Name: "a name with a space", Build: build(model, []Axis{{Name: "tone of voice", Description: "x"}}, CriteriaConfig{}), WantErr: `axis 1: name "tone of voice"`},
		{Name: "a name with a tag", Build: build(model, []Axis{{Name: "a>b", Description: "x"}}, CriteriaConfig{}), WantErr: `name "a>b"`},
		{Name: "a reserved name", Build: build(model, []Axis{{Name: "score", Description: "x"}}, CriteriaConfig{}), WantErr: `"score" is reserved`},
		{Name: "a name twice", Build: build(model, []Axis{{Name: "style", Description: "x"}, {Name: "style", Description: "y"}}, CriteriaConfig{}), WantErr: `axis 2: name "style" is given twice`},
		{Name: "no description", Build: build(model, []Axis{{Name: "style"}}, CriteriaConfig{}), WantErr: "axis 1 (style): no description"},
		{Name: "min mean above 10", Build: build(model, one, CriteriaConfig{MinMean: 65}), WantErr: "min mean 65: want 1..10"},
		{Name: "min axis below 1", Build: build(model, one, CriteriaConfig{MinAxis: 0.5}), WantErr: "min axis 0.5"},
	})
}
