package anthropic

import (
	"encoding/json"
	"strings"
	"testing"

	sdk "github.com/anthropics/anthropic-sdk-go"
	"github.com/google/go-cmp/cmp"

	"github.com/gavelhq/gavel/llm"
)

func TestToResponse(t *testing.T) {
	verdict := &llm.Schema{Name: "verdict", Schema: json.RawMessage(`{"type":"object"}`)}
	tests := []struct {
		name   string
		body   string
		schema *llm.Schema
		want   *llm.Response
	}{
		{"text blocks are joined", `{"type":"message","model":"claude-x","content":[{"type":"text","text":"Hello, "},{"type":"text","text":"world."}],"stop_reason":"end_turn",
			"usage":{"input_tokens":10,"output_tokens":3,"cache_read_input_tokens":0,"cache_creation_input_tokens":0}}`, nil,
			&llm.Response{Text: "Hello, world.", FinishReason: llm.FinishStop, Model: "claude-x", Usage: llm.Usage{InputTokens: 10, OutputTokens: 3}}},
		{"the cache counts as input", `{"type":"message","content":[{"type":"text","text":"x"}],"stop_reason":"end_turn",
			"usage":{"input_tokens":50,"output_tokens":3,"cache_read_input_tokens":1000,"cache_creation_input_tokens":200}}`, nil,
			&llm.Response{Text: "x", FinishReason: llm.FinishStop, Usage: llm.Usage{InputTokens: 1250, OutputTokens: 3, CachedTokens: 1000}}},
		{"a stop sequence", `{"type":"message","content":[{"type":"text","text":"x"}],"stop_reason":"stop_sequence"}`, nil,
			&llm.Response{Text: "x", FinishReason: llm.FinishStop}},
		{"max tokens", `{"type":"message","content":[{"type":"text","text":"x"}],"stop_reason":"max_tokens"}`, nil,
			&llm.Response{Text: "x", FinishReason: llm.FinishLength}},
		{"a refusal", `{"type":"message","content":[],"stop_reason":"refusal"}`, nil,
			&llm.Response{FinishReason: llm.FinishFiltered}},
		{"an unknown stop reason", `{"type":"message","content":[],"stop_reason":"pause_turn"}`, nil,
			&llm.Response{FinishReason: "pause_turn"}},
		{"tool use", `{"type":"message","content":[{"type":"text","text":"Checking."},{"type":"tool_use","id":"toolu_1","name":"f","input":{"x":1}},{"type":"tool_use","id":"toolu_2","name":"g","input":{}}],"stop_reason":"tool_use"}`, nil,
			&llm.Response{Text: "Checking.", FinishReason: llm.FinishToolCalls, ToolCalls: []llm.ToolCall{
				{ID: "toolu_1", Name: "f", Arguments: json.RawMessage(`{"x":1}`)},
				{ID: "toolu_2", Name: "g", Arguments: json.RawMessage(`{}`)},
			}}},
		{"the forced tool is the answer", `{"type":"message","content":[{"type":"tool_use","id":"toolu_1","name":"verdict","input":{"verdict":"pass"}}],"stop_reason":"tool_use"}`, verdict,
			&llm.Response{Text: `{"verdict":"pass"}`, FinishReason: llm.FinishStop}},
		{"a cut forced tool", `{"type":"message","content":[{"type":"tool_use","id":"toolu_1","name":"verdict","input":{}}],"stop_reason":"max_tokens"}`, verdict,
			&llm.Response{Text: `{}`, FinishReason: llm.FinishLength}},
		{"text instead of the forced tool", `{"type":"message","content":[{"type":"text","text":"pass"}],"stop_reason":"end_turn"}`, verdict,
			&llm.Response{Text: "pass", FinishReason: llm.FinishStop}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var msg sdk.Message
			if err := json.Unmarshal([]byte(tc.body), &msg); err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tc.want, toResponse(&msg, tc.schema)); diff != "" {
				t.Errorf("response (-want +got):\n%s", diff)
			}
		})
	}
}

func TestResponseRefusesWhatIsNotAMessage(t *testing.T) {
	m := &Model{provider: "anthropic"}
	for _, body := range []string{`{"type":"mess`, `{"id":"x","choices":[]}`, `[]`} {
		_, err := m.response([]byte(body), nil)
		if err == nil || !strings.Contains(err.Error(), body) {
			t.Errorf("response(%s): error %v, want one quoting the body", body, err)
		}
	}
}
