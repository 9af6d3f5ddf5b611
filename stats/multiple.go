package stats

import (
	"cmp"
	"fmt"
	"math"
	"slices"
)

// Holm adjusts p-values for testing several hypotheses at once (the
// criteria of a suite, say) by Holm's step-down method, which keeps the
// chance of any false finding (the family-wise error rate) at most α: a
// hypothesis is rejected at level α when its adjusted p-value is at most
// α. Sorted ascending, the i-th smallest of m p-values (from 1) is
// multiplied by m−i+1, and each adjusted value is the largest so far,
// capped at 1, as statsmodels' multipletests(p, method="holm")
// (pvals_corrected). It is never less powerful than Bonferroni and needs
// no assumption about how the tests depend on each other.
//
// The adjusted values are returned in the order of p. It panics on a
// p-value outside [0, 1].
func Holm(p []float64) []float64 {
	mustPValues("Holm", p)
	order := ascending(p)
	m := len(p)
	out := make([]float64, m)
	running := 0.0
	for i, o := range order {
		running = math.Max(running, p[o]*float64(m-i))
		out[o] = math.Min(running, 1)
	}
	return out
}

// BenjaminiHochberg adjusts p-values by the Benjamini–Hochberg step-up
// method, which keeps the expected share of false findings among the
// rejected (the false discovery rate) at most α for independent or
// positively dependent tests: reject where the adjusted p-value is at
// most α. Sorted ascending, the i-th smallest of m (from 1) is multiplied
// by m/i, and each adjusted value is the smallest from there up, capped
// at 1, as statsmodels' multipletests(p, method="fdr_bh"). It rejects
// more than Holm, at the price of a weaker promise: use it to list
// criteria worth a look, Holm to fail a gate.
//
// The adjusted values are returned in the order of p. It panics on a
// p-value outside [0, 1].
func BenjaminiHochberg(p []float64) []float64 {
	mustPValues("BenjaminiHochberg", p)
	order := ascending(p)
	m := len(p)
	out := make([]float64, m)
	running := 1.0
	for i := m - 1; i >= 0; i-- {
		o := order[i]
		running = math.Min(running, p[o]*float64(m)/float64(i+1))
		out[o] = running
	}
	return out
}

// ascending returns the indexes of p in ascending order of their values.
func ascending(p []float64) []int {
	order := make([]int, len(p))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int { return cmp.Compare(p[a], p[b]) })
	return order
}

// mustPValues panics when a p-value is outside [0, 1].
func mustPValues(fn string, p []float64) {
	for i, v := range p {
		if !(v >= 0 && v <= 1) {
			panic(fmt.Sprintf("stats.%s: p[%d] = %v is no p-value", fn, i, v))
		}
	}
}
