package gavel_test

import (
	"fmt"
	"math"
	"testing"

	"github.com/gavelhq/gavel"
	"github.com/gavelhq/gavel/judge"
)

// sharesRun returns a run of len(passes) cases of trials trials each,
// case i passing passes[i] of them. With a criterion name, every trial
// also scores it: scores[i] in case i.
func sharesRun(trials int, passes []int, criterion string, scores []float64) *gavel.Run {
	run := &gavel.Run{}
	for i, p := range passes {
		id := fmt.Sprintf("c%02d", i)
		cr := gavel.CaseResult{Case: &gavel.Case{ID: id}}
		for n := 1; n <= trials; n++ {
			v := judge.Verdict(n <= p, "")
			if criterion != "" {
				v = judge.Judgment{Status: v.Status, Parts: []judge.Judgment{
					{Name: criterion, Status: v.Status, Score: judge.Score{Kind: judge.Numerical, Value: scores[i], Min: 0, Max: 1}},
				}}
			}
			cr.Trials = append(cr.Trials, gavel.Trial{CaseID: id, N: n, Verdict: v})
		}
		cr.Summarize()
		run.Cases = append(run.Cases, cr)
	}
	return run
}

// flips returns the passes of n single-trial cases in two runs: worse
// cases pass in the base only, better in the head only, the first half of
// the rest in both and the other half in neither.
func flips(n, worse, better int) (base, head []int) {
	base, head = make([]int, n), make([]int, n)
	for i := range n {
		switch {
		case i < worse:
			base[i] = 1
		case i < worse+better:
			head[i] = 1
		case i < worse+better+(n-worse-better)/2:
			base[i], head[i] = 1, 1
		}
	}
	return base, head
}

// The test of a comparison against the reference implementations:
//
//	from statsmodels.stats.contingency_tables import mcnemar
//	mcnemar([[0, 3], [2, 0]], exact=True).pvalue    # 1.0
//	mcnemar([[0, 12], [1, 0]], exact=True).pvalue   # 0.00341796875 (and [[0, 1], [12, 0]])
//
//	from scipy.stats import wilcoxon; import numpy as np
//	base = [1, 1, 1, 1, 2/3, 1, 1, 2/3, 1, 1, 1, 1]
//	head = [1/3, 2/3, 1/3, 1, 0, 1/3, 2/3, 1/3, 1, 1/3, 2/3, 0]
//	d = np.round((np.array(head) - np.array(base)) * 1e12) / 1e12
//	wilcoxon(d, method="approx").pvalue             # 0.004245585155691297
//	np.mean(d)                                      # -0.47222222222225
func TestCompareTest(t *testing.T) {
	aaBase, aaHead := flips(40, 3, 2)
	dropBase, dropHead := flips(40, 12, 1)
	manyBase, manyHead := flips(400, 12, 1)
	thirds := []int{3, 3, 3, 3, 2, 3, 3, 2, 3, 3, 3, 3}
	dropped := []int{1, 2, 1, 3, 0, 1, 2, 1, 3, 1, 2, 0}
	tests := []struct {
		name         string
		base, head   *gavel.Run
		cfg          gavel.CompareConfig
		method       string
		worse, bette int
		p, diff      float64
		verdict      gavel.Change
	}{
		{"an A/A pair: 3 worse, 2 better of 40", sharesRun(1, aaBase, "", nil), sharesRun(1, aaHead, "", nil),
			gavel.DefaultCompareConfig(), gavel.MethodMcNemar, 3, 2, 1.0, -1.0 / 40, gavel.ChangeNone},
		{"a real drop: 12 worse, 1 better of 40", sharesRun(1, dropBase, "", nil), sharesRun(1, dropHead, "", nil),
			gavel.DefaultCompareConfig(), gavel.MethodMcNemar, 12, 1, 0.00341796875, -11.0 / 40, gavel.ChangeRegressed},
		{"a rise", sharesRun(1, dropHead, "", nil), sharesRun(1, dropBase, "", nil),
			gavel.DefaultCompareConfig(), gavel.MethodMcNemar, 1, 12, 0.00341796875, 11.0 / 40, gavel.ChangeImproved},
		{"a significant drop under the minimum effect", sharesRun(1, manyBase, "", nil), sharesRun(1, manyHead, "", nil),
			gavel.DefaultCompareConfig(), gavel.MethodMcNemar, 12, 1, 0.00341796875, -11.0 / 400, gavel.ChangeNone},
		{"the same drop with no minimum effect", sharesRun(1, manyBase, "", nil), sharesRun(1, manyHead, "", nil),
			gavel.CompareConfig{Alpha: 0.05}, gavel.MethodMcNemar, 12, 1, 0.00341796875, -11.0 / 400, gavel.ChangeRegressed},
		{"the same drop at alpha 0.001", sharesRun(1, manyBase, "", nil), sharesRun(1, manyHead, "", nil),
			gavel.CompareConfig{Alpha: 0.001}, gavel.MethodMcNemar, 12, 1, 0.00341796875, -11.0 / 400, gavel.ChangeNone},
		{"three trials a case", sharesRun(3, thirds, "", nil), sharesRun(3, dropped, "", nil),
			gavel.DefaultCompareConfig(), gavel.MethodWilcoxon, 10, 0, 0.004245585155691297, -0.47222222222225, gavel.ChangeRegressed},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s := gavel.CompareWith(tc.base, tc.head, tc.cfg).Test
			if s.Method != tc.method || s.Worse != tc.worse || s.Better != tc.bette || s.Verdict != tc.verdict {
				t.Errorf("%s, %d worse, %d better: %s; want %s, %d, %d: %s", s.Method, s.Worse, s.Better, s.Verdict, tc.method, tc.worse, tc.bette, tc.verdict)
			}
			if math.Abs(s.P-tc.p) > 1e-12 || math.Abs(s.Diff-tc.diff) > 1e-9 {
				t.Errorf("p = %v, diff = %v; want %v, %v", s.P, s.Diff, tc.p, tc.diff)
			}
			if s.Interval == nil || s.Interval.Lo > s.Diff || s.Interval.Hi < s.Diff {
				t.Errorf("interval %+v does not hold the difference %v", s.Interval, s.Diff)
			}
		})
	}
}

