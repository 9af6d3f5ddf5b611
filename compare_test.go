package gavel_test

import (
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/gavelhq/gavel"
	"github.com/gavelhq/gavel/judge"
)

// comparedCase returns a case result of the given outcome: a trial per
// verdict, PASS a passing one, FAIL a failing one, FLAKY one of each,
// ERROR one that could not be judged, SKIPPED none.
func comparedCase(id string, o gavel.Outcome) gavel.CaseResult {
	pass := judge.Judgment{Name: "check", Status: judge.StatusPass, Reasoning: "fine"}
	fail := judge.Judgment{Name: "check", Status: judge.StatusFail, Reasoning: "wrong answer"}
	broken := judge.Judgment{Name: "conversation", Status: judge.StatusError, Reasoning: "agent timed out"}
	verdicts := map[gavel.Outcome][]judge.Judgment{
		gavel.Passed:  {pass},
		gavel.Failed:  {fail},
		gavel.Flaky:   {pass, fail},
		gavel.Errored: {broken},
		gavel.Skipped: nil,
	}[o]
	cr := gavel.CaseResult{Case: &gavel.Case{ID: id, Name: "case " + id}}
	for i, v := range verdicts {
		cr.Trials = append(cr.Trials, gavel.Trial{CaseID: id, N: i + 1, Verdict: v})
	}
	if o == gavel.Skipped {
		cr.SkipReason = "budget spent"
	}
	cr.Summarize()
	if cr.Outcome != o {
		panic(fmt.Sprintf("comparedCase(%q, %s) came out %s", id, o, cr.Outcome))
	}
	return cr
}

// comparedRun returns a run of the given cases.
func comparedRun(cases ...gavel.CaseResult) *gavel.Run {
	return &gavel.Run{Cases: cases}
}

// listOf names the list of c that holds the case id, or "unchanged" when
// none does.
func listOf(c gavel.Comparison, id string) string {
	found := []string{}
	for _, l := range []struct {
		name  string
		cases []gavel.CaseChange
	}{
		{"regression", c.Regressions}, {"fix", c.Fixes}, {"changed", c.Changed},
		{"errored", c.Errored}, {"not compared", c.NotCompared}, {"added", c.Added}, {"removed", c.Removed},
	} {
		for _, cc := range l.cases {
			if cc.ID == id {
				found = append(found, l.name)
			}
		}
	}
	switch len(found) {
	case 0:
		return "unchanged"
	case 1:
		return found[0]
	}
	return fmt.Sprint(found)
}

// Every pair of outcomes lands in one list, as Comparison's table says.
func TestCompareTransitions(t *testing.T) {
	const (
		P = gavel.Passed
		F = gavel.Failed
		K = gavel.Flaky
		E = gavel.Errored
		S = gavel.Skipped
	)
	tests := []struct {
		base, head gavel.Outcome
		want       string
	}{
		{P, P, "unchanged"},
		{P, F, "regression"},
		{P, K, "regression"},
		{P, E, "errored"},
		{P, S, "not compared"},

		{F, P, "fix"},
		{F, F, "unchanged"},
		{F, K, "changed"},
		{F, E, "errored"},
		{F, S, "not compared"},

		{K, P, "fix"},
		{K, F, "changed"},
		{K, K, "unchanged"},
		{K, E, "errored"},
		{K, S, "not compared"},

		{E, P, "not compared"},
		{E, F, "not compared"},
		{E, K, "not compared"},
		{E, E, "errored"},
		{E, S, "not compared"},

		{S, P, "not compared"},
		{S, F, "not compared"},
		{S, K, "not compared"},
		{S, E, "not compared"},
		{S, S, "not compared"},
	}
	for _, tc := range tests {
		t.Run(fmt.Sprintf("%s to %s", tc.base, tc.head), func(t *testing.T) {
			c := gavel.Compare(comparedRun(comparedCase("x", tc.base)), comparedRun(comparedCase("x", tc.head)))
			if got := listOf(c, "x"); got != tc.want {
				t.Errorf("got %s, want %s", got, tc.want)
			}
			wantUnchanged := 0
			if tc.want == "unchanged" {
				wantUnchanged = 1
			}
			if c.Unchanged != wantUnchanged {
				t.Errorf("Unchanged = %d, want %d", c.Unchanged, wantUnchanged)
			}
			if got, want := c.HasRegressions(), tc.want == "regression"; got != want {
				t.Errorf("HasRegressions() = %v, want %v", got, want)
			}
		})
	}
	t.Run("added", func(t *testing.T) {
		for _, o := range []gavel.Outcome{P, F, K, E, S} {
			c := gavel.Compare(comparedRun(), comparedRun(comparedCase("x", o)))
			if got := listOf(c, "x"); got != "added" {
				t.Errorf("%s in the head only: got %s, want added", o, got)
			}
			if c.HasRegressions() {
				t.Errorf("%s in the head only: a regression", o)
			}
		}
	})
	t.Run("removed", func(t *testing.T) {
		for _, o := range []gavel.Outcome{P, F, K, E, S} {
			c := gavel.Compare(comparedRun(comparedCase("x", o)), comparedRun())
			if got := listOf(c, "x"); got != "removed" {
				t.Errorf("%s in the base only: got %s, want removed", o, got)
			}
			if c.HasRegressions() {
				t.Errorf("%s in the base only: a regression", o)
			}
		}
	})
}

