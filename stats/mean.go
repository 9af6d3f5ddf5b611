package stats

import "math"

// MeanT is Student's t interval of the mean of independent values (one
// per case: a score, a duration):
//
//	mean ± t(df = n−1) · s/√n
//
// with s the sample standard deviation, as
// scipy.stats.t.interval(level, n−1, loc=mean, scale=scipy.stats.sem(x)).
// It assumes the mean is about normally distributed, which holds for
// many cases or for values that are: with few cases of bounded, skewed
// scores (most at 1), prefer the bootstrap (Bootstrap.Mean), which also
// respects trials clustered in cases. Its bounds are not clamped to the
// values' range. It returns ok false with fewer than two values, when
// the spread cannot be estimated.
func MeanT(values []float64, level float64) (Interval, bool) {
	mustLevel("MeanT", level)
	n := len(values)
	if n < 2 {
		return Interval{}, false
	}
	mean, sd := meanSD(values)
	half := TQuantile((1+level)/2, float64(n-1)) * sd / math.Sqrt(float64(n))
	return Interval{Lo: mean - half, Hi: mean + half, Level: level, Method: MethodT}, true
}

// meanSD returns the mean of values and their sample standard deviation
// (divided by n−1), in two passes for accuracy.
func meanSD(values []float64) (mean, sd float64) {
	for _, v := range values {
		mean += v
	}
	mean /= float64(len(values))
	var ss float64
	for _, v := range values {
		ss += (v - mean) * (v - mean)
	}
	return mean, math.Sqrt(ss / float64(len(values)-1))
}