// Each criterion is tested case by case, and the p-values of the
// criteria are corrected together (Holm): a criterion that drops in every
// case regresses the comparison even when the pass rate holds.
//
//	from scipy.stats import wilcoxon
//	p = wilcoxon([-0.3] * 12, method="approx").pvalue  # 0.0005320055051392492 (every difference tied)
//	from statsmodels.stats.multitest import multipletests
//	multipletests([1.0, p], method="holm")[1]          # [1.0, 0.00106401]
func TestCompareCriteria(t *testing.T) {
	passes := []int{1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1}
	high, low := make([]float64, 12), make([]float64, 12)
	for i := range high {
		high[i], low[i] = 0.9, 0.6
	}
	base := sharesRun(1, passes, "politeness", high)
	head := sharesRun(1, passes, "politeness", low)
	// A second criterion, the same in both runs.
	for _, run := range []*gavel.Run{base, head} {
		for i := range run.Cases {
			tr := &run.Cases[i].Trials[0]
			tr.Verdict.Parts = append(tr.Verdict.Parts, judge.Judgment{Name: "accuracy", Status: judge.StatusPass,
				Score: judge.Score{Kind: judge.Numerical, Value: 1, Min: 0, Max: 1}})
		}
	}
	s := gavel.Compare(base, head).Test
	if s.PassRate != gavel.ChangeNone || s.Verdict != gavel.ChangeRegressed {
		t.Fatalf("pass rate %s, verdict %s; want NO SIGNIFICANT CHANGE, REGRESSED", s.PassRate, s.Verdict)
	}
	if len(s.Criteria) != 2 || s.Criteria[0].Name != "accuracy" || s.Criteria[1].Name != "politeness" {
		t.Fatalf("criteria %+v", s.Criteria)
	}
	acc, pol := s.Criteria[0], s.Criteria[1]
	if acc.P != 1 || acc.Adjusted != 1 || acc.Verdict != gavel.ChangeNone {
		t.Errorf("accuracy: %+v", acc)
	}
	if math.Abs(pol.Diff+0.3) > 1e-9 || pol.Cases != 12 || math.Abs(pol.P-0.0005320055051392492) > 1e-12 || math.Abs(pol.Adjusted-2*0.0005320055051392492) > 1e-12 || pol.Verdict != gavel.ChangeRegressed {
		t.Errorf("politeness: %+v", pol)
	}
}

// Cases whose definition changed are not comparable: they are listed
// apart and left out of the test. A critical case that fails in the head
// fails the comparison whatever the test says.
func TestCompareRedefinedAndCritical(t *testing.T) {
	base, head := sharesRun(1, []int{1, 1, 1}, "", nil), sharesRun(1, []int{0, 1, 0}, "", nil)
	for i, d := range []string{"v1", "v1", ""} {
		base.Cases[i].Definition = d
	}
	head.Cases[0].Definition = "v2" // c00 changed
	head.Cases[1].Definition = "v1"
	head.Cases[2].Case.Critical = true // c02 fails, and is critical
	c := gavel.Compare(base, head)
	if len(c.Redefined) != 1 || c.Redefined[0].ID != "c00" || listOf(c, "c00") != "unchanged" {
		t.Errorf("redefined %v; c00 in %s", c.Redefined, listOf(c, "c00"))
	}
	if c.Test.Cases != 2 || c.Test.Worse != 1 || c.Test.Verdict != gavel.ChangeNone {
		t.Errorf("test of %d cases, %d worse: %s; want 2, 1, NO SIGNIFICANT CHANGE", c.Test.Cases, c.Test.Worse, c.Test.Verdict)
	}
	if len(c.Critical) != 1 || c.Critical[0].ID != "c02" || !c.Failed() {
		t.Errorf("critical %v, failed %v; want c02, true", c.Critical, c.Failed())
	}
	head.Cases[2].Case.Critical = false
	if gavel.Compare(base, head).Failed() {
		t.Error("fails without a critical case and without a regression")
	}
}

func TestCompareConfigCheck(t *testing.T) {
	for _, tc := range []struct {
		cfg  gavel.CompareConfig
		want string
	}{
		{gavel.DefaultCompareConfig(), ""},
		{gavel.CompareConfig{Alpha: 0.01}, ""},
		{gavel.CompareConfig{Alpha: 0}, "--alpha 0: want a significance level between 0 and 1, such as 0.05"},
		{gavel.CompareConfig{Alpha: 5}, "--alpha 5: want a significance level between 0 and 1, such as 0.05"},
		{gavel.CompareConfig{Alpha: 0.05, MinEffect: 5}, "--min-effect 5: want a share from 0 up to 1, such as 0.05 for 5 points"},
	} {
		got := ""
		if err := tc.cfg.Check(); err != nil {
			got = err.Error()
		}
		if got != tc.want {
			t.Errorf("%+v: %q, want %q", tc.cfg, got, tc.want)
		}
	}
}