// The cases of each list come in the head's order, the removed ones in
// the base's, with both sides summed up.
func TestCompareCases(t *testing.T) {
	base := comparedRun(
		comparedCase("gone2", gavel.Passed),
		comparedCase("c", gavel.Passed),
		comparedCase("a", gavel.Passed),
		comparedCase("fixed", gavel.Failed),
		comparedCase("gone1", gavel.Failed),
		comparedCase("same", gavel.Passed),
	)
	head := comparedRun(
		comparedCase("new", gavel.Flaky),
		comparedCase("a", gavel.Failed),
		comparedCase("same", gavel.Passed),
		comparedCase("fixed", gavel.Passed),
		comparedCase("c", gavel.Flaky),
	)
	got := gavel.Compare(base, head)

	side := func(o gavel.Outcome, passed, trials int, reason string) gavel.CaseSide {
		return gavel.CaseSide{Outcome: o, Passed: passed, Trials: trials, Judged: trials, Reason: reason}
	}
	pass := side(gavel.Passed, 1, 1, "")
	fail := side(gavel.Failed, 0, 1, "check: wrong answer")
	flaky := side(gavel.Flaky, 1, 2, "check: wrong answer")
	want := gavel.Comparison{
		Regressions: []gavel.CaseChange{
			{ID: "a", Name: "case a", Base: pass, Head: fail},
			{ID: "c", Name: "case c", Base: pass, Head: flaky},
		},
		Fixes: []gavel.CaseChange{
			{ID: "fixed", Name: "case fixed", Base: fail, Head: pass},
		},
		Added: []gavel.CaseChange{
			{ID: "new", Name: "case new", Head: flaky},
		},
		Removed: []gavel.CaseChange{
			{ID: "gone2", Name: "case gone2", Base: pass},
			{ID: "gone1", Name: "case gone1", Base: fail},
		},
		Unchanged: 1,
		PassRate:  gavel.RateDelta{Base: new(4.0 / 6), Head: new(3.0 / 5)},
	}
	// The test of the difference is TestCompareTest's.
	ignore := cmp.Options{cmpopts.IgnoreFields(gavel.CaseSide{}, "Result"), cmpopts.IgnoreFields(gavel.Comparison{}, "Test")}
	if diff := cmp.Diff(want, got, ignore, cmpopts.EquateApprox(0, 1e-9)); diff != "" {
		t.Errorf("Compare (-want +got):\n%s", diff)
	}

	// Each side points at its result in its run.
	if r := got.Regressions[0]; r.Base.Result != &base.Cases[2] || r.Head.Result != &head.Cases[1] {
		t.Errorf("the regression of a points at %p and %p, want %p and %p", r.Base.Result, r.Head.Result, &base.Cases[2], &head.Cases[1])
	}
	if a := got.Added[0]; a.Base.Result != nil || a.Head.Result != &head.Cases[0] {
		t.Errorf("the added case points at %p and %p, want nil and %p", a.Base.Result, a.Head.Result, &head.Cases[0])
	}
	if r := got.Removed[1]; r.Base.Result != &base.Cases[4] || r.Head.Result != nil {
		t.Errorf("the removed case points at %p and %p, want %p and nil", r.Base.Result, r.Head.Result, &base.Cases[4])
	}
}

