package stats

import "fmt"

// PassAtK is the unbiased estimate of pass@k for one case from its n
// trials, c of which passed: the chance that at least one of k trials,
// drawn from the n without replacement, passes,
//
//	1 − C(n−c, k) / C(n, k)
//
// (Chen et al., 2021). A run's pass@k is its mean over cases; its
// interval, the bootstrap over cases of that mean (Bootstrap.Mean). It
// panics unless 0 ≤ c ≤ n and 1 ≤ k ≤ n.
func PassAtK(c, n, k int) float64 {
	mustK("PassAtK", c, n, k)
	return 1 - choose(n-c, k)/choose(n, k)
}

// PassHatK is the unbiased estimate of pass^k (τ-bench) for one case from
// its n trials, c of which passed: the chance that all of k trials drawn
// from the n pass, C(c, k) / C(n, k). A run's pass^k is its mean over
// cases. It panics unless 0 ≤ c ≤ n and 1 ≤ k ≤ n.
func PassHatK(c, n, k int) float64 {
	mustK("PassHatK", c, n, k)
	return choose(c, k) / choose(n, k)
}

// mustK panics unless c of n is a count and k trials can be drawn from n.
func mustK(fn string, c, n, k int) {
	mustCount(fn, c, n)
	if k < 1 || k > n {
		panic(fmt.Sprintf("stats.%s: k = %d from %d trials", fn, k, n))
	}
}

// choose returns the binomial coefficient C(n, k), 0 when k > n.
func choose(n, k int) float64 {
	if k < 0 || k > n {
		return 0
	}
	out := 1.0
	for i := 1; i <= k; i++ {
		out = out * float64(n-k+i) / float64(i)
	}
	return out
}
