package stats

import "math"

// Wilson is the Wilson score interval of a proportion: successes out of n
// independent trials (or cases) that each succeed with the same unknown
// chance. It is the interval to show beside a pass rate whose unit is the
// trial, or the case when each case ran once: it keeps close to its
// nominal coverage for small n and for rates near 0 or 1, where the
// textbook p ± z√(p(1−p)/n) collapses (it says [1, 1] for 10 of 10).
//
// With p = successes/n and z the normal critical value at level:
//
//	centre = (p + z²/2n) / (1 + z²/n)
//	half   = z √(p(1−p)/n + z²/4n²) / (1 + z²/n)
//
// as statsmodels' proportion_confint(method="wilson"). With n = 0 it
// knows nothing and returns [0, 1]. It panics on a negative count, more
// successes than n, or a level outside (0, 1).
func Wilson(successes, n int, level float64) Interval {
	mustCount("Wilson", successes, n)
	z := z("Wilson", level)
	iv := Interval{Lo: 0, Hi: 1, Level: level, Method: MethodWilson}
	if n == 0 {
		return iv
	}
	lo, hi := wilson(float64(successes)/float64(n), float64(n), z)
	// Exact at the ends, where the formula's rounding might leave 1e-17.
	if successes > 0 {
		iv.Lo = lo
	}
	if successes < n {
		iv.Hi = hi
	}
	return iv
}

// wilson returns the Wilson bounds for a rate p observed over n samples
// (n need not be whole, nor p·n).
func wilson(p, n, z float64) (lo, hi float64) {
	z2 := z * z
	denom := 1 + z2/n
	centre := (p + z2/(2*n)) / denom
	half := z * math.Sqrt(p*(1-p)/n+z2/(4*n*n)) / denom
	return clamp01(centre - half), clamp01(centre + half)
}

// ClopperPearson is the exact (Clopper–Pearson) interval of a proportion:
// the rates p under which seeing at most, or at least, the observed
// successes has a chance of at least (1−level)/2. Its coverage is never
// below the level, so it is wider than Wilson's; use it when a bound must
// hold for certain (a claim that a rate is at least so much), Wilson for
// an estimate's usual interval.
//
// Its bounds are quantiles of beta distributions:
//
//	Lo = Beta⁻¹((1−level)/2; x, n−x+1)    (0 when x = 0)
//	Hi = Beta⁻¹((1+level)/2; x+1, n−x)    (1 when x = n)
//
// as statsmodels' proportion_confint(method="beta"). With n = 0 it
// returns [0, 1]. It panics on a negative count, more successes than n,
// or a level outside (0, 1).
func ClopperPearson(successes, n int, level float64) Interval {
	mustCount("ClopperPearson", successes, n)
	mustLevel("ClopperPearson", level)
	iv := Interval{Lo: 0, Hi: 1, Level: level, Method: MethodClopperPearson}
	x, fn, alpha := float64(successes), float64(n), 1-level
	if successes > 0 {
		iv.Lo = betaIncInv(x, fn-x+1, alpha/2)
	}
	if successes < n {
		iv.Hi = betaIncInv(x+1, fn-x, 1-alpha/2)
	}
	return iv
}

// maxSamples is where MoreToDecide gives up: a rate that close to its
// threshold is, for any run, undecided.
const maxSamples = 1e12

// MoreToDecide says roughly how many more samples a rate needs for its
// Wilson interval to lie wholly on one side of threshold, if it stays
// what it is: successes out of n now, the same share in n+more. A sample
// is whatever n counts (trials, or cases when the unit is the case).
//
// It returns 0 when the interval already clears the threshold
// (Wilson(...).Side(threshold) is not Straddles). It returns ok false when
// no number of samples would decide: n is 0 (the rate is unknown), the
// rate equals the threshold, or more than 10¹² samples would be needed.
// The answer is an estimate, "about 40 more cases": the rate of the next
// samples will differ, and so will the interval.
func MoreToDecide(successes, n int, threshold, level float64) (more int, ok bool) {
	mustCount("MoreToDecide", successes, n)
	z := z("MoreToDecide", level)
	if n == 0 {
		return 0, false
	}
	p := float64(successes) / float64(n)
	if p == threshold {
		return 0, false
	}
	decided := func(m float64) bool {
		lo, hi := wilson(p, m, z)
		return lo >= threshold || hi < threshold
	}
	if Wilson(successes, n, level).Side(threshold) != Straddles {
		return 0, true
	}
	// The interval narrows as samples grow: double until it decides, then
	// bisect for the fewest that do.
	lo, hi := float64(n), 2*float64(n)
	for !decided(hi) {
		if hi > maxSamples {
			return 0, false
		}
		lo, hi = hi, 2*hi
	}
	for hi-lo > 1 {
		mid := math.Floor((lo + hi) / 2)
		if decided(mid) {
			hi = mid
		} else {
			lo = mid
		}
	}
	return int(hi) - n, true
}
