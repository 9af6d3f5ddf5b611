package report

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/gavelhq/gavel"
	"github.com/gavelhq/gavel/judge"
)

// repliesRun is a run of three cases whose agent said what is given: a
// reply and tool calls per case.
func repliesRun(replies map[string]string, calls map[string][]judge.ToolCall) *gavel.Run {
	run := &gavel.Run{Suite: &gavel.Suite{Name: "desk"}}
	for _, id := range []string{"lookup", "cancel", "hello"} {
		tr := transcript("help with "+id, judge.Turn{Role: judge.RoleAgent, Content: replies[id], Round: 1, ToolCalls: calls[id]})
		cr := gavel.CaseResult{Case: &gavel.Case{ID: id, Name: "The " + id + " case"},
			Trials: []gavel.Trial{trial(id, 1, 10, tr, judge.Judgment{Name: "ok", Status: judge.StatusPass})}}
		cr.Summarize()
		run.Cases = append(run.Cases, cr)
	}
	return run
}

func toolCall(name, args string) judge.ToolCall {
	return judge.ToolCall{Name: name, Arguments: json.RawMessage(args)}
}

// The comparison sets the two runs' replies side by side: a word diff of
// the replies and a line diff of the tool calls, for the cases that
// differ, or every case with AllReplies; and the pairwise tally.
func TestComparisonReplies(t *testing.T) {
	base := repliesRun(map[string]string{
		"lookup": "Order 12345 arrives on 2026-03-15.",
		"cancel": "Done: order 12345 is cancelled.",
		"hello":  "Hello!",
	}, map[string][]judge.ToolCall{
		"lookup": {toolCall("get_order_status", `{"order_id": "12345"}`)},
		"cancel": {toolCall("get_order_status", `{"order_id":"12345"}`), toolCall("cancel_order", `{"order_id":"12345"}`)},
	})
	head := repliesRun(map[string]string{
		"lookup": "Order 12345 arrives on Monday, 2026-03-16.",
		"cancel": "Done: order 12345 is cancelled.",
		"hello":  "Hello!",
	}, map[string][]judge.ToolCall{
		"lookup": {toolCall("get_order_status", `{"order_id":"12345"}`)},
		"cancel": {toolCall("get_order_status", `{"order_id":"12345"}`), toolCall("confirm", `{}`)},
	})
	c := gavel.Compare(base, head)
	c.Replies = gavel.Replies(base, head)
	c.Replies[0].Pairwise = &gavel.PairwiseVerdict{Winner: gavel.PreferHead, Reasoning: "head wins in both orders\nmore"}
	c.Replies[1].Pairwise = &gavel.PairwiseVerdict{Winner: gavel.PreferNeither, Reasoning: "a tie: the orders disagree"}
	c.Replies[2].Pairwise = &gavel.PairwiseVerdict{Winner: gavel.PreferNeither, Reasoning: "identical replies"}
	c.Pairwise = &gavel.PairwiseTally{Criteria: "Which reply is more helpful?", Model: "script:judge.yaml"}
	c.TallyPairwise()

	for _, tc := range []struct {
		name string
		opts ComparisonOptions
		want string
	}{
		{"changed cases", ComparisonOptions{BaseLabel: "A", HeadLabel: "B"}, `
Replies (A -> B): 2 of 3 cases in both runs differ (--all-replies shows every case)

lookup The lookup case (trial 1 -> trial 1)
  reply: Order 12345 arrives on [-2026-03-15.-]{+Monday, 2026-03-16.+}
  tool calls: the same 1
  pairwise: B is better (head wins in both orders)

cancel The cancel case (trial 1 -> trial 1)
  reply: (same) Done: order 12345 is cancelled.
  tool calls:
      get_order_status({"order_id":"12345"})
    - cancel_order({"order_id":"12345"})
    + confirm({})
  pairwise: a tie (a tie: the orders disagree)
`},
		{"all cases", ComparisonOptions{BaseLabel: "A", HeadLabel: "B", AllReplies: true}, `
hello The hello case (trial 1 -> trial 1)
  reply: (same) Hello!
  tool calls: none in either
  pairwise: a tie (identical replies)
`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var b bytes.Buffer
			if err := WriteComparison(&b, Text, c, tc.opts); err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(b.String(), tc.want) {
				t.Errorf("the text comparison lacks\n%s\ngot:\n%s", tc.want, b.String())
			}
			if want := "Pairwise:  A wins 0, B wins 1, ties 2 (Which reply is more helpful?, by script:judge.yaml)\n"; !strings.Contains(b.String(), want) {
				t.Errorf("the text comparison lacks the tally %q:\n%s", want, b.String())
			}
		})
	}

	for _, tc := range []struct {
		format Format
		want   []string
	}{
		{Markdown, []string{"Pairwise (Which reply is more helpful?): A wins 0, B wins 1, ties 2",
			"```diff\n- Order 12345 arrives on 2026-03-15.\n+ Order 12345 arrives on Monday, 2026-03-16.\n    get_order_status({\"order_id\":\"12345\"})\n```",
			"-   cancel_order({\"order_id\":\"12345\"})\n+   confirm({})\n"}},
		{HTML, []string{"<td>Order 12345 arrives on <del>2026-03-15.</del></td>", "<td>Order 12345 arrives on <ins>Monday, 2026-03-16.</ins></td>",
			"<del><code>cancel_order({&#34;order_id&#34;:&#34;12345&#34;})</code></del>", "<ins><code>confirm({})</code></ins>", "· B is better</h3>"}},
	} {
		var b bytes.Buffer
		if err := WriteComparison(&b, tc.format, c, ComparisonOptions{BaseLabel: "A", HeadLabel: "B"}); err != nil {
			t.Fatal(err)
		}
		for _, w := range tc.want {
			if !strings.Contains(b.String(), w) {
				t.Errorf("the %s comparison lacks %q:\n%s", tc.format, w, b.String())
			}
		}
	}

	var b bytes.Buffer
	if err := WriteComparison(&b, JSON, c, ComparisonOptions{}); err != nil {
		t.Fatal(err)
	}
	var got JSONComparison
	if err := json.Unmarshal(b.Bytes(), &got); err != nil {
		t.Fatal(err)
	}
	want := []JSONReplyPair{
		{ID: "lookup", Name: "The lookup case", Differs: true,
			Base:     &JSONReply{Trial: 1, Replies: []string{"Order 12345 arrives on 2026-03-15."}, ToolCalls: []string{`get_order_status({"order_id":"12345"})`}},
			Head:     &JSONReply{Trial: 1, Replies: []string{"Order 12345 arrives on Monday, 2026-03-16."}, ToolCalls: []string{`get_order_status({"order_id":"12345"})`}},
			Pairwise: &JSONPairwiseVerdict{Winner: "head", Reasoning: "head wins in both orders\nmore"}},
		{ID: "cancel", Name: "The cancel case", Differs: true,
			Base:     &JSONReply{Trial: 1, Replies: []string{"Done: order 12345 is cancelled."}, ToolCalls: []string{`get_order_status({"order_id":"12345"})`, `cancel_order({"order_id":"12345"})`}},
			Head:     &JSONReply{Trial: 1, Replies: []string{"Done: order 12345 is cancelled."}, ToolCalls: []string{`get_order_status({"order_id":"12345"})`, `confirm({})`}},
			Pairwise: &JSONPairwiseVerdict{Winner: "tie", Reasoning: "a tie: the orders disagree"}},
	}
	if d := cmp.Diff(want, got.Replies); d != "" {
		t.Errorf("JSON replies (-want +got):\n%s", d)
	}
	if p := got.Pairwise; p == nil || p.Base != 0 || p.Head != 1 || p.Ties != 2 || p.Errors != 0 {
		t.Errorf("JSON pairwise tally: %+v, want B 1, ties 2", p)
	}
}
