package llmjudge

import (
	"fmt"
	"math"
	"slices"

	"github.com/gavelhq/gavel/judge"
)

// atLeast reports whether v reaches min, give or take floating-point
// noise (see judge.CompareToThreshold): the mean of 0.6 and 0.8 reaches
// 0.7.
func atLeast(v, min float64) bool { return judge.CompareToThreshold(v, min) >= 0 }

// aggregate combines sample values: their mean or their median.
func aggregate(vals []float64, how Aggregate) float64 {
	if len(vals) == 0 {
		return math.NaN()
	}
	if how == AggregateMedian {
		s := slices.Sorted(slices.Values(vals))
		mid := len(s) / 2
		if len(s)%2 == 1 {
			return s[mid]
		}
		return (s[mid-1] + s[mid]) / 2
	}
	var sum float64
	for _, v := range vals {
		sum += v
	}
	return sum / float64(len(vals))
}

// clamp keeps v within lo..hi; an aggregate of values within bounds can
// stray past them only by rounding.
func clamp(v, lo, hi float64) float64 { return math.Min(hi, math.Max(lo, v)) }

// stability is the check that the samples' verdicts agree, with the
// spread of their scores. It fails, and the judgment is unstable, when some
// samples pass and others fail; the note then says so for the reasoning.
func stability(passed []bool, scores []float64) (check judge.Check, note string) {
	n := 0
	for _, p := range passed {
		if p {
			n++
		}
	}
	spread := fmt.Sprintf("%d samples, scores %s", len(scores), spreadOf(scores))
	switch n {
	case len(passed):
		return judge.Check{Name: "stability", Passed: true, Message: spread + ": every sample passes"}, ""
	case 0:
		return judge.Check{Name: "stability", Passed: true, Message: spread + ": every sample fails"}, ""
	}
	note = fmt.Sprintf("unstable: the samples disagree (%d PASS, %d FAIL)", n, len(passed)-n)
	return judge.Check{Name: "stability", Passed: false, Message: spread + ": " + note}, note
}

// spreadOf formats the range of values: "0.6..0.9".
func spreadOf(vals []float64) string {
	return formatNum(slices.Min(vals)) + ".." + formatNum(slices.Max(vals))
}

// compare formats "v ≥ min" or "v < min".
func compare(v, min float64) string {
	if atLeast(v, min) {
		return formatNum(v) + " ≥ " + formatNum(min)
	}
	return formatNum(v) + " < " + formatNum(min)
}
