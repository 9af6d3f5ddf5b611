package llmtest_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/gavelhq/gavel/llm"
	"github.com/gavelhq/gavel/llm/llmtest"
)

var anthropicAuth = map[string]string{"x-api-key": "sk-ant-test", "anthropic-version": "2023-06-01"}

const anthropicHello = `{"model":"claude-test","max_tokens":100,"messages":[{"role":"user","content":"hello"}]}`

// toolUse is an assistant message calling a tool, as Anthropic's API
// carries it.
const toolUse = `{"role":"assistant","content":[{"type":"tool_use","id":"toolu_1","name":"get_weather","input":{"city":"Paris"}}]}`

const weatherTool = `"tools":[{"name":"get_weather","input_schema":{"type":"object","properties":{"city":{"type":"string"}}}}]`

func newAnthropic(t *testing.T, model llm.Model) *llmtest.AnthropicServer {
	t.Helper()
	s := llmtest.NewAnthropicServer(model)
	t.Cleanup(s.Close)
	return s
}

func TestAnthropicServerValidates(t *testing.T) {
	tests := []struct {
		name   string
		body   string
		wantIn string // a substring of error.message; "" wants a 200
	}{
		{"a plain request", anthropicHello, ""},
		{"a system prompt and blocks", `{"model":"m","max_tokens":10,"system":[{"type":"text","text":"be brief"}],"messages":[{"role":"user","content":[{"type":"text","text":"hi"}]}]}`, ""},
		{"a tool round trip", `{"model":"m","max_tokens":10,` + weatherTool + `,"messages":[{"role":"user","content":"weather?"},` + toolUse + `,{"role":"user","content":[{"type":"tool_result","tool_use_id":"toolu_1","content":"sunny"},{"type":"text","text":"and?"}]}]}`, ""},
		{"a forced tool", `{"model":"m","max_tokens":10,` + weatherTool + `,"tool_choice":{"type":"tool","name":"get_weather"},"messages":[{"role":"user","content":"hi"}]}`, ""},
		{"no model", `{"max_tokens":10,"messages":[{"role":"user","content":"hi"}]}`, "model: Field required"},
		{"no max_tokens", `{"model":"m","messages":[{"role":"user","content":"hi"}]}`, "max_tokens: Field required"},
		{"max_tokens 0", `{"model":"m","max_tokens":0,"messages":[{"role":"user","content":"hi"}]}`, "greater than or equal to 1"},
		{"no messages", `{"model":"m","max_tokens":10,"messages":[]}`, "at least one message is required"},
		{"a system message", `{"model":"m","max_tokens":10,"messages":[{"role":"system","content":"be brief"},{"role":"user","content":"hi"}]}`, `Unexpected role "system"`},
		{"an unknown role", `{"model":"m","max_tokens":10,"messages":[{"role":"tool","content":"hi"}]}`, "Input should be 'user' or 'assistant'"},
		{"an assistant first", `{"model":"m","max_tokens":10,"messages":[{"role":"assistant","content":"hi"},{"role":"user","content":"hi"}]}`, `first message must use the "user" role`},
		{"two user messages in a row", `{"model":"m","max_tokens":10,"messages":[{"role":"user","content":"hi"},{"role":"user","content":"hi"}]}`, "roles must alternate"},
		{"an empty message", `{"model":"m","max_tokens":10,"messages":[{"role":"user","content":""}]}`, "must have non-empty content"},
		{"an empty text block", `{"model":"m","max_tokens":10,"messages":[{"role":"user","content":[{"type":"text","text":""}]}]}`, "text content blocks must be non-empty"},
		{"a tool result answering nothing", `{"model":"m","max_tokens":10,"messages":[{"role":"user","content":"hi"},{"role":"assistant","content":"ok"},{"role":"user","content":[{"type":"tool_result","tool_use_id":"toolu_1","content":"sunny"}]}]}`, "unexpected `tool_use_id` found in `tool_result` blocks: toolu_1"},
		{"a tool result in an assistant message", `{"model":"m","max_tokens":10,"messages":[{"role":"user","content":"hi"},{"role":"assistant","content":[{"type":"tool_result","tool_use_id":"toolu_1"}]}]}`, "only allowed in user messages"},
		{"a tool result after text", `{"model":"m","max_tokens":10,` + weatherTool + `,"messages":[{"role":"user","content":"weather?"},` + toolUse + `,{"role":"user","content":[{"type":"text","text":"and?"},{"type":"tool_result","tool_use_id":"toolu_1","content":"sunny"}]}]}`, "must come before any other content"},
		{"an unanswered tool use", `{"model":"m","max_tokens":10,` + weatherTool + `,"messages":[{"role":"user","content":"weather?"},` + toolUse + `,{"role":"user","content":"well?"}]}`, "`tool_use` ids were found without `tool_result` blocks immediately after: toolu_1"},
		{"tool input not an object", `{"model":"m","max_tokens":10,"messages":[{"role":"user","content":"hi"},{"role":"assistant","content":[{"type":"tool_use","id":"t","name":"f","input":"x"}]}]}`, "Input should be a valid dictionary"},
		{"a tool without a name", `{"model":"m","max_tokens":10,"tools":[{"input_schema":{"type":"object"}}],"messages":[{"role":"user","content":"hi"}]}`, "tools.0.custom.name: Field required"},
		{"a tool without a schema", `{"model":"m","max_tokens":10,"tools":[{"name":"f"}],"messages":[{"role":"user","content":"hi"}]}`, "tools.0.custom.input_schema: Field required"},
		{"a schema of another type", `{"model":"m","max_tokens":10,"tools":[{"name":"f","input_schema":{"type":"string"}}],"messages":[{"role":"user","content":"hi"}]}`, "input_schema.type: Input should be 'object'"},
		{"a bad tool name", `{"model":"m","max_tokens":10,"tools":[{"name":"get weather","input_schema":{"type":"object"}}],"messages":[{"role":"user","content":"hi"}]}`, "String should match pattern"},
		{"a forced unknown tool", `{"model":"m","max_tokens":10,` + weatherTool + `,"tool_choice":{"type":"tool","name":"verdict"},"messages":[{"role":"user","content":"hi"}]}`, `tool "verdict" was not found`},
		{"temperature above 1", `{"model":"m","max_tokens":10,"temperature":1.5,"messages":[{"role":"user","content":"hi"}]}`, "less than or equal to 1"},
		{"streaming", `{"model":"m","max_tokens":10,"stream":true,"messages":[{"role":"user","content":"hi"}]}`, "does not stream"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s := newAnthropic(t, hello())
			got, err := post(t, t.Context(), s.URL+"/v1/messages", anthropicAuth, tc.body)
			if err != nil {
				t.Fatal(err)
			}
			if tc.wantIn == "" {
				if got.status != 200 {
					t.Errorf("status = %d, want 200; body %s", got.status, got.raw)
				}
				return
			}
			if got.status != 400 {
				t.Errorf("status = %d, want 400; body %s", got.status, got.raw)
			}
			checkAnthropicError(t, got, "invalid_request_error", tc.wantIn)
		})
	}
}

