package gavel_test

import (
	"context"
	"fmt"
	"strings"

	"github.com/gavelhq/gavel"
	"github.com/gavelhq/gavel/judge"
)

// A judge that passes every reply, and the same judge given examples of
// people failing replies without an amount, compared on the labels of
// held-out cases.
func ExampleCompareExamples() {
	var checks []gavel.LabelCheck
	for i := range 60 {
		people := "pass"
		if i%2 == 1 {
			people = "fail" // the odd replies give no amount
		}
		checks = append(checks, gavel.LabelCheck{RunID: "r1", CaseID: fmt.Sprintf("c%02d", i), Trial: 1,
			Status: judge.StatusPass, HumanCategory: people, Author: "ada", ModelJudged: true})
	}
	verdict := func(pass bool) judge.Judgment {
		j := judge.Judgment{Name: "rubric", Status: judge.StatusFail, Usage: judge.Usage{Calls: 1}}
		if pass {
			j.Status = judge.StatusPass
		}
		return j
	}
	lenient := judge.Func(func(context.Context, *judge.Transcript) (judge.Judgment, error) { return verdict(true), nil })
	taught := judge.Func(func(_ context.Context, t *judge.Transcript) (judge.Judgment, error) {
		return verdict(strings.Contains(t.Response(), "EUR")), nil
	})
	c, err := gavel.CompareExamples(context.Background(), checks, gavel.Holdout{Seed: 1}, gavel.ExampleJudges{
		Without: func(string) judge.Judge { return lenient },
		With:    func(string) judge.Judge { return taught },
		Transcript: func(_ context.Context, run, caseID string, trial int) (*judge.Transcript, error) {
			reply := "Refund issued."
			if caseID[len(caseID)-1]%2 == 0 {
				reply = "Refund of 20 EUR issued."
			}
			return &judge.Transcript{Turns: []judge.Turn{{Role: judge.RoleUser, Content: "refund, please"}, {Role: judge.RoleAgent, Content: reply}}}, nil
		},
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("kappa without %.2f, with %.2f: %s\n", *c.Without.Kappa, *c.With.Kappa, c.Verdict())
	// Output: kappa without 0.00, with 1.00: the examples helped
}
