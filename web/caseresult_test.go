package web

import (
	"encoding/json"
	"testing"

	"github.com/gavelhq/gavel/judge"
)

func TestCallView(t *testing.T) {
	tests := []struct {
		args              string
		summary, indented string
	}{
		{`{"order_id": "12345"}`, `{"order_id":"12345"}`, "{\n  \"order_id\": \"12345\"\n}"},
		{`{"q":"\u003cb\u003e \u0026 \\u003c"}`, `{"q":"<b> & \\u003c"}`, "{\n  \"q\": \"<b> & \\\\u003c\"\n}"},
		{`not json`, `not json`, `not json`},
		{``, ``, ``},
	}
	for _, tt := range tests {
		v := newCallView(judge.ToolCall{Name: "search", Arguments: json.RawMessage(tt.args)})
		if v.Summary != tt.summary || v.Arguments != tt.indented {
			t.Errorf("arguments %s: summary %q, indented %q; want %q, %q", tt.args, v.Summary, v.Arguments, tt.summary, tt.indented)
		}
	}
}
