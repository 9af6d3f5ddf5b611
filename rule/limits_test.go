package rule_test

import (
	"testing"
	"time"

	"github.com/gavelhq/gavel/judge"
	"github.com/gavelhq/gavel/rule"
)

func TestLimits(t *testing.T) {
	pass, fail := judge.StatusPass, judge.StatusFail
	tr := conversation("one", "two", "three")
	tr.Turns[3].Latency = 4 * time.Second
	tr.Turns[1].Latency = time.Second
	tr.Duration = 9 * time.Second
	tr.Usage = judge.Usage{InputTokens: 1200, OutputTokens: 300, CostUSD: 0.042}

	runVerdictCases(t, []verdictCase{
		{"turn latency within", func() (judge.Judge, error) { return rule.MaxTurnLatency(5 * time.Second) }, tr, pass, "slowest agent turn took 4s"},
		{"turn latency over", func() (judge.Judge, error) { return rule.MaxTurnLatency(2 * time.Second) }, tr, fail, "turn 4 took 4s, at most 2s allowed"},
		{"duration over", func() (judge.Judge, error) { return rule.MaxDuration(5 * time.Second) }, tr, fail, "the trial took 9s"},
		{"turns within", func() (judge.Judge, error) { return rule.MaxTurns(3) }, tr, pass, ""},
		{"turns over", func() (judge.Judge, error) { return rule.MaxTurns(2) }, tr, fail, "the agent took 3 turn(s), at most 2 allowed"},
		{"cost over", func() (judge.Judge, error) { return rule.MaxCost(0.01) }, tr, fail, "the agent spent $0.0420, at most $0.01 allowed"},
		{"cost within", func() (judge.Judge, error) { return rule.MaxCost(0.05) }, tr, pass, ""},
		{"tokens over", func() (judge.Judge, error) { return rule.MaxTokens(1000) }, tr, fail, "used 1500 tokens"},
	})
	runBuildErrorCases(t, []buildErrorCase{
		{"zero latency", func() (judge.Judge, error) { return rule.MaxTurnLatency(0) }, "want a positive duration"},
		{"negative cost", func() (judge.Judge, error) { return rule.MaxCost(-1) }, "want a dollar amount"},
		{"zero turns", func() (judge.Judge, error) { return rule.MaxTurns(0) }, "want at least 1"},
	})
}
