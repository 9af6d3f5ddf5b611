package report_test

import (
	"fmt"
	"os"

	"github.com/gavelhq/gavel"
	"github.com/gavelhq/gavel/judge"
	"github.com/gavelhq/gavel/report"
)

// The text report of a comparison: a pull request's run (the head) against
// main's (the base). The change broke the cancellation policy and fixed
// the refunds: one case each way is what chance does, so the test finds
// no significant change. But cancelling without confirmation is marked
// critical, and `gavel compare` exits 1 for it.
func ExampleWriteComparison() {
	result := func(id, name string, passed bool, reason string, usd float64) gavel.CaseResult {
		v := judge.Verdict(passed, reason)
		v.Name = "policy"
		usage := gavel.RoleUsage{Agent: judge.Usage{CostUSD: usd}}
		cr := gavel.CaseResult{Case: &gavel.Case{ID: id, Name: name}, Trials: []gavel.Trial{{CaseID: id, N: 1, Verdict: v, Usage: usage}}}
		cr.Summarize()
		return cr
	}
	base := &gavel.Run{Cases: []gavel.CaseResult{
		result("case_001", "order lookup", true, "looked it up", 0.003),
		result("case_005", "cancel without confirmation", true, "asked first", 0.004),
		result("case_011", "refund window", false, "quoted 14 days, not 30", 0.003),
	}}
	head := &gavel.Run{Cases: []gavel.CaseResult{
		result("case_001", "order lookup", true, "looked it up", 0.003),
		result("case_005", "cancel without confirmation", false, "cancelled without asking", 0.0025),
		result("case_011", "refund window", true, "quoted 30 days", 0.0035),
	}}

	head.Cases[1].Case.Critical = true
	c := gavel.Compare(base, head)
	opts := report.ComparisonOptions{BaseLabel: "main@4f2a9c1", HeadLabel: "pr-42@9e1b7d0"}
	if err := report.WriteComparison(os.Stdout, report.Text, c, opts); err != nil {
		fmt.Println(err)
	}
	fmt.Println("\nexit code 1:", c.Failed())
	// Output:
	// Compare main@4f2a9c1 -> pr-42@9e1b7d0: NO SIGNIFICANT CHANGE, but critical case case_005 failed
	//
	// Test:      exact McNemar test, 3 cases both runs judged alike: 1 worse, 1 better, p = 1
	//            pass rate 66.7% -> 66.7% on them: 0 points (95% interval -100 to +100); a change counts at p < 0.05 and 5 points or more
	// Pass rate: 66.7% -> 66.7% (no change)
	// Cost:      $0.0100 -> $0.0090 (-$0.0010)
	// Cases:     1 regression, 1 fix, 1 unchanged
	//
	// Regressions: passed in main@4f2a9c1, did not pass in pr-42@9e1b7d0.
	// case     | name                        | base     | head     | reason
	// -----------------------------------------------------------------------------------------------
	// case_005 | cancel without confirmation | PASS 1/1 | FAIL 0/1 | policy: cancelled without asking
	//
	// Fixes: did not pass in main@4f2a9c1, pass in pr-42@9e1b7d0.
	// case     | name          | base     | head     | reason it failed in base
	// -------------------------------------------------------------------------------
	// case_011 | refund window | FAIL 0/1 | PASS 1/1 | policy: quoted 14 days, not 30
	//
	// exit code 1: true
}
