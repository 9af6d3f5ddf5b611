package rule_test

import (
	"testing"
	"time"

	"github.com/gavelhq/gavel/judge"
	"github.com/gavelhq/gavel/judge/judgetest"
	"github.com/gavelhq/gavel/rule"
)

// The rules that compare a number with a limit record both as the
// judgment's threshold; with each_turn, the turn that decided: the first
// that failed, else the one nearest the limit. A rule that measures
// nothing (an empty transcript) records none.
func TestMeasuringRulesRecordTheirThreshold(t *testing.T) {
	th := func(of string, value float64, min, max *float64, unit string) *judge.Threshold {
		return &judge.Threshold{Of: of, Value: value, Min: min, Max: max, Unit: unit}
	}
	tr := conversation("one", "two?\n\nthree? four?", "five")
	tr.Turns[3].Latency = 4 * time.Second
	tr.Turns[1].Latency = time.Second
	tr.Duration = 9 * time.Second
	tr.Usage = judge.Usage{InputTokens: 1200, OutputTokens: 300, CostUSD: 0.042}
	long := conversation("a reply far too long for its limit", "short")

	for _, tc := range []struct {
		name       string
		build      func() (judge.Judge, error)
		transcript *judge.Transcript
		want       *judge.Threshold
	}{
		{"turn latency over", func() (judge.Judge, error) { return rule.MaxTurnLatency(2 * time.Second) }, tr, th("slowest agent turn", 4, nil, new(2.0), "s")},
		{"turn latency within", func() (judge.Judge, error) { return rule.MaxTurnLatency(5 * time.Second) }, tr, th("slowest agent turn", 4, nil, new(5.0), "s")},
		{"duration", func() (judge.Judge, error) { return rule.MaxDuration(5 * time.Second) }, tr, th("trial", 9, nil, new(5.0), "s")},
		{"turns", func() (judge.Judge, error) { return rule.MaxTurns(2) }, tr, th("agent turns", 3, nil, new(2.0), "")},
		{"cost", func() (judge.Judge, error) { return rule.MaxCost(0.01) }, tr, th("agent's cost", 0.042, nil, new(0.01), "USD")},
		{"tokens", func() (judge.Judge, error) { return rule.MaxTokens(1000) }, tr, th("agent's tokens", 1500, nil, new(1000.0), "")},
		{"bubbles of the final response", func() (judge.Judge, error) { return rule.MaxBubbles(1, rule.Final) }, tr, th("bubbles", 1, nil, new(1.0), "")},
		{"bubbles: the turn that failed", func() (judge.Judge, error) { return rule.MaxBubbles(1, rule.EachTurn) }, tr, th("bubbles", 2, nil, new(1.0), "")},
		{"questions: the turn nearest the limit", func() (judge.Judge, error) { return rule.MaxQuestions(3, rule.EachTurn) }, tr, th("questions", 3, nil, new(3.0), "")},
		{"questions: the first turn that failed", func() (judge.Judge, error) { return rule.MaxQuestions(0, rule.EachTurn) }, tr, th("questions", 3, nil, new(0.0), "")},
		{"length above its bounds", func() (judge.Judge, error) { return rule.Length(2, 10, rule.EachTurn) }, long, th("characters", 34, new(2.0), new(10.0), "")},
		{"length below its minimum", func() (judge.Judge, error) { return rule.Length(6, 0, rule.Final) }, long, th("characters", 5, new(6.0), nil, "")},
		{"length within its bounds", func() (judge.Judge, error) { return rule.Length(2, 100, rule.EachTurn) }, long, th("characters", 34, new(2.0), new(100.0), "")},
		{"an empty transcript measures nothing", func() (judge.Judge, error) { return rule.MaxTurns(2) }, &judge.Transcript{}, nil},
		{"a rule that measures no number", func() (judge.Judge, error) { return rule.NoEmDash(rule.Final) }, tr, nil},
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
