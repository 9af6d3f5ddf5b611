package rule_test

import (
	"testing"
	"time"

	"github.com/gavelhq/gavel/judge"
	"github.com/gavelhq/gavel/judge/judgetest"
	"github.com/gavelhq/gavel/rule"
)

func TestLimits(t *testing.T) {
	pass, fail := judge.StatusPass, judge.StatusFail
	tr := conversation("one", "two", "three")
	tr.Turns[3].Latency = 4 * time.Second
	tr.Turns[1].Latency = time.Second
	tr.Duration = 9 * time.Second
	tr.Usage = judge.Usage{InputTokens: 1200, OutputTokens: 300, CostUSD: 0.042}
	unreported := conversation("one", "two", "three")
	unreported.Usage = judge.Usage{InputTokens: 200, Unreported: true}

	judgetest.RunCases(t, []judgetest.Case{
		{Name: "turn latency within", Build: func() (judge.Judge, error) { return rule.MaxTurnLatency(5 * time.Second) }, Transcript: tr, WantStatus: pass, WantIn: []string{"slowest agent turn took 4s"}},
		{Name: "turn latency over", Build: func() (judge.Judge, error) { return rule.MaxTurnLatency(2 * time.Second) }, Transcript: tr, WantStatus: fail, WantIn: []string{"turn 4 took 4s, at most 2s allowed"}},
		{Name: "duration over", Build: func() (judge.Judge, error) { return rule.MaxDuration(5 * time.Second) }, Transcript: tr, WantStatus: fail, WantIn: []string{"the trial took 9s"}},
		{Name: "turns within", Build: func() (judge.Judge, error) { return rule.MaxTurns(3) }, Transcript: tr, WantStatus: pass},
		{Name: "turns over", Build: func() (judge.Judge, error) { return rule.MaxTurns(2) }, Transcript: tr, WantStatus: fail, WantIn: []string{"the agent took 3 turn(s), at most 2 allowed"}},
		{Name: "cost over", Build: func() (judge.Judge, error) { return rule.MaxCost(0.01) }, Transcript: tr, WantStatus: fail, WantIn: []string{"the agent spent $0.0420, at most $0.01 allowed"}},
		{Name: "cost within", Build: func() (judge.Judge, error) { return rule.MaxCost(0.05) }, Transcript: tr, WantStatus: pass},
		{Name: "tokens over", Build: func() (judge.Judge, error) { return rule.MaxTokens(1000) }, Transcript: tr, WantStatus: fail, WantIn: []string{"used 1500 tokens"}},
		// What the agent did not report is unknown, not 0: no limit holds.
		{Name: "tokens unreported", Build: func() (judge.Judge, error) { return rule.MaxTokens(1000) }, Transcript: unreported, WantStatus: judge.StatusError,
			WantIn: []string{"the agent did not report all it spent", "at most 1000 tokens"}},
		{Name: "cost unreported", Build: func() (judge.Judge, error) { return rule.MaxCost(0.05) }, Transcript: unreported, WantStatus: judge.StatusError,
			WantIn: []string{"the agent did not report all it spent", "at most $0.05"}},
	})
	judgetest.RunBuildErrorCases(t, []judgetest.BuildErrorCase{
		{Name: "zero latency", Build: func() (judge.Judge, error) { return rule.MaxTurnLatency(0) }, WantErr: "want a positive duration"},
		{Name: "negative cost", Build: func() (judge.Judge, error) { return rule.MaxCost(-1) }, WantErr: "want a dollar amount"},
		{Name: "zero turns", Build: func() (judge.Judge, error) { return rule.MaxTurns(0) }, WantErr: "want at least 1"},
	})
}

// A cost at its limit passes, whatever the rounding of the sum that made
// it: $0.10 and $0.20 spent is $0.30000000000000004 in floating point.
func TestMaxCostAtItsLimit(t *testing.T) {
	pass, fail := judge.StatusPass, judge.StatusFail
	spent := func(usd float64) *judge.Transcript {
		tr := conversation("one")
		tr.Usage = judge.Usage{InputTokens: 10, OutputTokens: 10, CostUSD: usd}
		return tr
	}
	dime, twoDimes := 0.1, 0.2 // variables, not constants: Go adds constants exactly
	judgetest.RunCases(t, []judgetest.Case{
		{Name: "0.1 + 0.2 at 0.3", Build: func() (judge.Judge, error) { return rule.MaxCost(0.3) }, Transcript: spent(dime + twoDimes), WantStatus: pass},
		{Name: "0.3 at 0.3", Build: func() (judge.Judge, error) { return rule.MaxCost(0.3) }, Transcript: spent(0.3), WantStatus: pass},
		{Name: "0.3001 at 0.3", Build: func() (judge.Judge, error) { return rule.MaxCost(0.3) }, Transcript: spent(0.3001), WantStatus: fail},
	})
}