// checkAnthropicError checks an answer has Anthropic's error shape, of
// type typ, with a message containing wantIn.
func checkAnthropicError(t *testing.T, got answer, typ, wantIn string) {
	t.Helper()
	e, ok := got.body["error"].(map[string]any)
	if got.body["type"] != "error" || !ok {
		t.Fatalf("body %s is not Anthropic's error shape", got.raw)
	}
	if e["type"] != typ {
		t.Errorf("error.type = %v, want %s", e["type"], typ)
	}
	if msg, _ := e["message"].(string); !strings.Contains(msg, wantIn) {
		t.Errorf("error.message = %q, want it to contain %q", msg, wantIn)
	}
}

func TestAnthropicServerHeaders(t *testing.T) {
	tests := []struct {
		name       string
		header     map[string]string
		wantStatus int
		wantType   string
		wantIn     string
	}{
		{"no key", map[string]string{"anthropic-version": "2023-06-01"}, 401, "authentication_error", "x-api-key header is required"},
		{"the wrong key", map[string]string{"x-api-key": "sk-ant-other", "anthropic-version": "2023-06-01"}, 401, "authentication_error", "invalid x-api-key"},
		{"no version", map[string]string{"x-api-key": "sk-ant-right"}, 400, "invalid_request_error", "anthropic-version: header is required"},
		{"both right", map[string]string{"x-api-key": "sk-ant-right", "anthropic-version": "2023-06-01"}, 200, "", ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s := newAnthropic(t, hello())
			s.Key = "sk-ant-right"
			got, err := post(t, t.Context(), s.URL+"/v1/messages", tc.header, anthropicHello)
			if err != nil {
				t.Fatal(err)
			}
			if got.status != tc.wantStatus {
				t.Errorf("status = %d, want %d; body %s", got.status, tc.wantStatus, got.raw)
			}
			if tc.wantType != "" {
				checkAnthropicError(t, got, tc.wantType, tc.wantIn)
			}
		})
	}
}

