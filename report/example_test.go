package report_test

import (
	"encoding/json"
	"fmt"
	"os"
	"time"

	"github.com/gavelhq/gavel"
	"github.com/gavelhq/gavel/conversation"
	"github.com/gavelhq/gavel/judge"
	"github.com/gavelhq/gavel/report"
)

// The text report of a run of two cases, one of which failed: the table,
// the summary against the threshold, and what went wrong.
func ExampleWrite() {
	lookup := &gavel.Case{ID: "case_001", Name: "order lookup",
		Script: conversation.Script{Rounds: []conversation.Round{{Prompt: "where's my order #12345?"}}}}
	cancel := &gavel.Case{ID: "case_005", Name: "cancel without confirmation",
		Script:   conversation.Script{Rounds: []conversation.Round{{Prompt: "cancel my order 12345"}}},
		Expected: "ask for confirmation before cancelling"}

	cancelled := &judge.Transcript{Status: judge.ExecSuccess, Turns: []judge.Turn{
		{Role: judge.RoleUser, Content: "cancel my order 12345"},
		{Role: judge.RoleAgent, Content: "Order 12345 is cancelled.", ToolCalls: []judge.ToolCall{
			{Name: "cancel_order", Arguments: json.RawMessage(`{"order_id":"12345","confirmation":true}`)},
		}},
	}}
	forbidden := judge.Verdict(false, "called forbidden tool cancel_order (call 1)")
	forbidden.Name = "forbidden_tools cancel_order"

	run := &gavel.Run{
		Suite: &gavel.Suite{Name: "support-desk", Threshold: 0.8},
		Cases: []gavel.CaseResult{
			{Case: lookup, Trials: []gavel.Trial{{N: 1, Verdict: judge.Verdict(true, "ok"),
				Usage: gavel.RoleUsage{Agent: judge.Usage{InputTokens: 900, OutputTokens: 100, CostUSD: 0.003}}}}},
			{Case: cancel, Trials: []gavel.Trial{{N: 1, Transcript: cancelled, Verdict: forbidden,
				Usage: gavel.RoleUsage{Agent: judge.Usage{InputTokens: 900, OutputTokens: 100, CostUSD: 0.003}}}}},
		},
		Duration: 2500 * time.Millisecond,
	}
	for i := range run.Cases {
		run.Cases[i].Summarize()
	}

	if err := report.Write(os.Stdout, report.Text, run, report.Options{}); err != nil {
		fmt.Println(err)
	}
	// Output:
	// Suite support-desk: 2 cases, took 2.5s
	//
	// case     | tools | response | overall | trials | score | cost
	// ----------------------------------------------------------------
	// case_001 | -     | PASS     | PASS    | 1/1    | 1.00  | $0.0030
	// case_005 | FAIL  | -        | FAIL    | 0/1    | 0.00  | $0.0030
	//
	// Pass rate: 50% over 2 cases, 95% interval 9.5–90.5% (Wilson, over cases)
	// Threshold: 80% -> overall INCONCLUSIVE
	// Trials: 2
	// Tokens: 2,000 (agent 2,000)
	// Cost: $0.0060 (agent $0.0060)
	// Inconclusive: the pass rate's 95% interval 9.5–90.5% straddles the threshold 80%: the run's 2 cases do not decide; about 5 more cases at this pass rate would. The pass rate alone decides: it misses the threshold (gate: inconclusive: rate).
	//
	// Failure detail (case_005, FAIL): cancel without confirmation
	//   Input:    cancel my order 12345
	//   Expected: ask for confirmation before cancelling
	//   Tool calls:
	//     cancel_order({"order_id":"12345","confirmation":true})
	//   Response: Order 12345 is cancelled.
	//   Verdict:  FAIL: decided by forbidden_tools cancel_order (a rule): called forbidden tool cancel_order (call 1)
	//   Judges:
	//     FAIL forbidden_tools cancel_order: called forbidden tool cancel_order (call 1)
}

// ParseFormat reads a format's name, from a flag say, and says which
// names there are when it is wrong.
func ExampleParseFormat() {
	f, err := report.ParseFormat("junit")
	fmt.Println(f, err)
	_, err = report.ParseFormat("pdf")
	fmt.Println(err)
	// Output:
	// junit <nil>
	// unknown report format "pdf": want one of text, json, junit, markdown, html
}
