package gavel

import (
	"fmt"
	"maps"
	"slices"

	"github.com/gavelhq/gavel/judge"
	"github.com/gavelhq/gavel/stats"
)

// Run an unchanged agent twice and some cases flip both ways: its replies
// vary, and so do its judge's verdicts. A comparison therefore does not
// call every case that passed before and fails now a regression of the
// run; it tests whether the head differs from the base by more than that
// noise (docs/statistics.md, "Comparing two runs"):
//
//   - only the cases both runs judged with the same definition are
//     tested: cases one run lacks, skipped or could not judge, and cases
//     whose definition changed, are listed apart ("not comparable");
//   - with one judged trial per case in both runs, the exact McNemar test
//     on the cases that flipped; with several, the Wilcoxon signed-rank
//     test on each case's pass share; each criterion's scores likewise,
//     case by case, its p-values corrected together by Holm's method;
//   - the verdict is REGRESSED when a test finds a drop at the
//     significance level and the drop is at least the minimum effect,
//     IMPROVED for such a rise and no drop, NO SIGNIFICANT CHANGE else.
//
// Cases marked critical fail the comparison on any failure in the head,
// whatever the statistics.

// A Change is a comparison's verdict on the head against the base.
type Change string

const (
	// ChangeRegressed: the head is worse, by more than noise and by at
	// least the minimum effect.
	ChangeRegressed Change = "REGRESSED"
	// ChangeImproved: the head is better so, and worse in nothing.
	ChangeImproved Change = "IMPROVED"
	// ChangeNone: no difference the runs can tell from noise (or none as
	// large as the minimum effect).
	ChangeNone Change = "NO SIGNIFICANT CHANGE"
)

// CompareConfig says how a comparison tests the difference between its
// runs. Its zero value is DefaultCompareConfig's.
type CompareConfig struct {
	// Alpha is the significance level: a difference counts when its
	// p-value is below it. Between 0 and 1.
	Alpha float64
	// MinEffect is the smallest difference that counts, as a share: a
	// pass rate (or a criterion's mean score, on its 0–1 scale) that
	// drops by less is NO SIGNIFICANT CHANGE, however small its p-value.
	// Between 0 and 1; 0 lets any significant drop count.
	MinEffect float64
}

// DefaultAlpha and DefaultMinEffect are DefaultCompareConfig's: a 5%
// significance level, and a difference of at least 5 points.
const (
	DefaultAlpha     = 0.05
	DefaultMinEffect = 0.05
)

// DefaultCompareConfig is how gavel compare and gavel run --baseline
// test unless told otherwise.
func DefaultCompareConfig() CompareConfig {
	return CompareConfig{Alpha: DefaultAlpha, MinEffect: DefaultMinEffect}
}

// Check reports what is wrong with c, in the words of the flags that set
// it.
func (c CompareConfig) Check() error {
	if !(c.Alpha > 0 && c.Alpha < 1) {
		return fmt.Errorf("--alpha %v: want a significance level between 0 and 1, such as 0.05", c.Alpha)
	}
	if !(c.MinEffect >= 0 && c.MinEffect < 1) {
		return fmt.Errorf("--min-effect %v: want a share from 0 up to 1, such as 0.05 for 5 points", c.MinEffect)
	}
	return nil
}

// Test methods (Significance.Method).
const (
	MethodMcNemar  = "mcnemar-exact"
	MethodWilcoxon = "wilcoxon-signed-rank"
)

// A Significance is the test of a comparison's head against its base.
type Significance struct {
	// Verdict is REGRESSED, IMPROVED or NO SIGNIFICANT CHANGE: the pass
	// rate's and the criteria's together.
	Verdict Change `json:"verdict"`
	// Alpha and MinEffect are the configuration tested with.
	Alpha     float64 `json:"alpha"`
	MinEffect float64 `json:"min_effect"`

	// Method is the pass rate's test, MethodMcNemar or MethodWilcoxon;
	// "" when no case could be tested.
	Method string `json:"method,omitempty"`
	// Cases is how many cases were tested: both runs judged them with the
	// same definition.
	Cases int `json:"cases"`
	// Worse and Better count the tested cases whose pass share fell and
	// rose: with one trial each, the flips McNemar's test weighs.
	Worse  int `json:"worse"`
	Better int `json:"better"`
	// Base and Head are the pass rates over the tested cases (each case
	// its pass share), Diff is Head − Base, and Interval Diff's bootstrap
	// interval over cases at 1 − Alpha; nil without cases.
	Base     float64         `json:"base"`
	Head     float64         `json:"head"`
	Diff     float64         `json:"diff"`
	Interval *stats.Interval `json:"interval,omitempty"`
	// P is the test's two-sided p-value; 1 when nothing was tested.
	P float64 `json:"p"`
	// PassRate is the pass rate's own verdict.
	PassRate Change `json:"pass_rate"`

	// Criteria are the criteria both runs scored on some tested case,
	// each tested case by case, sorted by name.
	Criteria []CriterionChange `json:"criteria,omitempty"`
}

// A CriterionChange is a criterion's test: its mean score, case by case,
// in the head against the base (the Wilcoxon signed-rank test).
type CriterionChange struct {
	Name string `json:"name"`
	// Cases is how many tested cases both runs scored on it.
	Cases int `json:"cases"`
	// Diff is the mean over those cases of the head's mean score less the
	// base's, and Interval its bootstrap interval at 1 − Alpha.
	Diff     float64         `json:"diff"`
	Interval *stats.Interval `json:"interval,omitempty"`
	// P is the test's p-value, and Adjusted the same corrected for the
	// other criteria tested with it (Holm): the verdict reads Adjusted.
	P        float64 `json:"p"`
	Adjusted float64 `json:"p_adjusted"`
	Verdict  Change  `json:"verdict"`
}

