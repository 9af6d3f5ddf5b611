package judge_test

import (
	"context"
	"fmt"
	"strings"

	"github.com/gavelhq/gavel/judge"
)

// A judge is any function from a transcript to a judgment.
func ExampleFunc() {
	mentionsDate := judge.Func(func(_ context.Context, t *judge.Transcript) (judge.Judgment, error) {
		ok := strings.Contains(t.Response(), "2026-03-15")
		return judge.Verdict(ok, "the answer should give the delivery date"), nil
	})

	t := &judge.Transcript{FinalResponse: "Order 12345 shipped; it arrives on 2026-03-15."}
	j := judge.Run(context.Background(), mentionsDate, t)
	fmt.Println(j.Status, j.Score)
	// Output: PASS true
}

// Tiered keeps expensive judges from running once a cheap rule has failed.
func ExampleTiered() {
	noApology := judge.Named("no apology", judge.Func(func(_ context.Context, t *judge.Transcript) (judge.Judgment, error) {
		return judge.Verdict(!strings.Contains(t.Response(), "sorry"), "the agent must not apologise"), nil
	}))
	expensive := judge.Func(func(context.Context, *judge.Transcript) (judge.Judgment, error) {
		panic("never reached: the first tier failed")
	})

	t := &judge.Transcript{FinalResponse: "I'm sorry, I can't find that order."}
	j := judge.Run(context.Background(), judge.Tiered(noApology, expensive), t)
	fmt.Println(j.Status, "decided by", j.DecidedBy)
	fmt.Println(j.Reasoning)
	// Output:
	// FAIL decided by tier 1
	// tier 1 of 2 gave FAIL, so 1 later tier(s) did not run: 1 of 1 failed: no apology: the agent must not apologise
}

// Scores of different kinds normalise to 0..1, so they can be compared and
// aggregated.
func ExampleScore_Normalized() {
	seven, _ := judge.Number(7, 1, 10)
	partial, _ := judge.Category("partial", []judge.Label{{Name: "poor", Value: 0}, {Name: "partial", Value: 0.5}, {Name: "good", Value: 1}})
	fmt.Printf("%.2f %.2f %.2f\n", seven.Normalized(), partial.Normalized(), judge.Bool(true).Normalized())

	_, err := judge.Number(11, 1, 10)
	fmt.Println(err)
	// Output:
	// 0.67 0.50 1.00
	// numerical score 11 is outside its bounds 1..10
}