func TestAnthropicServerFaults(t *testing.T) {
	s := newAnthropic(t, hello())
	s.FailNext(429, 2e9)
	s.FailNext(529, 0)
	for _, want := range []struct {
		status int
		typ    string
		retry  string
	}{{429, "rate_limit_error", "2"}, {529, "overloaded_error", ""}} {
		got, err := post(t, t.Context(), s.URL+"/v1/messages", anthropicAuth, anthropicHello)
		if err != nil {
			t.Fatal(err)
		}
		if got.status != want.status || got.header.Get("retry-after") != want.retry || got.header.Get("request-id") == "" {
			t.Errorf("status %d, retry-after %q, request-id %q; want %d, %q, an id", got.status, got.header.Get("retry-after"), got.header.Get("request-id"), want.status, want.retry)
		}
		checkAnthropicError(t, got, want.typ, "")
	}
	if got := s.RateLimited(); got != 1 {
		t.Errorf("RateLimited() = %d, want 1", got)
	}
}

func TestAnthropicServerAnswers(t *testing.T) {
	model := llm.Func(func(_ context.Context, req *llm.Request) (*llm.Response, error) {
		return &llm.Response{
			Text:         "Let me look.",
			ToolCalls:    []llm.ToolCall{{ID: "toolu_7", Name: "get_weather", Arguments: json.RawMessage(`{"city":"Paris"}`)}},
			FinishReason: llm.FinishToolCalls,
			Usage:        llm.Usage{InputTokens: 100, OutputTokens: 20, CachedTokens: 40},
		}, nil
	})
	s := newAnthropic(t, model)
	got, err := post(t, t.Context(), s.URL+"/v1/messages", anthropicAuth, anthropicHello)
	if err != nil {
		t.Fatal(err)
	}
	if got.header.Get("request-id") == "" {
		t.Errorf("no request-id header")
	}
	var m struct {
		ID         string          `json:"id"`
		Type       string          `json:"type"`
		Role       string          `json:"role"`
		Model      string          `json:"model"`
		Content    json.RawMessage `json:"content"`
		StopReason string          `json:"stop_reason"`
		Usage      map[string]any  `json:"usage"`
	}
	if err := json.Unmarshal([]byte(got.raw), &m); err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(m.ID, "msg_") || m.Type != "message" || m.Role != "assistant" || m.Model != "claude-test" || m.StopReason != "tool_use" {
		t.Errorf("id %q, type %q, role %q, model %q, stop_reason %q; want msg_…, message, assistant, claude-test, tool_use", m.ID, m.Type, m.Role, m.Model, m.StopReason)
	}
	wantContent := `[{"type":"text","text":"Let me look."},{"type":"tool_use","id":"toolu_7","name":"get_weather","input":{"city":"Paris"}}]`
	if string(m.Content) != wantContent {
		t.Errorf("content = %s, want %s", m.Content, wantContent)
	}
	// Anthropic counts cache reads apart from input_tokens.
	wantUsage := map[string]any{"input_tokens": 60.0, "output_tokens": 20.0, "cache_read_input_tokens": 40.0, "cache_creation_input_tokens": 0.0, "service_tier": "standard"}
	if diff := cmp.Diff(wantUsage, m.Usage); diff != "" {
		t.Errorf("usage (-want +got):\n%s", diff)
	}
}

