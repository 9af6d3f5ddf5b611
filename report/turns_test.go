package report

import (
	"encoding/json"
	"testing"

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
