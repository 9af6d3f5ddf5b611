package stats

import (
	"fmt"
	"math"
)

// BinomialTest is the exact two-sided binomial test: the p-value of
// seeing successes out of n trials if each succeeds with chance p. It is
// the total chance, under p, of every outcome no likelier than the one
// seen (the "minimum likelihood" rule), as scipy.stats.binomtest(k, n, p)
// computes it, with scipy's relative tolerance of 1e-7 in deciding which
// outcomes are as likely.
//
// It applies to independent trials of one chance: one trial per case, or
// trials as the unit. With n = 0 nothing was seen and it returns 1 (scipy
// refuses n = 0). It panics on a negative count, more successes than n,
// or p outside [0, 1].
func BinomialTest(successes, n int, p float64) float64 {
	mustCount("BinomialTest", successes, n)
	if !(p >= 0 && p <= 1) {
		panic(fmt.Sprintf("stats.BinomialTest: chance %v is not between 0 and 1", p))
	}
	k, fn := float64(successes), float64(n)
	if n == 0 || k == p*fn {
		return 1
	}
	// Every outcome on k's side of the mode is no likelier than k; find
	// where, on the other side, outcomes become no likelier either, and
	// add the two tails.
	d := binomPMF(successes, n, p) * (1 + 1e-7)
	var pval float64
	if k < p*fn {
		ix := searchPMF(func(i int) float64 { return -binomPMF(i, n, p) }, -d, int(math.Ceil(p*fn)), n)
		y := n - ix
		if d == binomPMF(ix, n, p) {
			y++
		}
		pval = binomCDF(successes, n, p) + binomSF(n-y, n, p)
	} else {
		ix := searchPMF(func(i int) float64 { return binomPMF(i, n, p) }, d, 0, int(math.Floor(p*fn)))
		pval = binomCDF(ix, n, p) + binomSF(successes-1, n, p)
	}
	return math.Min(pval, 1)
}

// searchPMF is scipy's binary search for the two-sided binomial test: over
// lo..hi, where a increases, it returns the i with a(i) ≤ d < a(i+1)
// (lo−1 when d < a(lo)).
func searchPMF(a func(int) float64, d float64, lo, hi int) int {
	for lo < hi {
		mid := lo + (hi-lo)/2
		switch v := a(mid); {
		case v < d:
			lo = mid + 1
		case v > d:
			hi = mid - 1
		default:
			return mid
		}
	}
	if a(lo) <= d {
		return lo
	}
	return lo - 1
}

// McNemar is the exact McNemar test of paired pass/fail outcomes: cases
// that ran once in each of two runs, b of them passing only in the first
// and c only in the second. Cases that passed or failed in both say
// nothing about a difference, so only the flips count: if the runs do not
// differ, each flip goes either way with chance ½, and the p-value is
//
//	min(1, 2 · P(X ≤ min(b, c))),  X ~ Binomial(b+c, ½)
//
// as statsmodels' mcnemar([[a, b], [c, d]], exact=True). With no flips
// (b = c = 0) it returns 1. It panics on a negative count.
func McNemar(b, c int) float64 {
	if b < 0 || c < 0 {
		panic(fmt.Sprintf("stats.McNemar: %d and %d flips: a count is negative", b, c))
	}
	n := b + c
	if n == 0 {
		return 1
	}
	return math.Min(1, 2*binomCDF(min(b, c), n, 0.5))
}

// binomPMF is the chance of exactly k successes in n trials of chance p.
func binomPMF(k, n int, p float64) float64 {
	switch {
	case k < 0 || k > n:
		return 0
	case p == 0:
		return b2f(k == 0)
	case p == 1:
		return b2f(k == n)
	}
	kf, nf := float64(k), float64(n)
	return math.Exp(-lbeta(kf+1, nf-kf+1) - math.Log(nf+1) + kf*math.Log(p) + (nf-kf)*math.Log1p(-p))
}

// binomCDF is the chance of at most k successes in n trials of chance p:
// I_{1−p}(n−k, k+1).
func binomCDF(k, n int, p float64) float64 {
	switch {
	case k < 0:
		return 0
	case k >= n:
		return 1
	}
	return betaIncXY(float64(n-k), float64(k+1), 1-p, p)
}

// binomSF is the chance of more than k successes in n trials of chance
// p: I_p(k+1, n−k).
func binomSF(k, n int, p float64) float64 {
	switch {
	case k < 0:
		return 1
	case k >= n:
		return 0
	}
	return betaIncXY(float64(k+1), float64(n-k), p, 1-p)
}

// b2f is 1 for true and 0 for false.
func b2f(b bool) float64 {
	if b {
		return 1
	}
	return 0
}
