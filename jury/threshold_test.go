package jury

import (
	"testing"

	"github.com/gavelhq/gavel/judge"
	"github.com/gavelhq/gavel/judge/judgetest"
)

// A strategy that compares a value with a threshold records both on the
// jury's judgment, named for what it computed; a vote records none, and
// neither does a jury that could not count its votes.
func TestStrategiesRecordTheirThreshold(t *testing.T) {
	of := func(what string, value, min float64) *judge.Threshold {
		th := judge.AtLeast(value, min)
		th.Of = what
		return th
	}
	votes := []judge.Judgment{failScore(2), failScore(3), passScore(7)}
	for _, tc := range []struct {
		name  string
		c     Config
		votes []judge.Judgment
		want  *judge.Threshold
	}{
		{"average below the default threshold", Config{Strategy: Average}, votes, of("average", 0.4, 0.5)},
		{"average with a threshold set", Config{Strategy: Average, Threshold: new(0.3)}, votes, of("average", 0.4, 0.3)},
		{"weighted average", Config{Strategy: WeightedAverage, Weights: []float64{1, 1, 2}}, votes, of("weighted average", (0.2+0.3+2*0.7)/4, 0.5)},
		{"median", Config{Strategy: Median, Threshold: new(0.25)}, votes, of("median", 0.3, 0.25)},
		{"majority is a vote", Config{Strategy: Majority}, votes, nil},
		{"consensus is a vote", Config{Strategy: Consensus}, votes, nil},
		{"an ERROR counts no votes", Config{Strategy: Average}, []judge.Judgment{errored, pass}, nil},
		{"nothing but abstentions", Config{Strategy: Median}, []judge.Judgment{abstain, abstain}, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			judgetest.CheckThreshold(t, decide(completed(t, tc.c, len(tc.votes)), tc.votes), tc.want)
		})
	}
}