func TestCaseSide(t *testing.T) {
	tree := judge.Judgment{Name: "tiered", Status: judge.StatusFail, DecidedBy: "tier 1", Reasoning: "tier 1 failed",
		Parts: []judge.Judgment{
			{Name: "tone", Status: judge.StatusPass, Reasoning: "polite"},
			{Name: "hard rules", Status: judge.StatusFail, Reasoning: "1 of 2 failed", Parts: []judge.Judgment{
				{Name: "expected_tools lookup", Status: judge.StatusPass},
				{Name: "forbidden_tools cancel", Status: judge.StatusFail, Reasoning: "called cancel (call 2)\nand more"},
			}},
			{Name: "later", Status: judge.StatusFail, Reasoning: "also bad"},
		}}
	tests := []struct {
		name   string
		result gavel.CaseResult
		want   gavel.CaseSide
		rate   float64
		ran    bool
	}{
		{
			name:   "the first failing leaf, on one line",
			result: gavel.CaseResult{Outcome: gavel.Failed, Trials: []gavel.Trial{{Verdict: tree}}},
			want:   gavel.CaseSide{Outcome: gavel.Failed, Trials: 1, Judged: 1, Reason: "forbidden_tools cancel: called cancel (call 2)"},
			ran:    true,
		},
		{
			name: "the first trial that did not pass",
			result: gavel.CaseResult{Outcome: gavel.Flaky, Trials: []gavel.Trial{
				{Verdict: judge.Judgment{Status: judge.StatusPass}},
				{Verdict: judge.Judgment{Name: "judge", Status: judge.StatusFail, Reasoning: "second"}},
				{Verdict: judge.Judgment{Name: "judge", Status: judge.StatusFail, Reasoning: "third"}},
			}},
			want: gavel.CaseSide{Outcome: gavel.Flaky, Passed: 1, Trials: 3, Judged: 3, Reason: "judge: second"},
			rate: 1.0 / 3, ran: true,
		},
		{
			name: "a trial that says nothing is passed over",
			result: gavel.CaseResult{Outcome: gavel.Failed, Trials: []gavel.Trial{
				{Verdict: judge.Judgment{Status: judge.StatusFail}},
				{Verdict: judge.Judgment{Name: "judge", Status: judge.StatusFail, Reasoning: "said why"}},
			}},
			want: gavel.CaseSide{Outcome: gavel.Failed, Trials: 2, Judged: 2, Reason: "judge: said why"},
			ran:  true,
		},
		{
			name: "an error",
			result: gavel.CaseResult{Outcome: gavel.Errored, Trials: []gavel.Trial{
				{Verdict: judge.Judgment{Name: "conversation", Status: judge.StatusError, Reasoning: "TIMEOUT"}},
			}},
			want: gavel.CaseSide{Outcome: gavel.Errored, Trials: 1, Judged: 1, Reason: "conversation: TIMEOUT"},
			ran:  true,
		},
		{
			name:   "passed",
			result: gavel.CaseResult{Outcome: gavel.Passed, Trials: []gavel.Trial{{Verdict: judge.Judgment{Status: judge.StatusPass}}}},
			want:   gavel.CaseSide{Outcome: gavel.Passed, Passed: 1, Trials: 1, Judged: 1},
			rate:   1, ran: true,
		},
		{
			name:   "skipped",
			result: gavel.CaseResult{Outcome: gavel.Skipped, SkipReason: "the run was interrupted"},
			want:   gavel.CaseSide{Outcome: gavel.Skipped, Reason: "the run was interrupted"},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			tc.result.Case = &gavel.Case{ID: "x"}
			c := gavel.Compare(nil, comparedRun(tc.result)) // added: the head side alone
			if len(c.Added) != 1 {
				t.Fatalf("got %d added cases, want 1: %+v", len(c.Added), c)
			}
			got := c.Added[0].Head
			if diff := cmp.Diff(tc.want, got, cmpopts.IgnoreFields(gavel.CaseSide{}, "Result")); diff != "" {
				t.Errorf("head side (-want +got):\n%s", diff)
			}
			rate, ran := got.PassRate()
			if rate != tc.rate || ran != tc.ran {
				t.Errorf("PassRate() = %v, %v, want %v, %v", rate, ran, tc.rate, tc.ran)
			}
		})
	}
}

