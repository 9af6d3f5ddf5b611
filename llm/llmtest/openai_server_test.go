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

// weatherCall is a tool call as OpenAI's API carries it.
const weatherCall = `{"role":"assistant","content":null,"tool_calls":[{"id":"call_1","type":"function","function":{"name":"get_weather","arguments":"{\"city\":\"Paris\"}"}}]}`

func TestOpenAIServerValidates(t *testing.T) {
	tests := []struct {
		name   string
		body   string
		wantIn string // a substring of error.message; "" wants a 200
	}{
		{"a plain request", helloRequest, ""},
		{"content parts", `{"model":"m","messages":[{"role":"user","content":[{"type":"text","text":"hi"}]}]}`, ""},
		{"a tool round trip", `{"model":"m","messages":[{"role":"user","content":"weather?"},` + weatherCall + `,{"role":"tool","tool_call_id":"call_1","content":"sunny"}],"tools":[{"type":"function","function":{"name":"get_weather","parameters":{"type":"object","properties":{"city":{"type":"string"}}}}}]}`, ""},
		{"a strict schema", `{"model":"m","messages":[{"role":"user","content":"hi"}],"response_format":{"type":"json_schema","json_schema":{"name":"verdict","strict":true,"schema":{"type":"object","properties":{"ok":{"type":"boolean"}},"required":["ok"],"additionalProperties":false}}}}`, ""},
		{"no model", `{"messages":[{"role":"user","content":"hi"}]}`, "you must provide a model parameter"},
		{"no messages", `{"model":"m","messages":[]}`, "empty array"},
		{"an unknown role", `{"model":"m","messages":[{"role":"robot","content":"hi"}]}`, "Invalid value: 'robot'"},
		{"a tool message without tool_call_id", `{"model":"m","messages":[{"role":"user","content":"hi"},` + weatherCall + `,{"role":"tool","content":"sunny"}]}`, "Missing required parameter: 'messages.[2].tool_call_id'"},
		{"a tool message answering nothing", `{"model":"m","messages":[{"role":"user","content":"hi"},{"role":"tool","tool_call_id":"call_1","content":"sunny"}]}`, "must be a response to a preceeding message with 'tool_calls'"},
		{"a tool message answering another call", `{"model":"m","messages":[{"role":"user","content":"hi"},` + weatherCall + `,{"role":"tool","tool_call_id":"call_9","content":"sunny"}]}`, "must be a response to a preceeding message with 'tool_calls'"},
		{"an unanswered tool call", `{"model":"m","messages":[{"role":"user","content":"hi"},` + weatherCall + `,{"role":"user","content":"well?"}]}`, "did not have response messages: call_1"},
		{"a tool of another type", `{"model":"m","messages":[{"role":"user","content":"hi"}],"tools":[{"type":"retrieval"}]}`, "Invalid value: 'retrieval'"},
		{"parameters not an object", `{"model":"m","messages":[{"role":"user","content":"hi"}],"tools":[{"type":"function","function":{"name":"f","parameters":"none"}}]}`, "expected an object, but got a string"},
		{"parameters of another type", `{"model":"m","messages":[{"role":"user","content":"hi"}],"tools":[{"type":"function","function":{"name":"f","parameters":{"type":"array"}}}]}`, `schema must be a JSON Schema of 'type: "object"'`},
		{"a bad function name", `{"model":"m","messages":[{"role":"user","content":"hi"}],"tools":[{"type":"function","function":{"name":"get weather"}}]}`, "does not match pattern"},
		{"json_schema without json_schema", `{"model":"m","messages":[{"role":"user","content":"hi"}],"response_format":{"type":"json_schema"}}`, "Missing required parameter: 'response_format.json_schema'"},
		{"json_schema without a name", `{"model":"m","messages":[{"role":"user","content":"hi"}],"response_format":{"type":"json_schema","json_schema":{"schema":{"type":"object"}}}}`, "'response_format.json_schema.name'"},
		{"json_schema without a schema", `{"model":"m","messages":[{"role":"user","content":"hi"}],"response_format":{"type":"json_schema","json_schema":{"name":"v"}}}`, "'response_format.json_schema.schema'"},
		{"a strict schema allowing more properties", `{"model":"m","messages":[{"role":"user","content":"hi"}],"response_format":{"type":"json_schema","json_schema":{"name":"v","strict":true,"schema":{"type":"object","properties":{"ok":{"type":"boolean"}},"required":["ok"]}}}}`, "'additionalProperties' is required to be supplied and to be false"},
		{"a strict schema not requiring a property", `{"model":"m","messages":[{"role":"user","content":"hi"}],"response_format":{"type":"json_schema","json_schema":{"name":"v","strict":true,"schema":{"type":"object","properties":{"ok":{"type":"boolean"},"why":{"type":"string"}},"required":["ok"],"additionalProperties":false}}}}`, "Missing 'why'"},
		{"a strict schema with a loose nested object", `{"model":"m","messages":[{"role":"user","content":"hi"}],"response_format":{"type":"json_schema","json_schema":{"name":"v","strict":true,"schema":{"type":"object","properties":{"steps":{"type":"array","items":{"type":"object","properties":{"x":{"type":"string"}},"required":["x"]}}},"required":["steps"],"additionalProperties":false}}}}`, "In context=('properties', 'steps', 'items'), 'additionalProperties'"},
		{"an assistant message saying nothing", `{"model":"m","messages":[{"role":"user","content":"hi"},{"role":"assistant","content":null},{"role":"user","content":"hi"}]}`, "expected a string, got null"},
		{"streaming", `{"model":"m","stream":true,"messages":[{"role":"user","content":"hi"}]}`, "does not stream"},
		{"not JSON", `{"model":`, "could not parse the JSON body"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s := newOpenAI(t, hello())
			got, err := post(t, t.Context(), s.URL+"/chat/completions", openAIAuth, tc.body)
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
			checkOpenAIError(t, got, tc.wantIn)
		})
	}
}

