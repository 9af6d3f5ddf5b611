package gavel_test

import (
	"fmt"
	"testing"

	"github.com/gavelhq/gavel"
	"github.com/gavelhq/gavel/judge"
)

// bigRun is a run of n cases of 3 trials, each trial also scoring one
// criterion: case i passes passes(i) of its trials.
func bigRun(n int, passes func(i int) int) *gavel.Run {
	run := &gavel.Run{Suite: &gavel.Suite{Threshold: 0.5}}
	for i := range n {
		id := fmt.Sprintf("c%05d", i)
		cr := gavel.CaseResult{Case: &gavel.Case{ID: id}}
		for t := 1; t <= 3; t++ {
			ok := t <= passes(i)
			score := 0.2
			if ok {
				score = 0.9
			}
			cr.Trials = append(cr.Trials, gavel.Trial{CaseID: id, N: t, Verdict: judge.Judgment{Status: judge.Verdict(ok, "").Status,
				Parts: []judge.Judgment{{Name: "helpful", Status: judge.Verdict(ok, "").Status, Score: judge.Score{Kind: judge.Numerical, Value: score, Max: 1}}}}})
		}
		cr.Summarize()
		run.Cases = append(run.Cases, cr)
	}
	return run
}

// BenchmarkVerdict10000 measures what a run's verdict costs on 10,000
// cases of 3 trials: its numbers with every interval and its gate
// (Run.Stats, Run.Gate), and its comparison with a baseline in which a
// fifth of the cases moved by one trial (gavel.Compare: the test of the
// pass rate and of the criterion). bench/README.md records the figures.
func BenchmarkVerdict10000(b *testing.B) {
	const n = 10000
	passes := func(i int) int { return int(uint32(i) * 2654435761 >> 30) }
	base := bigRun(n, passes)
	head := bigRun(n, func(i int) int {
		switch c := passes(i); i % 10 {
		case 0:
			return min(c+1, 3)
		case 5:
			return max(c-1, 0)
		default:
			return c
		}
	})
	// Each iteration changes a case, so that no interval is remembered
	// from the last (the bootstraps' memo): the cost of a new run's gate.
	b.Run("Gate", func(b *testing.B) {
		i := 0
		for b.Loop() {
			cr := &head.Cases[i%n]
			cr.Trials = append(cr.Trials[:3:3], gavel.Trial{CaseID: cr.ID(), N: 4, Verdict: judge.Verdict(i%2 == 0, "")})
			i++
			head.Gate()
		}
	})
	b.Run("Gate/again", func(b *testing.B) {
		for b.Loop() {
			head.Gate()
		}
	})
	head = bigRun(n, func(i int) int {
		switch c := passes(i); i % 10 {
		case 0:
			return min(c+1, 3)
		case 5:
			return max(c-1, 0)
		default:
			return c
		}
	})
	b.Run("Compare", func(b *testing.B) {
		for b.Loop() {
			gavel.Compare(base, head)
		}
	})
}