// scored returns a case result of one trial whose verdict holds a
// criterion per name, scored v on 0..1, and that cost usd.
func scored(id string, usd float64, criteria map[string]float64) gavel.CaseResult {
	v := judge.Judgment{Name: "all", Status: judge.StatusPass}
	for name, score := range criteria {
		v.Parts = append(v.Parts, judge.Judgment{Name: name, Status: judge.StatusPass, Score: judge.Unit(score)})
	}
	cr := gavel.CaseResult{Case: &gavel.Case{ID: id}, Trials: []gavel.Trial{{CaseID: id, N: 1, Verdict: v,
		Usage: gavel.RoleUsage{Agent: judge.Usage{CostUSD: usd / 2}, Judge: judge.Usage{CostUSD: usd / 2}}}}}
	cr.Summarize()
	return cr
}

func TestCompareNumbers(t *testing.T) {
	base := comparedRun(
		scored("a", 0.01, map[string]float64{"accuracy": 0.8, "gone": 0.5}),
		scored("b", 0.03, map[string]float64{"accuracy": 0.6}),
		comparedCase("c", gavel.Failed),
	)
	head := comparedRun(
		scored("a", 0.02, map[string]float64{"accuracy": 0.9, "new": 1}),
		scored("b", 0.03, map[string]float64{"accuracy": 0.9}),
		comparedCase("c", gavel.Passed),
	)
	c := gavel.Compare(base, head)

	approx := cmpopts.EquateApprox(0, 1e-9)
	if diff := cmp.Diff(gavel.RateDelta{Base: new(2.0 / 3), Head: new(1.0)}, c.PassRate, approx); diff != "" {
		t.Errorf("PassRate (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(gavel.Delta{Base: 0.04, Head: 0.05}, c.CostUSD, approx); diff != "" {
		t.Errorf("CostUSD (-want +got):\n%s", diff)
	}
	if got := c.CostUSD.Diff(); got < 0.01-1e-9 || got > 0.01+1e-9 {
		t.Errorf("CostUSD.Diff() = %v, want 0.01", got)
	}
	want := []gavel.CriterionDelta{
		{Name: "accuracy", Base: gavel.CriterionStat{Name: "accuracy", Count: 2, Mean: 0.7, Min: 0.6}, Head: gavel.CriterionStat{Name: "accuracy", Count: 2, Mean: 0.9, Min: 0.9}},
		{Name: "gone", Base: gavel.CriterionStat{Name: "gone", Count: 1, Mean: 0.5, Min: 0.5}},
		{Name: "new", Head: gavel.CriterionStat{Name: "new", Count: 1, Mean: 1, Min: 1}},
	}
	if diff := cmp.Diff(want, c.Criteria, approx, cmpopts.IgnoreFields(gavel.CriterionStat{}, "Interval")); diff != "" {
		t.Errorf("Criteria (-want +got):\n%s", diff)
	}
	for i, w := range []struct {
		diff float64
		ok   bool
	}{{0.2, true}, {0, false}, {0, false}} {
		d, ok := c.Criteria[i].Diff()
		if ok != w.ok || d < w.diff-1e-9 || d > w.diff+1e-9 {
			t.Errorf("%s: Diff() = %v, %v, want %v, %v", c.Criteria[i].Name, d, ok, w.diff, w.ok)
		}
	}
}

func TestCompareMatching(t *testing.T) {
	t.Run("nil runs", func(t *testing.T) {
		c := gavel.Compare(nil, nil)
		nothing := gavel.Comparison{Test: gavel.Significance{Verdict: gavel.ChangeNone, PassRate: gavel.ChangeNone,
			Alpha: gavel.DefaultAlpha, MinEffect: gavel.DefaultMinEffect, P: 1}}
		if diff := cmp.Diff(nothing, c); diff != "" {
			t.Errorf("Compare(nil, nil) (-want +got):\n%s", diff)
		}
	})
	t.Run("ids from trials", func(t *testing.T) {
		// A run read back from storage may hold results without a Case.
		b := comparedCase("x", gavel.Passed)
		b.Case = nil
		h := comparedCase("x", gavel.Failed)
		c := gavel.Compare(comparedRun(b), comparedRun(h))
		if len(c.Regressions) != 1 || c.Regressions[0].ID != "x" || c.Regressions[0].Name != "case x" {
			t.Errorf("want x as a regression named from the head, got %+v", c)
		}
	})
	t.Run("the base names a case the head does not", func(t *testing.T) {
		b := comparedCase("x", gavel.Passed)
		h := comparedCase("x", gavel.Failed)
		h.Case.Name = ""
		c := gavel.Compare(comparedRun(b), comparedRun(h))
		if len(c.Regressions) != 1 || c.Regressions[0].Name != "case x" {
			t.Errorf("want x as a regression named from the base, got %+v", c)
		}
	})
	t.Run("duplicate ids pair in order", func(t *testing.T) {
		base := comparedRun(comparedCase("x", gavel.Passed), comparedCase("x", gavel.Failed), comparedCase("x", gavel.Passed))
		head := comparedRun(comparedCase("x", gavel.Failed), comparedCase("x", gavel.Passed))
		c := gavel.Compare(base, head)
		if len(c.Regressions) != 1 || c.Regressions[0].Base.Result != &base.Cases[0] || c.Regressions[0].Head.Result != &head.Cases[0] {
			t.Errorf("want the first x of each run as a regression, got %+v", c.Regressions)
		}
		if len(c.Fixes) != 1 || c.Fixes[0].Base.Result != &base.Cases[1] || c.Fixes[0].Head.Result != &head.Cases[1] {
			t.Errorf("want the second x of each run as a fix, got %+v", c.Fixes)
		}
		if len(c.Removed) != 1 || c.Removed[0].Base.Result != &base.Cases[2] {
			t.Errorf("want the third x of the base removed, got %+v", c.Removed)
		}
	})
}

// Comparing main's run (the base) with a pull request's (the head): one
// case broke, one was fixed, one errored, which is not held against the
// change.
func ExampleCompare() {
	result := func(id string, statuses ...judge.Status) gavel.CaseResult {
		cr := gavel.CaseResult{Case: &gavel.Case{ID: id}}
		for i, s := range statuses {
			v := judge.Judgment{Name: "policy", Status: s, Reasoning: "reason " + string(s)}
			cr.Trials = append(cr.Trials, gavel.Trial{CaseID: id, N: i + 1, Verdict: v})
		}
		cr.Summarize()
		return cr
	}
	pass, fail, broken := judge.StatusPass, judge.StatusFail, judge.StatusError
	base := &gavel.Run{Cases: []gavel.CaseResult{result("lookup", pass, pass), result("cancel", pass, pass), result("refund", fail, fail), result("export", pass, pass)}}
	head := &gavel.Run{Cases: []gavel.CaseResult{result("lookup", pass, pass), result("cancel", pass, fail), result("refund", pass, pass), result("export", broken, broken)}}

	c := gavel.Compare(base, head)
	for _, r := range c.Regressions {
		fmt.Printf("regression: %s %s -> %s (%d/%d passed): %s\n", r.ID, r.Base.Outcome, r.Head.Outcome, r.Head.Passed, r.Head.Trials, r.Head.Reason)
	}
	for _, f := range c.Fixes {
		fmt.Printf("fix: %s %s -> %s\n", f.ID, f.Base.Outcome, f.Head.Outcome)
	}
	for _, e := range c.Errored {
		fmt.Printf("errored: %s %s -> %s: %s\n", e.ID, e.Base.Outcome, e.Head.Outcome, e.Head.Reason)
	}
	fmt.Println("unchanged:", c.Unchanged)
	fmt.Println("regressed:", c.HasRegressions())
	// Output:
	// regression: cancel PASS -> FLAKY (1/2 passed): policy: reason FAIL
	// fix: refund FAIL -> PASS
	// errored: export PASS -> ERROR: policy: reason ERROR
	// unchanged: 1
	// regressed: true
}
