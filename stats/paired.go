package stats

import (
	"fmt"
	"math"
)

// A Paired is the difference between two runs over the cases both ran,
// case by case: one value per case in each (a pass share, a score), the
// difference head − base.
type Paired struct {
	// N is how many cases were paired.
	N int
	// Diff is the mean over cases of head − base: for pass shares, the
	// difference of the two runs' pass rates (negative: head passes
	// less).
	Diff float64
	// Interval is Diff's percentile bootstrap interval over cases.
	Interval Interval
	// Test is the Wilcoxon signed-rank test of the differences: whether
	// head differs from base by more than chance would make it.
	Test WilcoxonResult
}

// diffGrid is the grid paired differences are rounded to: far finer than
// any share or score means, far coarser than floating point's errors.
const diffGrid = 1e12

// Paired compares two runs case by case: base[i] and head[i] are the
// same case's value in each (its pass share with several trials, its
// score, or 1 and 0 for a single trial that passed or failed). Pairing
// takes each case's own difficulty out of the comparison, so it detects
// far smaller changes than comparing the two runs' rates as if they were
// independent samples.
//
// The Wilcoxon test ranks the differences rounded to 12 decimal places,
// so that differences equal in exact arithmetic (1/3 − 0 and 2/3 − 1/3)
// are equal as floats, and tie. With one trial per case and a
// pass/fail outcome, McNemar's exact test on the cases that flipped is
// the better test; Diff and Interval still apply.
//
// It returns ok false without cases, and panics when base and head are
// not as long or level is outside (0, 1).
func (b Bootstrap) Paired(base, head []float64, level float64) (Paired, bool) {
	if len(base) != len(head) {
		panic(fmt.Sprintf("stats.Bootstrap.Paired: %d base values and %d head values", len(base), len(head)))
	}
	d := make([]float64, len(base))
	ranked := make([]float64, len(base))
	var sum float64
	for i := range d {
		d[i] = head[i] - base[i]
		ranked[i] = math.Round(d[i]*diffGrid) / diffGrid
		sum += d[i]
	}
	iv, ok := b.Mean(d, level)
	if !ok {
		return Paired{}, false
	}
	return Paired{N: len(d), Diff: sum / float64(len(d)), Interval: iv, Test: Wilcoxon(ranked)}, true
}
