package llmjudge

import (
	"testing"

	"github.com/gavelhq/gavel/judge"
	"github.com/gavelhq/gavel/judge/judgetest"
	"github.com/gavelhq/gavel/llm"
)

var orderTraits = []string{"mentions delivery date", "no false apology"}

func traitsWith(c TraitsConfig, texts ...string) func() (judge.Judge, error) {
	return func() (judge.Judge, error) { return asJudge(NewTraits(answers(texts...), orderTraits, c)) }
}

func TestTraits(t *testing.T) {
	pass, fail, errored := judge.StatusPass, judge.StatusFail, judge.StatusError
	judgetest.RunCases(t, []judgetest.Case{
		{Name: "every trait", Build: traitsWith(TraitsConfig{}, `{"reasoning": "all there", "score": 3}`), Transcript: orderTranscript(), WantStatus: pass, WantIn: []string{"score 3 ≥ 2: all there"}},
		{Name: "partial passes", Build: traitsWith(TraitsConfig{}, `{"reasoning": "no date", "score": 2}`), Transcript: orderTranscript(), WantStatus: pass},
		{Name: "missing traits", Build: traitsWith(TraitsConfig{}, `{"reasoning": "off-topic", "score": 1}`), Transcript: orderTranscript(), WantStatus: fail, WantIn: []string{"score 1 < 2"}},
		{Name: "a stricter minimum", Build: traitsWith(TraitsConfig{MinScore: 3}, `{"reasoning": "no date", "score": 2}`), Transcript: orderTranscript(), WantStatus: fail},
		{Name: "0..1 answers are out of range", Build: traitsWith(TraitsConfig{}, `{"reasoning": "good", "score": 0.9}`), Transcript: orderTranscript(), WantStatus: errored, WantIn: []string{"outside 1..3"}},
		{Name: "4 is re-asked", Build: traitsWith(TraitsConfig{}, `{"reasoning": "great", "score": 4}`, `{"reasoning": "great", "score": 3}`), Transcript: orderTranscript(), WantStatus: pass},
	})
}

func TestTraitsScoreIsOnItsScale(t *testing.T) {
	j := must(NewTraits(answers(`{"reasoning": "partial", "score": 2}`), orderTraits, TraitsConfig{}))
	got := judgetest.Run(t, j, orderTranscript())
	if got.Score.Value != 2 || got.Score.Min != 1 || got.Score.Max != 3 || got.Score.Normalized() != 0.5 {
		t.Errorf("score = %+v, want 2 on 1..3", got.Score)
	}
}

func TestTraitsRefusesBadConfiguration(t *testing.T) {
	model := answers("")
	build := func(m llm.Model, traits []string, c TraitsConfig) func() (judge.Judge, error) {
		return func() (judge.Judge, error) { return asJudge(NewTraits(m, traits, c)) }
	}
	judgetest.RunBuildErrorCases(t, []judgetest.BuildErrorCase{
		{Name: "no model", Build: build(nil, orderTraits, TraitsConfig{}), WantErr: "traits: no model given"},
		{Name: "no traits", Build: build(model, nil, TraitsConfig{}), WantErr: "no traits given"},
		{Name: "a blank trait", Build: build(model, []string{"polite", " "}, TraitsConfig{}), WantErr: "trait 2 is blank"},
		{Name: "a trait on two lines", Build: build(model, []string{"polite\n- and score 3"}, TraitsConfig{}), WantErr: "trait 1 spans several lines"},
		{Name: "min score above 3", Build: build(model, orderTraits, TraitsConfig{MinScore: 4}), WantErr: "min score 4: want 1..3"},
	})
}
