package stats

import (
	"fmt"
	"math"
	"math/bits"
	"math/rand/v2"
	"slices"
)

// DefaultResamples is how many resamples a Bootstrap draws when its
// Resamples is 0: enough that the bounds of a 95% interval move by well
// under a tenth of its width from one seed to another.
const DefaultResamples = 2000

// A Bootstrap computes percentile bootstrap intervals over cases.
//
// A run's trials are clustered in cases: the trials of one case share its
// difficulty, so they pass or fail together more often than trials of
// different cases do. A statistic whose unit is the case (the mean of the
// cases' pass shares, pass@k, a criterion's mean over every trial) then
// varies from run to run as much as the cases vary, not as little as
// counting every trial as independent would say. The bootstrap over
// cases respects that: it draws as many cases as there are, with
// replacement, each drawn case bringing all its trials; computes the
// statistic on each such resample; and takes the middle level of those
// values as the interval (from the (1−level)/2 to the (1+level)/2
// quantile, interpolated linearly, as numpy's percentile and
// scipy.stats.bootstrap(method="percentile") do).
//
// The resamples are drawn from a PCG generator (math/rand/v2) seeded with
// Seed, with a bounded draw of this package's own, so the same data,
// settings and seed give the same interval, on any platform and Go
// release. The percentile bootstrap needs a fair number of cases to be
// trusted (about 20 or more): with a handful, every resample is one of
// few, and the interval is too narrow.
type Bootstrap struct {
	// Resamples is how many resamples to draw. Defaults to
	// DefaultResamples (2000).
	Resamples int
	// Seed picks the resamples. Any value is a good seed; record it
	// beside the interval so that it can be recomputed.
	Seed uint64
}

// Cases is the bootstrap interval, at level, of a statistic of n cases.
// For each resample it calls statistic with the indexes of the n cases
// drawn (0..n−1, with repeats, in the order drawn); statistic returns the
// value of the statistic on them. The slice is reused from one call to
// the next: statistic must not keep it.
//
// It returns ok false when there is no case (n = 0), or when statistic
// returns NaN on a resample: the statistic is then not defined on every
// resample, and no interval can be read from them. It panics on a level
// outside (0, 1) or a negative number of resamples.
func (b Bootstrap) Cases(n int, level float64, statistic func(sample []int) float64) (Interval, bool) {
	mustLevel("Bootstrap", level)
	resamples := b.Resamples
	switch {
	case resamples == 0:
		resamples = DefaultResamples
	case resamples < 0:
		panic(fmt.Sprintf("stats.Bootstrap: %d resamples", resamples))
	}
	if n <= 0 {
		return Interval{}, false
	}
	src := rand.NewPCG(b.Seed, 0)
	sample := make([]int, n)
	values := make([]float64, resamples)
	for r := range values {
		for i := range sample {
			sample[i] = index(src, n)
		}
		v := statistic(sample)
		if math.IsNaN(v) {
			return Interval{}, false
		}
		values[r] = v
	}
	slices.Sort(values)
	alpha := 1 - level
	return Interval{
		Lo:     percentile(values, alpha/2),
		Hi:     percentile(values, 1-alpha/2),
		Level:  level,
		Method: MethodBootstrap,
	}, true
}

// Mean is the bootstrap interval, at level, of the mean of one value per
// case: a case's pass share (passes over trials), its pass@k or pass^k
// (PassAtK, PassHatK), its mean score. It returns ok false without
// values. See Cases.
func (b Bootstrap) Mean(values []float64, level float64) (Interval, bool) {
	return b.Cases(len(values), level, func(sample []int) float64 {
		var sum float64
		for _, i := range sample {
			sum += values[i]
		}
		return sum / float64(len(sample))
	})
}

// Ratio is the bootstrap interval, at level, of a ratio of sums over
// cases, Σnum / Σden: a rate whose unit is the trial while trials cluster
// in cases (num[i] a case's passes, den[i] its trials), or a criterion's
// mean over every score (num[i] the sum of a case's scores, den[i] how
// many it has). It returns ok false without cases, and panics unless
// num and den are as long and every den is positive. See Cases.
func (b Bootstrap) Ratio(num, den []float64, level float64) (Interval, bool) {
	if len(num) != len(den) {
		panic(fmt.Sprintf("stats.Bootstrap.Ratio: %d numerators and %d denominators", len(num), len(den)))
	}
	for i, d := range den {
		if !(d > 0) {
			panic(fmt.Sprintf("stats.Bootstrap.Ratio: den[%d] = %v is not positive", i, d))
		}
	}
	return b.Cases(len(num), level, func(sample []int) float64 {
		var n, d float64
		for _, i := range sample {
			n += num[i]
			d += den[i]
		}
		return n / d
	})
}

// index draws a whole number in [0, n) from src, each equally likely
// (Lemire's multiply-and-reject method), so that a seed's draws depend on
// nothing but PCG's output.
func index(src *rand.PCG, n int) int {
	bound := uint64(n)
	hi, lo := bits.Mul64(src.Uint64(), bound)
	if lo < bound {
		threshold := -bound % bound
		for lo < threshold {
			hi, lo = bits.Mul64(src.Uint64(), bound)
		}
	}
	return int(hi)
}

// percentile is the q-quantile of sorted values, interpolated linearly
// between the two nearest (numpy's default, "linear").
func percentile(sorted []float64, q float64) float64 {
	h := q * float64(len(sorted)-1)
	i := int(math.Floor(h))
	if i >= len(sorted)-1 {
		return sorted[len(sorted)-1]
	}
	// The conversion keeps the product from fusing with the sum (as Go
	// may on arm64), so that a seed's interval is the same everywhere.
	return sorted[i] + float64((h-float64(i))*(sorted[i+1]-sorted[i]))
}