// checkOpenAIError checks an answer has OpenAI's error shape and a message
// containing wantIn.
func checkOpenAIError(t *testing.T, got answer, wantIn string) {
	t.Helper()
	e, ok := got.body["error"].(map[string]any)
	if !ok {
		t.Fatalf("body %s has no error object", got.raw)
	}
	for _, key := range []string{"message", "type", "param", "code"} {
		if _, ok := e[key]; !ok {
			t.Errorf("error %s has no %q", got.raw, key)
		}
	}
	if msg, _ := e["message"].(string); !strings.Contains(msg, wantIn) {
		t.Errorf("error.message = %q, want it to contain %q", msg, wantIn)
	}
}

func TestOpenAIServerAuth(t *testing.T) {
	tests := []struct {
		name       string
		header     map[string]string
		wantStatus int
		wantIn     string
	}{
		{"no key", nil, 401, "You didn't provide an API key"},
		{"not bearer", map[string]string{"Authorization": "sk-test"}, 401, "You didn't provide an API key"},
		{"the wrong key", map[string]string{"Authorization": "Bearer sk-other-key"}, 401, "Incorrect API key provided"},
		{"the right key", map[string]string{"Authorization": "Bearer sk-right-key"}, 200, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s := newOpenAI(t, hello())
			s.Key = "sk-right-key"
			got, err := post(t, t.Context(), s.URL+"/chat/completions", tc.header, helloRequest)
			if err != nil {
				t.Fatal(err)
			}
			if got.status != tc.wantStatus {
				t.Errorf("status = %d, want %d; body %s", got.status, tc.wantStatus, got.raw)
			}
			if tc.wantIn != "" {
				checkOpenAIError(t, got, tc.wantIn)
			}
		})
	}
}

func TestOpenAIServerPaths(t *testing.T) {
	s := newOpenAI(t, hello())
	for path, want := range map[string]int{
		"/v1/chat/completions": 200,
		"/chat/completions":    200,
		"/v1/completions":      404,
	} {
		got, err := post(t, t.Context(), strings.TrimSuffix(s.URL, "/v1")+path, openAIAuth, helloRequest)
		if err != nil {
			t.Fatal(err)
		}
		if got.status != want {
			t.Errorf("POST %s: status %d, want %d", path, got.status, want)
		}
	}
}

