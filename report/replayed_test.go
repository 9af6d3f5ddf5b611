package report

import (
	"strings"
	"testing"

	"github.com/gavelhq/gavel"
	"github.com/gavelhq/gavel/judge"
)

// A run that replayed a recorded run's tool results says how many of its
// calls were replayed and refused, and marks each in the case's calls.
func TestReplayedToolCalls(t *testing.T) {
	c := &gavel.Case{ID: "cancel", Script: prompts("cancel order 12345")}
	replayed := tool("get_order_status", `{"order_id":"12345"}`, `{"status":"shipped"}`, false)
	replayed.Replayed = judge.ReplayRecorded
	refused := tool("cancel_order", `{"order_id":"12345"}`, "not in the recorded run r1", true)
	refused.Replayed = judge.ReplayUnmatched
	live := tool("notify", `{}`, "sent", false)
	run := &gavel.Run{
		Suite: &gavel.Suite{Name: "desk", Threshold: 1, Cases: []*gavel.Case{c}},
		Cases: []gavel.CaseResult{{Case: c, Outcome: gavel.Failed, Trials: []gavel.Trial{
			trial("cancel", 1, 10, transcript("cancel order 12345", agentTurn(1, "I could not cancel it.", replayed, refused, live)), policyFailure()),
		}}},
		Started: start,
	}
	out := write(t, Text, run, Options{Verbose: true})
	for _, want := range []string{
		"Tool calls replayed from the recorded run: 1 of 3 (1 not in it, refused)\n",
		`get_order_status({"order_id":"12345"})  [replayed]`,
		`cancel_order({"order_id":"12345"})  [not in the recorded run]  [failed: not in the recorded run r1]`,
	} {
		if !strings.Contains(out, want) {
			t.Errorf("the report lacks %q:\n%s", want, out)
		}
	}
	md := write(t, Markdown, run, Options{Verbose: true})
	for _, want := range []string{
		"🔁 Tool calls replayed from the recorded run: 1 of 3 (1 not in it, refused)\n",
		"`get_order_status({\"order_id\":\"12345\"})` (replayed)",
		"`cancel_order({\"order_id\":\"12345\"})` (not in the recorded run) — failed",
	} {
		if !strings.Contains(md, want) {
			t.Errorf("the Markdown report lacks %q:\n%s", want, md)
		}
	}
	page := write(t, HTML, run, Options{Verbose: true})
	for _, want := range []string{
		"<p>Tool calls replayed from the recorded run: 1 of 3 (1 not in it, refused)</p>",
		"<em>replayed</em>",
		"<em>not in the recorded run</em> <strong>failed</strong>",
	} {
		if !strings.Contains(page, want) {
			t.Errorf("the HTML report lacks %q", want)
		}
	}
	if strings.Contains(write(t, Text, incompleteRun(), Options{}), "replayed") {
		t.Error("a run without replayed calls speaks of them")
	}
}
