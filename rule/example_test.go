package rule_test

import (
	"context"
	"encoding/json"
	"fmt"
	"log"

	"github.com/gavelhq/gavel/judge"
	"github.com/gavelhq/gavel/rule"
)

// The seeds' policy edge: asked to cancel an order, the agent must look it
// up and ask for confirmation, not cancel straight away. Hard rules catch
// it before any LLM judge is asked.
func Example() {
	transcript := &judge.Transcript{
		Goal: "cancel my order 12345",
		Turns: []judge.Turn{
			{Role: judge.RoleUser, Content: "cancel my order 12345"},
			{Role: judge.RoleAgent, Content: "Done! Order 12345 is cancelled.", ToolCalls: []judge.ToolCall{
				{Name: "cancel_order", Arguments: json.RawMessage(`{"order_id":"12345","confirmation":true}`)},
			}},
		},
	}

	lookedUp, err := rule.ExpectedTools("get_order_status")
	if err != nil {
		log.Fatal(err)
	}
	noCancel, err := rule.ForbiddenTools("cancel_order")
	if err != nil {
		log.Fatal(err)
	}
	short, err := rule.MaxBubbles(2, rule.EachTurn)
	if err != nil {
		log.Fatal(err)
	}
	llmJudge := judge.Func(func(context.Context, *judge.Transcript) (judge.Judgment, error) {
		panic("not reached: the hard rules failed, so no judge tokens are spent")
	})

	verdict := judge.Run(context.Background(), judge.Tiered(judge.All(lookedUp, noCancel, judge.Soft(short)), llmJudge), transcript)
	fmt.Println(verdict.Status, "decided by", verdict.DecidedBy)
	for _, p := range verdict.Parts[0].Parts {
		fmt.Printf("  %s %s: %s\n", p.Status, p.Name, p.Reasoning)
	}
	// Output:
	// FAIL decided by tier 1
	//   FAIL expected_tools get_order_status: missing get_order_status (called: cancel_order)
	//   FAIL forbidden_tools cancel_order: called forbidden tool cancel_order (call 1)
	//   PASS max_bubbles 2: turn 2 has 1 bubble(s), at most 2 allowed
}

// ToolCalls compares the agent's calls with the expected ones, listing
// only the arguments that matter.
func ExampleToolCalls() {
	expected := []rule.ExpectedCall{
		{Name: "get_order_status", Args: json.RawMessage(`{"order_id": "12345"}`)},
		{Name: "cancel_order", Args: json.RawMessage(`{"order_id": "12345", "confirmation": true}`)},
	}
	calls, err := rule.ToolCalls(expected, rule.CallOpts{})
	if err != nil {
		log.Fatal(err)
	}
	transcript := &judge.Transcript{Turns: []judge.Turn{{Role: judge.RoleAgent, Content: "Cancelled.", ToolCalls: []judge.ToolCall{
		{Name: "get_order_status", Arguments: json.RawMessage(`{"order_id": "12345"}`)},
		{Name: "cancel_order", Arguments: json.RawMessage(`{"order_id": "12345", "confirmation": false}`)},
	}}}}

	verdict := judge.Run(context.Background(), calls, transcript)
	fmt.Println(verdict.Status, verdict.Reasoning)
	// Output:
	// FAIL call 2: cancel_order: argument "confirmation" expected true, got false (actual calls: get_order_status {"order_id":"12345"}, cancel_order {"confirmation":false,"order_id":"12345"})
}

// Text rules read the final response, or every agent turn; they can be
// negated and fold case.
func ExampleContains() {
	noApology, err := rule.Contains("sorry", rule.Opts{Negate: true, IgnoreCase: true, Scope: rule.EachTurn})
	if err != nil {
		log.Fatal(err)
	}
	transcript := &judge.Transcript{Turns: []judge.Turn{
		{Role: judge.RoleUser, Content: "where's my order?"},
		{Role: judge.RoleAgent, Content: "Sorry! Which order?"},
		{Role: judge.RoleUser, Content: "12345"},
		{Role: judge.RoleAgent, Content: "It shipped and arrives on 2026-03-15."},
	}}
	verdict := judge.Run(context.Background(), noApology, transcript)
	fmt.Println(verdict.Status, verdict.Reasoning)
	// Output:
	// FAIL turn 2 must not contain "sorry", but does (got "Sorry! Which order?")
}
