package stats_test

import (
	"fmt"
	"math"

	"github.com/gavelhq/gavel/stats"
)

// A run passed 10 of 11 cases against a threshold of 80%: the interval
// straddles it, and about 41 more cases at this rate would decide.
func ExampleWilson() {
	iv := stats.Wilson(10, 11, 0.95)
	fmt.Printf("%.1f%% to %.1f%% (%s, %.0f%%): %s 80%%\n", 100*iv.Lo, 100*iv.Hi, iv.Method, 100*iv.Level, iv.Side(0.8))
	if more, ok := stats.MoreToDecide(10, 11, 0.8, 0.95); ok {
		fmt.Printf("about %d more cases would decide\n", more)
	}
	// Output:
	// 62.3% to 98.4% (wilson, 95%): straddles 80%
	// about 41 more cases would decide
}

// Five cases ran three trials each. The unit is the case: the bootstrap
// resamples cases, each with all its trials.
func ExampleBootstrap_Mean() {
	passes := []int{3, 3, 2, 0, 3}
	shares := make([]float64, len(passes))
	for i, c := range passes {
		shares[i] = float64(c) / 3
	}
	iv, ok := stats.Bootstrap{Seed: 1}.Mean(shares, 0.95)
	fmt.Printf("%v: %.2f to %.2f (%s)\n", ok, iv.Lo, iv.Hi, iv.Method)
	// Output:
	// true: 0.33 to 1.00 (bootstrap)
}

// pass@2 of cases that ran five trials each, with its interval over
// cases.
func ExamplePassAtK() {
	passes := []int{5, 2, 0, 4, 5, 1, 3, 5}
	at2 := make([]float64, len(passes))
	for i, c := range passes {
		at2[i] = stats.PassAtK(c, 5, 2)
	}
	iv, _ := stats.Bootstrap{Seed: 1}.Mean(at2, 0.95)
	fmt.Printf("pass@2 of case 2: %.2f; the run's interval: %.2f to %.2f\n", at2[1], iv.Lo, iv.Hi)
	// Output:
	// pass@2 of case 2: 0.70; the run's interval: 0.47 to 0.96
}

// Two runs of one trial per case: 3 cases passed only in the first, 12
// only in the second. McNemar's test reads the flips.
func ExampleMcNemar() {
	fmt.Printf("p = %.4f\n", stats.McNemar(3, 12))
	// Output:
	// p = 0.0352
}

// Two runs of the same cases, three trials each: the mean difference of
// the cases' pass shares, its interval, and the Wilcoxon test.
func ExampleBootstrap_Paired() {
	base := []float64{1, 1, 2. / 3, 1, 1. / 3, 1, 1, 2. / 3, 1, 1}
	head := []float64{2. / 3, 1, 1. / 3, 1, 0, 1, 2. / 3, 1. / 3, 1, 2. / 3}
	d, _ := stats.Bootstrap{Seed: 1}.Paired(base, head, 0.95)
	fmt.Printf("%+.3f (%+.3f to %+.3f), p = %.3f\n", d.Diff, d.Interval.Lo, d.Interval.Hi, d.Test.P)
	// Output:
	// -0.200 (-0.300 to -0.100), p = 0.014
}

// Three criteria tested at once: Holm's adjusted p-values, each compared
// with 0.05.
func ExampleHolm() {
	for i, p := range stats.Holm([]float64{0.01, 0.04, 0.03}) {
		fmt.Printf("criterion %d: %.2f\n", i+1, p)
	}
	// Output:
	// criterion 1: 0.03
	// criterion 2: 0.06
	// criterion 3: 0.06
}

// The judge passed 80 of 100 trials; on labelled trials it passed 45 of
// 50 real passes and 12 of 50 real failures.
func ExampleRoganGladen() {
	judge := stats.Accuracy{TruePass: 45, FalseFail: 5, TrueFail: 38, FalsePass: 12}
	c, ok := stats.RoganGladen(80, 100, judge, 0.95)
	fmt.Printf("%v: raw 80%%, corrected %.1f%% (%.1f%% to %.1f%%)\n", ok, 100*c.Rate, 100*c.Interval.Lo, 100*c.Interval.Hi)
	// Output:
	// true: raw 80%, corrected 84.8% (68.5% to 100.0%)
}

// A judge and a person scored six answers 1..5. On an ordinal scale a
// near miss is nearly agreement: the weighted kappas say so, Cohen's
// does not.
func ExampleKappa() {
	// rows the judge's 1..5, columns the person's
	table := [][]int{
		{1, 0, 0, 0, 0},
		{0, 0, 1, 0, 0},
		{0, 0, 1, 0, 0},
		{0, 0, 0, 0, 1},
		{0, 0, 0, 0, 2},
	}
	scale := []float64{1, 2, 3, 4, 5}
	for _, w := range []stats.Weights{stats.Unweighted, stats.Linear, stats.Quadratic} {
		k, err := stats.Kappa(table, scale, w)
		fmt.Printf("%s %.2f %v\n", w, k, err)
	}
	// Output:
	// unweighted 0.56 <nil>
	// linear 0.80 <nil>
	// quadratic 0.93 <nil>
}

// Three people labelled five answers pass (1) or fail (0); one of them
// skipped two. Krippendorff's alpha takes any number of raters, and a
// missing label (NaN) is simply not there.
func ExampleKrippendorffAlpha() {
	na := math.NaN()
	units := [][]float64{
		{1, 1, 1},
		{0, 0, na},
		{1, 0, 1},
		{0, 0, 0},
		{1, 1, na},
	}
	a, err := stats.KrippendorffAlpha(units, stats.MetricNominal)
	fmt.Printf("%.3f %v\n", a, err)
	_, err = stats.KrippendorffAlpha([][]float64{{1, 1}, {1, na}}, stats.MetricNominal)
	fmt.Println(err)
	// Output:
	// 0.714 <nil>
	// krippendorff's alpha: every rating was the same, so chance explains all the agreement
}