func TestAnthropicServerAsksTheModel(t *testing.T) {
	model := &llmtest.Scripted{Rules: []llmtest.Rule{{Text: "ok"}}}
	s := newAnthropic(t, model)
	body := `{"model":"m","max_tokens":64,"temperature":0.5,"system":"be brief",` + weatherTool + `,"messages":[` +
		`{"role":"user","content":"weather?"},` + toolUse + `,` +
		`{"role":"user","content":[{"type":"tool_result","tool_use_id":"toolu_1","content":[{"type":"text","text":"no city"}],"is_error":true},{"type":"text","text":"and?"}]}]}`
	if got, err := post(t, t.Context(), s.URL+"/v1/messages", anthropicAuth, body); err != nil || got.status != 200 {
		t.Fatalf("status %d, %v; body %s", got.status, err, got.raw)
	}
	temp := 0.5
	want := &llm.Request{
		Model: "m",
		Messages: []llm.Message{
			{Role: llm.RoleSystem, Content: "be brief"},
			{Role: llm.RoleUser, Content: "weather?"},
			{Role: llm.RoleAssistant, ToolCalls: []llm.ToolCall{{ID: "toolu_1", Name: "get_weather", Arguments: json.RawMessage(`{"city":"Paris"}`)}}},
			{Role: llm.RoleTool, ToolCallID: "toolu_1", Content: "no city", IsError: true},
			{Role: llm.RoleUser, Content: "and?"},
		},
		Tools:       []llm.Tool{{Name: "get_weather", Parameters: json.RawMessage(`{"type":"object","properties":{"city":{"type":"string"}}}`)}},
		Temperature: &temp,
		MaxTokens:   64,
	}
	calls := model.Calls()
	if len(calls) != 1 {
		t.Fatalf("the model got %d requests, want 1", len(calls))
	}
	if diff := cmp.Diff(want, calls[0]); diff != "" {
		t.Errorf("the model's request (-want +got):\n%s", diff)
	}
}

func TestAnthropicServerForcedTool(t *testing.T) {
	tests := []struct {
		name        string
		text        string
		wantContent string
		wantStop    string
	}{
		{"a JSON answer is the tool's input", `{"verdict":"pass"}`, `[{"type":"tool_use","id":"toolu_fake_000001_1","name":"verdict","input":{"verdict":"pass"}}]`, "tool_use"},
		{"another answer stays text", `pass, I think`, `[{"type":"text","text":"pass, I think"}]`, "end_turn"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			model := &llmtest.Scripted{Rules: []llmtest.Rule{{Text: tc.text}}}
			s := newAnthropic(t, model)
			body := `{"model":"m","max_tokens":64,"tools":[{"name":"verdict","input_schema":{"type":"object"}}],"tool_choice":{"type":"tool","name":"verdict"},"messages":[{"role":"user","content":"judge"}]}`
			got, err := post(t, t.Context(), s.URL+"/v1/messages", anthropicAuth, body)
			if err != nil || got.status != 200 {
				t.Fatalf("status %d, %v; body %s", got.status, err, got.raw)
			}
			var m struct {
				Content    json.RawMessage `json:"content"`
				StopReason string          `json:"stop_reason"`
			}
			if err := json.Unmarshal([]byte(got.raw), &m); err != nil {
				t.Fatal(err)
			}
			if string(m.Content) != tc.wantContent || m.StopReason != tc.wantStop {
				t.Errorf("content %s, stop_reason %s; want %s, %s", m.Content, m.StopReason, tc.wantContent, tc.wantStop)
			}
			req := model.Calls()[0]
			wantSchema := &llm.Schema{Name: "verdict", Schema: json.RawMessage(`{"type":"object"}`)}
			if diff := cmp.Diff(wantSchema, req.ResponseSchema); diff != "" || len(req.Tools) != 0 {
				t.Errorf("the model got tools %v and schema (-want +got):\n%s", req.Tools, diff)
			}
		})
	}
}