// Failed reports whether the comparison fails a gate on "no worse than
// the base": its test found the head REGRESSED, or a critical case
// failed in the head.
func (c Comparison) Failed() bool {
	return c.Test.Verdict == ChangeRegressed || len(c.Critical) > 0
}

// pairedCase is one tested case: its pass share in each run, and its
// criteria's mean scores in each.
type pairedCase struct {
	base, head             float64
	single                 bool // one judged trial in each run
	baseScores, headScores map[string]float64
}

// testable reports whether a matched case can be tested: both runs
// judged it, neither skipped it or failed to judge it.
func testable(cc CaseChange) bool {
	ok := func(o Outcome) bool { return o == Passed || o == Failed || o == Flaky }
	return ok(cc.Base.Outcome) && ok(cc.Head.Outcome) && cc.Base.Judged > 0 && cc.Head.Judged > 0
}

// pair reads a tested case's numbers.
func pair(cc CaseChange) pairedCase {
	base, _ := cc.Base.Result.PassRate()
	head, _ := cc.Head.Result.PassRate()
	return pairedCase{base: base, head: head, single: cc.Base.Judged == 1 && cc.Head.Judged == 1,
		baseScores: caseCriteria(cc.Base.Result), headScores: caseCriteria(cc.Head.Result)}
}

// test tests the head against the base over the tested cases.
func (cfg CompareConfig) test(cases []pairedCase) Significance {
	s := Significance{Verdict: ChangeNone, PassRate: ChangeNone, Alpha: cfg.Alpha, MinEffect: cfg.MinEffect, P: 1, Cases: len(cases)}
	if len(cases) == 0 {
		return s
	}
	level := 1 - cfg.Alpha
	base, head := make([]float64, len(cases)), make([]float64, len(cases))
	single := true
	for i, c := range cases {
		base[i], head[i] = c.base, c.head
		single = single && c.single
		switch {
		case c.head < c.base:
			s.Worse++
		case c.head > c.base:
			s.Better++
		}
	}
	p, _ := bootstrap.Paired(base, head, level)
	s.Base, s.Head = mean(base), mean(head)
	s.Diff, s.Interval = p.Diff, &p.Interval
	if single {
		s.Method, s.P = MethodMcNemar, stats.McNemar(s.Worse, s.Better)
	} else {
		s.Method, s.P = MethodWilcoxon, p.Test.P
	}
	s.PassRate = cfg.verdict(s.P, s.Diff)
	s.Criteria = cfg.testCriteria(cases)
	s.Verdict = s.PassRate
	for _, c := range s.Criteria {
		switch {
		case c.Verdict == ChangeRegressed:
			s.Verdict = ChangeRegressed
		case c.Verdict == ChangeImproved && s.Verdict == ChangeNone:
			s.Verdict = ChangeImproved
		}
	}
	return s
}

// testCriteria tests each criterion both runs scored on a tested case,
// and corrects their p-values together (Holm).
func (cfg CompareConfig) testCriteria(cases []pairedCase) []CriterionChange {
	names := map[string]bool{}
	for _, c := range cases {
		for name := range c.headScores {
			if _, ok := c.baseScores[name]; ok {
				names[name] = true
			}
		}
	}
	var out []CriterionChange
	var ps []float64
	for _, name := range slices.Sorted(maps.Keys(names)) {
		var base, head []float64
		for _, c := range cases {
			b, ok1 := c.baseScores[name]
			h, ok2 := c.headScores[name]
			if ok1 && ok2 {
				base, head = append(base, b), append(head, h)
			}
		}
		p, _ := bootstrap.Paired(base, head, 1-cfg.Alpha)
		out = append(out, CriterionChange{Name: name, Cases: len(base), Diff: p.Diff, Interval: &p.Interval, P: p.Test.P})
		ps = append(ps, p.Test.P)
	}
	for i, adj := range stats.Holm(ps) {
		out[i].Adjusted = adj
		out[i].Verdict = cfg.verdict(adj, out[i].Diff)
	}
	return out
}

// verdict weighs a difference and its p-value: significant below Alpha,
// and counted when at least MinEffect (give or take rounding, as every
// number is compared with its threshold).
func (cfg CompareConfig) verdict(p, diff float64) Change {
	switch {
	case p >= cfg.Alpha:
		return ChangeNone
	case diff < 0 && judge.CompareToThreshold(-diff, cfg.MinEffect) >= 0:
		return ChangeRegressed
	case diff > 0 && judge.CompareToThreshold(diff, cfg.MinEffect) >= 0:
		return ChangeImproved
	}
	return ChangeNone
}

// caseCriteria is the mean score of each criterion over a case's trials.
func caseCriteria(r *CaseResult) map[string]float64 {
	cs := criteria{}
	for _, t := range r.Trials {
		cs.add(0, t.Verdict)
	}
	if len(cs) == 0 {
		return nil
	}
	out := make(map[string]float64, len(cs))
	for name, c := range cs {
		out[name] = c.sum / float64(c.Count)
	}
	return out
}

// critical reports whether a case of the head is critical and failed: a
// judged trial did not pass.
func critical(r *CaseResult) bool {
	return r.Case != nil && r.Case.Critical && (r.Outcome == Failed || r.Outcome == Flaky)
}

// mean is the mean of xs; 0 without any.
func mean(xs []float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	var sum float64
	for _, x := range xs {
		sum += x
	}
	return sum / float64(len(xs))
}
