package stats

import (
	"math"
	"slices"
)

// A WilcoxonResult is the outcome of a Wilcoxon signed-rank test.
type WilcoxonResult struct {
	// N is how many differences were ranked: those that were not zero.
	// Zeros is how many were zero, and left out.
	N, Zeros int
	// Statistic is T, the smaller of the sums of the ranks of the positive
	// and of the negative differences (scipy's statistic).
	Statistic float64
	// P is the two-sided p-value: the chance, if the differences were
	// symmetric about zero, of a T at least as far from its mean.
	P float64
	// Exact says the p-value is from the exact distribution of T; false,
	// from its normal approximation.
	Exact bool
}

// exactWilcoxonMax is the most differences for which Wilcoxon computes
// the exact distribution, as scipy's method="auto".
const exactWilcoxonMax = 50

// Wilcoxon is the Wilcoxon signed-rank test of paired differences d (one
// per case: a case's pass share, or score, in one run minus the other):
// whether they lean to one side of zero more than chance would. It looks
// at the sign and the rank of each difference's size, not the size
// itself, so a few large differences cannot dominate it, and it needs no
// normal distribution of the differences, only their symmetry about zero
// when the runs do not differ.
//
// It follows scipy.stats.wilcoxon(d) with scipy 1.10's defaults:
// zero_method="wilcox" (zero differences are dropped before ranking),
// correction=False (no continuity correction), alternative="two-sided",
// method="auto": the exact distribution of T when there are at most 50
// differences and none is zero; otherwise the normal approximation, with
// mean N(N+1)/4 and variance N(N+1)(2N+1)/24 less Σ(t³−t)/48 over groups
// of t tied ranks. Tied sizes share their mean rank.
//
// It differs from scipy in three places:
//   - Ties with at most 50 differences and no zero: scipy 1.10 still uses
//     the exact distribution, which assumes no ties, after truncating a
//     half-integer T; this uses the normal approximation with its tie
//     correction, as scipy.stats.wilcoxon(d, method="approx") does (and
//     as later versions of scipy do by default).
//   - Every difference zero (or none): scipy raises an error or returns
//     NaN; this returns P = 1, as nothing differed.
//   - Differences are compared as given. Rounding differences computed in
//     floating point to a common grid first (Bootstrap.Paired does) keeps
//     1/3 − 0 and 2/3 − 1/3 tied, as they are in exact arithmetic.
func Wilcoxon(d []float64) WilcoxonResult {
	nonzero := make([]float64, 0, len(d))
	for _, x := range d {
		if x != 0 {
			nonzero = append(nonzero, x)
		}
	}
	res := WilcoxonResult{N: len(nonzero), Zeros: len(d) - len(nonzero), P: 1}
	if res.N == 0 {
		return res
	}
	ranks, ties := signedRanks(nonzero)
	var plus, minus float64
	for i, x := range nonzero {
		if x > 0 {
			plus += ranks[i]
		} else {
			minus += ranks[i]
		}
	}
	res.Statistic = math.Min(plus, minus)
	res.Exact = len(d) <= exactWilcoxonMax && res.Zeros == 0 && len(ties) == 0
	if res.Exact {
		res.P = exactSignedRankP(res.N, int(plus))
	} else {
		res.P = normalSignedRankP(res.N, res.Statistic, ties)
	}
	return res
}

// signedRanks ranks the sizes |x| from 1, tied sizes sharing their mean
// rank, and returns the sizes of the groups of ties (2 or more).
func signedRanks(xs []float64) (ranks []float64, ties []int) {
	order := make([]int, len(xs))
	for i := range order {
		order[i] = i
	}
	slices.SortFunc(order, func(a, b int) int { return cmpFloat(math.Abs(xs[a]), math.Abs(xs[b])) })
	ranks = make([]float64, len(xs))
	for i := 0; i < len(order); {
		j := i + 1
		for j < len(order) && math.Abs(xs[order[j]]) == math.Abs(xs[order[i]]) {
			j++
		}
		// Ranks i+1..j share their mean.
		mean := float64(i+1+j) / 2
		for _, o := range order[i:j] {
			ranks[o] = mean
		}
		if j-i > 1 {
			ties = append(ties, j-i)
		}
		i = j
	}
	return ranks, ties
}

// cmpFloat orders two floats (neither NaN).
func cmpFloat(a, b float64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// exactSignedRankP is the two-sided p-value of a sum plus of the ranks of
// the positive differences among n without ties: each of the 2ⁿ sign
// patterns is equally likely, and the p-value is twice the smaller tail
// at plus (1 at the centre), as scipy's.
func exactSignedRankP(n, plus int) float64 {
	top := n * (n + 1) / 2
	// count[s] is how many subsets of the ranks 1..n sum to s: at most
	// 2⁵⁰, exact in a float64.
	count := make([]float64, top+1)
	count[0] = 1
	for r := 1; r <= n; r++ {
		for s := top; s >= r; s-- {
			count[s] += count[s-r]
		}
	}
	if plus == top/2 {
		return 1
	}
	var less, greater float64
	for s, c := range count {
		if s <= plus {
			less += c
		}
		if s >= plus {
			greater += c
		}
	}
	return math.Min(1, 2*math.Min(less, greater)/math.Exp2(float64(n)))
}

// normalSignedRankP is the two-sided p-value of T by the normal
// approximation, the variance corrected for the groups of tied ranks.
func normalSignedRankP(n int, t float64, ties []int) float64 {
	fn := float64(n)
	mean := fn * (fn + 1) / 4
	v := fn * (fn + 1) * (2*fn + 1)
	for _, k := range ties {
		fk := float64(k)
		v -= fk * (fk*fk - 1) / 2
	}
	se := math.Sqrt(v / 24)
	if se == 0 {
		return 1
	}
	z := (t - mean) / se
	return 2 * NormalCDF(-math.Abs(z))
}