func TestOpenAIServerAnswers(t *testing.T) {
	model := llm.Func(func(_ context.Context, req *llm.Request) (*llm.Response, error) {
		return &llm.Response{
			ToolCalls:    []llm.ToolCall{{ID: "call_7", Name: "get_weather", Arguments: json.RawMessage(`{"city":"Paris"}`)}},
			FinishReason: llm.FinishToolCalls,
			Usage:        llm.Usage{InputTokens: 100, OutputTokens: 20, CachedTokens: 40},
		}, nil
	})
	s := newOpenAI(t, model)
	got, err := post(t, t.Context(), s.URL+"/chat/completions", openAIAuth, helloRequest)
	if err != nil {
		t.Fatal(err)
	}
	if got.header.Get("x-request-id") == "" {
		t.Errorf("no x-request-id header")
	}
	var c struct {
		ID      string `json:"id"`
		Object  string `json:"object"`
		Created int64  `json:"created"`
		Model   string `json:"model"`
		Choices []struct {
			Index   int `json:"index"`
			Message struct {
				Role      string  `json:"role"`
				Content   *string `json:"content"`
				ToolCalls []struct {
					ID       string `json:"id"`
					Type     string `json:"type"`
					Function struct {
						Name      string `json:"name"`
						Arguments string `json:"arguments"`
					} `json:"function"`
				} `json:"tool_calls"`
			} `json:"message"`
			FinishReason string `json:"finish_reason"`
		} `json:"choices"`
		Usage struct {
			PromptTokens        int64 `json:"prompt_tokens"`
			CompletionTokens    int64 `json:"completion_tokens"`
			TotalTokens         int64 `json:"total_tokens"`
			PromptTokensDetails struct {
				CachedTokens int64 `json:"cached_tokens"`
			} `json:"prompt_tokens_details"`
		} `json:"usage"`
	}
	if err := json.Unmarshal([]byte(got.raw), &c); err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(c.ID, "chatcmpl-") || c.Object != "chat.completion" || c.Created == 0 || c.Model != "gpt-test" {
		t.Errorf("id %q, object %q, created %d, model %q; want chatcmpl-…, chat.completion, a time, gpt-test", c.ID, c.Object, c.Created, c.Model)
	}
	if len(c.Choices) != 1 {
		t.Fatalf("%d choices, want 1", len(c.Choices))
	}
	ch := c.Choices[0]
	if ch.Message.Role != "assistant" || ch.Message.Content != nil || ch.FinishReason != "tool_calls" {
		t.Errorf("role %q, content %v, finish %q; want assistant, null, tool_calls", ch.Message.Role, ch.Message.Content, ch.FinishReason)
	}
	if len(ch.Message.ToolCalls) != 1 {
		t.Fatalf("%d tool calls, want 1", len(ch.Message.ToolCalls))
	}
	call := ch.Message.ToolCalls[0]
	if call.ID != "call_7" || call.Type != "function" || call.Function.Name != "get_weather" || call.Function.Arguments != `{"city":"Paris"}` {
		t.Errorf("tool call %+v, want call_7, function get_weather with the arguments as a JSON string", call)
	}
	u := c.Usage
	if u.PromptTokens != 100 || u.CompletionTokens != 20 || u.TotalTokens != 120 || u.PromptTokensDetails.CachedTokens != 40 {
		t.Errorf("usage %+v, want 100 + 20 = 120, 40 cached", u)
	}
}

func TestOpenAIServerAsksTheModel(t *testing.T) {
	model := &llmtest.Scripted{Rules: []llmtest.Rule{{Text: "ok"}}}
	s := newOpenAI(t, model)
	body := `{"model":"m","temperature":0.5,"max_completion_tokens":64,"seed":7,"messages":[` +
		`{"role":"developer","content":"be brief"},{"role":"user","content":"weather?"},` + weatherCall + `,` +
		`{"role":"tool","tool_call_id":"call_1","content":"sunny"}],` +
		`"tools":[{"type":"function","function":{"name":"get_weather","description":"Weather of a city","parameters":{"type":"object"}}}],` +
		`"response_format":{"type":"json_schema","json_schema":{"name":"v","schema":{"type":"object"}}}}`
	if got, err := post(t, t.Context(), s.URL+"/chat/completions", openAIAuth, body); err != nil || got.status != 200 {
		t.Fatalf("status %d, %v; body %s", got.status, err, got.raw)
	}
	temp, seed := 0.5, int64(7)
	want := &llm.Request{
		Model: "m",
		Messages: []llm.Message{
			{Role: llm.RoleSystem, Content: "be brief"},
			{Role: llm.RoleUser, Content: "weather?"},
			{Role: llm.RoleAssistant, ToolCalls: []llm.ToolCall{{ID: "call_1", Name: "get_weather", Arguments: json.RawMessage(`{"city":"Paris"}`)}}},
			{Role: llm.RoleTool, ToolCallID: "call_1", Content: "sunny"},
		},
		Tools:          []llm.Tool{{Name: "get_weather", Description: "Weather of a city", Parameters: json.RawMessage(`{"type":"object"}`)}},
		Temperature:    &temp,
		MaxTokens:      64,
		Seed:           &seed,
		ResponseSchema: &llm.Schema{Name: "v", Schema: json.RawMessage(`{"type":"object"}`)},
	}
	calls := model.Calls()
	if len(calls) != 1 {
		t.Fatalf("the model got %d requests, want 1", len(calls))
	}
	if diff := cmp.Diff(want, calls[0]); diff != "" {
		t.Errorf("the model's request (-want +got):\n%s", diff)
	}
}

// A server with a Gateway answers under that path too, as an AI gateway
// does; any other path is a 404 that echoes it, as OpenAI's API answers.
func TestOpenAIServerGateway(t *testing.T) {
	s := newOpenAI(t, hello())
	s.Gateway = "/acct-1/v1"
	base := strings.TrimSuffix(s.URL, "/v1")
	for _, tc := range []struct {
		path       string
		wantStatus int
	}{
		{"/v1/chat/completions", 200},
		{"/acct-1/v1/chat/completions", 200},
		{"/acct-2/v1/chat/completions", 404},
		{"/v1/v1/chat/completions", 404},
	} {
		got, err := post(t, t.Context(), base+tc.path, openAIAuth, helloRequest)
		if err != nil {
			t.Fatal(err)
		}
		if got.status != tc.wantStatus || tc.wantStatus == 404 && !strings.Contains(got.raw, "Invalid URL (POST "+tc.path+")") {
			t.Errorf("POST %s: got %d %s, want %d", tc.path, got.status, got.raw, tc.wantStatus)
		}
	}
}
