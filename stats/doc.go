// Package stats is the statistics behind Gavel's verdicts: confidence
// intervals on rates and means, tests of whether two runs differ, and the
// corrections those need. An agent answers differently every time, and so
// does its judge, so a run's pass rate is a sample, not a fact: these
// functions say how far it could be from the truth, and whether a
// difference between two runs is more than noise.
//
// It uses the standard library only, and computes every figure itself;
// the tests hold each to a reference implementation (scipy and
// statsmodels). docs/statistics.md says, in plain words and formulas,
// what each number means and when each applies.
//
// # Intervals
//
// An Interval is a range of values the data do not rule out, at a
// confidence level (0.95), with the name of the method that computed it.
// Side says whether it lies above a threshold, below it, or straddles it.
//
//   - Wilson: a proportion (passes of trials, or of cases run once).
//   - ClopperPearson: the same, exact: never below its level, wider.
//   - Bootstrap: a statistic whose unit is the case when trials cluster in
//     cases (the mean of per-case pass shares, pass@k, a criterion's
//     mean), by resampling cases, deterministic given a seed.
//   - MeanT: Student's t interval of a mean of independent values.
//   - RoganGladen: a pass rate corrected for the judge's errors.
//
// MoreToDecide says how many more samples, at the same rate, would take a
// Wilson interval off a threshold.
//
// # Tests
//
//   - BinomialTest: the exact two-sided binomial test.
//   - McNemar: the exact test of paired pass/fail outcomes (one trial per
//     case in each of two runs), on the cases that flipped.
//   - Wilcoxon: the signed-rank test of paired differences (per-case pass
//     shares or scores of two runs).
//   - Bootstrap.Paired: the mean paired difference with its interval and
//     its Wilcoxon test.
//   - Holm, BenjaminiHochberg: p-values adjusted for testing several
//     things at once (the criteria of a suite).
//
// # Arguments
//
// Counts and levels are the caller's to get right: a negative count, more
// successes than trials, or a level outside (0, 1) panics, as an index out
// of range does. Check a level a user wrote with CheckLevel where it is
// read. Where the data cannot give a number (no cases to resample), a
// function returns ok false, never a made-up value.
package stats
