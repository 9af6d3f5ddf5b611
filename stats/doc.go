// Package stats is the statistics behind Gavel's verdicts: confidence
// intervals on rates and means, tests of whether two runs differ, and the
// corrections those need. An agent answers differently every time, and so
// does its judge, so a run's pass rate is a sample, not a fact: these
// functions say how far it could be from the truth, and whether a
// difference between two runs is more than noise.
//
// It uses the standard library only and computes every figure itself;
// the tests hold each to a reference implementation (scipy and
// statsmodels), with the Python that produced the expected values beside
// each table. docs/statistics.md says, in plain words and formulas, what
// each number means and when each applies.
//
// # Intervals
//
// An Interval is the range of values the data do not rule out at a
// confidence level (0.95), with the name of the method that computed it
// (Interval.Method, one of the Method constants). Interval.Side says
// whether it lies above a threshold, below it, or straddles it: PASS,
// FAIL or INCONCLUSIVE, for a gate.
//
//   - Wilson: a proportion of independent samples (passes of trials, or
//     of cases that ran once). The usual interval of a pass rate.
//   - ClopperPearson: the same, exact: coverage never below the level,
//     and wider.
//   - Bootstrap: a statistic whose unit is the case when trials cluster in
//     cases: Bootstrap.Mean of per-case values (pass shares, PassAtK,
//     PassHatK, scores), Bootstrap.Ratio of sums over cases (passes over
//     trials, a criterion's scores over their count), Bootstrap.Cases for
//     any other. Deterministic given its Seed.
//   - MeanT: Student's t interval of a mean of independent values.
//   - RoganGladen: a pass rate corrected for the judge's errors (its
//     Accuracy on labelled trials), with its interval.
//
// MoreToDecide says how many more samples, at the same rate, would take a
// Wilson interval off a threshold ("about 41 more cases would decide").
//
// # Tests
//
//   - McNemar: the exact test of paired pass/fail outcomes (one trial per
//     case in each of two runs), on the cases that flipped.
//   - Wilcoxon: the signed-rank test of paired differences (per-case pass
//     shares or scores of two runs).
//   - Bootstrap.Paired: the mean paired difference of two runs, with its
//     interval over cases and its Wilcoxon test.
//   - Holm, BenjaminiHochberg: p-values adjusted for testing several
//     things at once (the criteria of a suite).
//   - BinomialTest: the exact two-sided binomial test.
//
// # Agreement
//
//   - Kappa: Cohen's kappa of two raters' k×k table, Unweighted for
//     categories without an order, Linear or Quadratic for an ordinal
//     scale (a 1..10 criterion), where a near miss is nearly agreement.
//   - KrippendorffAlpha: the agreement of any number of raters, any of
//     whom may have skipped a unit, on a MetricNominal, MetricOrdinal or
//     MetricInterval scale.
//   - Bootstrap.Kappa and Bootstrap.KrippendorffAlpha: their percentile
//     bootstrap intervals over items (units).
//
// Where there is nothing to agree on (nothing rated twice, or every
// rating the same) they return an error wrapping ErrNoPairs or
// ErrOneCategory, and no number.
//
// NormalCDF, NormalQuantile, TCDF and TQuantile are the distributions
// these need, accurate to 1e-12 or better.
//
// # Arguments
//
// Counts and levels are the caller's to get right: a negative count, more
// successes than trials, or a level outside (0, 1) panics, as an index out
// of range does. Check a level a user wrote with CheckLevel where it is
// read. Where the data cannot give a number (no cases to resample, a
// judge no better than a coin), a function returns ok false, never a
// made-up value. With no samples at all, Wilson and ClopperPearson say
// [0, 1] (nothing is known) and the tests a p-value of 1 (nothing
// differed).
package stats
