package rule

import (
	"fmt"
	"math"
	"time"

	"github.com/gavelhq/gavel/judge"
)

// MaxTurnLatency passes when every agent turn took at most max to produce.
func MaxTurnLatency(max time.Duration) (judge.Judge, error) {
	if max <= 0 {
		return nil, fmt.Errorf("max_turn_latency: %v: want a positive duration", max)
	}
	name := "max_turn_latency " + max.String()
	return limitRule(name, atMost("slowest agent turn", max.Seconds(), "s"), func(t *judge.Transcript) (bool, string, float64) {
		slowest, at := time.Duration(0), 0
		for i, turn := range t.Turns {
			if turn.Role == judge.RoleAgent && turn.Latency > slowest {
				slowest, at = turn.Latency, i+1
			}
		}
		if slowest > max {
			return false, fmt.Sprintf("turn %d took %v, at most %v allowed", at, slowest, max), slowest.Seconds()
		}
		return true, fmt.Sprintf("slowest agent turn took %v, at most %v allowed", slowest, max), slowest.Seconds()
	}), nil
}

// MaxDuration passes when the whole trial took at most max.
func MaxDuration(max time.Duration) (judge.Judge, error) {
	if max <= 0 {
		return nil, fmt.Errorf("max_duration: %v: want a positive duration", max)
	}
	return limitRule("max_duration "+max.String(), atMost("trial", max.Seconds(), "s"), func(t *judge.Transcript) (bool, string, float64) {
		return t.Duration <= max, fmt.Sprintf("the trial took %v, at most %v allowed", t.Duration, max), t.Duration.Seconds()
	}), nil
}

// MaxTurns passes when the agent spoke at most max turns.
func MaxTurns(max int) (judge.Judge, error) {
	if max < 1 {
		return nil, fmt.Errorf("max_turns: %d: want at least 1", max)
	}
	return limitRule(fmt.Sprintf("max_turns %d", max), atMost("agent turns", float64(max), ""), func(t *judge.Transcript) (bool, string, float64) {
		n := len(t.AgentTurns())
		return n <= max, fmt.Sprintf("the agent took %d turn(s), at most %d allowed", n, max), float64(n)
	}), nil
}

// MaxCost passes when the agent under test spent at most usd dollars
// (judge.Transcript.Usage; judges' costs are not counted). It is an
// ERROR when the agent did not report all it spent.
func MaxCost(usd float64) (judge.Judge, error) {
	if math.IsNaN(usd) || math.IsInf(usd, 0) || usd < 0 {
		return nil, fmt.Errorf("max_cost: %v: want a dollar amount of 0 or more", usd)
	}
	return spendingRule(fmt.Sprintf("max_cost $%g", usd), fmt.Sprintf("at most $%g", usd), atMost("agent's cost", usd, "USD"), func(t *judge.Transcript) (bool, string, float64) {
		return judge.CompareToThreshold(t.Usage.CostUSD, usd) <= 0, fmt.Sprintf("the agent spent $%.4f, at most $%g allowed", t.Usage.CostUSD, usd), t.Usage.CostUSD
	}), nil
}

// MaxTokens passes when the agent under test used at most max input plus
// output tokens. It is an ERROR when the agent did not report all it
// spent.
func MaxTokens(max int64) (judge.Judge, error) {
	if max < 1 {
		return nil, fmt.Errorf("max_tokens: %d: want at least 1", max)
	}
	return spendingRule(fmt.Sprintf("max_tokens %d", max), fmt.Sprintf("at most %d tokens", max), atMost("agent's tokens", float64(max), ""), func(t *judge.Transcript) (bool, string, float64) {
		n := t.Usage.Tokens()
		return n <= max, fmt.Sprintf("the agent used %d tokens, at most %d allowed", n, max), float64(n)
	}), nil
}
