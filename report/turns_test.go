package report

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/gavelhq/gavel"
	"github.com/gavelhq/gavel/judge"
)

func TestSpeaker(t *testing.T) {
	tests := []struct {
		turn judge.Turn
		want string
	}{
		{judge.Turn{Role: judge.RoleAgent}, "agent"},
		{judge.Turn{Role: judge.RoleUser}, "user"},
		{judge.Turn{Role: judge.RoleUser, Origin: judge.OriginFollowUp}, "user (automatic follow-up)"},
		{judge.Turn{Role: judge.RoleUser, Origin: judge.OriginSimulated}, "user (simulated)"},
		{judge.Turn{Role: judge.RoleEvent}, "event"},
		{judge.Turn{Role: "robot\x1b[1m", Origin: "elsewhere"}, "robot[1m (elsewhere)"},
		{judge.Turn{Role: judge.RoleAgent, FinishReason: "stop"}, "agent"},
		{judge.Turn{Role: judge.RoleAgent, FinishReason: "tool_calls"}, "agent"},
		{judge.Turn{Role: judge.RoleAgent, FinishReason: "length"}, "agent (cut off by the token limit: finish_reason length)"},
		{judge.Turn{Role: judge.RoleAgent, FinishReason: "filtered"}, "agent (finish_reason filtered)"},
		{judge.Turn{Role: judge.RoleAgent, FinishReason: "pause\x1b[1m"}, "agent (finish_reason pause[1m)"},
	}
	for _, tc := range tests {
		if got := speaker(tc.turn); got != tc.want {
			t.Errorf("speaker(%+v) = %q, want %q", tc.turn, got, tc.want)
		}
	}
}

func TestCall(t *testing.T) {
	tests := []struct {
		name string
		args string
		want string
	}{
		{"get_order_status", `{"order_id": "12345"}`, `get_order_status({"order_id":"12345"})`},
		{"list", ``, `list()`},
		{"raw", "not json\nat all", `raw(not json at all)`},
		{"nested", "{\n  \"a\": [1, 2],\n  \"b\": {\"c\": null}\n}", `nested({"a":[1,2],"b":{"c":null}})`},
	}
	for _, tc := range tests {
		if got := call(judge.ToolCall{Name: tc.name, Arguments: json.RawMessage(tc.args)}); got != tc.want {
			t.Errorf("call(%s, %q) = %q, want %q", tc.name, tc.args, got, tc.want)
		}
	}
}

// A turn the model stopped writing abnormally says so in every
// turn-by-turn report, and a failed trial's partial reply shows its calls.
func TestTurnByTurnReportsShowAnAbnormalFinish(t *testing.T) {
	tr := transcript("where's my order?",
		judge.Turn{Role: judge.RoleAgent, Content: "Let me look", Round: 1, FinishReason: "length",
			ToolCalls: []judge.ToolCall{tool("get_order_status", `{"order_id":"12345"}`, `{"status":"shipped"}`, false)}})
	tr.Status, tr.Error = judge.ExecFailed, "round 1: the agent did not answer: builtin agent: the model's reply was cut off by the token limit (finish_reason length)"
	c := &gavel.Case{ID: "a", Script: prompts("where's my order?")}
	run := &gavel.Run{Cases: []gavel.CaseResult{{Case: c, Trials: []gavel.Trial{trial("a", 1, 100, tr,
		judge.Judgment{Name: "conversation", Status: judge.StatusError, Reasoning: "the conversation did not complete (FAILED)"})}}}}
	run.Cases[0].Summarize()
	for _, f := range []Format{Text, Markdown, HTML} {
		out := write(t, f, run, Options{Verbose: true})
		if !strings.Contains(out, "agent (cut off by the token limit: finish") { // Markdown escapes the _
			t.Errorf("%v report does not mark the cut turn:\n%s", f, out)
		}
		if !strings.Contains(out, "get_order_status") {
			t.Errorf("%v report does not show the call the failed trial made:\n%s", f, out)
		}
	}
}
