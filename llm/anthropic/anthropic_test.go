package anthropic_test

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/gavelhq/gavel/llm"
	"github.com/gavelhq/gavel/llm/anthropic"
	"github.com/gavelhq/gavel/llm/llmtest"
)

// hangGuard bounds how long a test waits for a call that should end at
// once. It guards the run against a hang; it is no performance target.
const hangGuard = 30 * time.Second

// setup starts a fake Anthropic server answering from backing, and a
// Model talking to it.
func setup(t *testing.T, backing llm.Model) (*llmtest.AnthropicServer, *anthropic.Model) {
	t.Helper()
	s := llmtest.NewAnthropicServer(backing)
	t.Cleanup(s.Close)
	m, err := anthropic.New(anthropic.Config{APIKey: "sk-ant-test", BaseURL: s.URL, Model: "claude-test"})
	if err != nil {
		t.Fatal(err)
	}
	return s, m
}

func generate(t *testing.T, m llm.Model, req *llm.Request) (*llm.Response, error) {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), hangGuard)
	defer cancel()
	return m.Generate(ctx, req)
}

func ask(content string) *llm.Request {
	return &llm.Request{Messages: []llm.Message{{Role: llm.RoleUser, Content: content}}}
}

// body decodes the i-th request body the server received.
func body(t *testing.T, s *llmtest.AnthropicServer, i int) map[string]any {
	t.Helper()
	bodies := s.Bodies()
	if i >= len(bodies) {
		t.Fatalf("the server got %d requests, want at least %d", len(bodies), i+1)
	}
	var m map[string]any
	if err := json.Unmarshal(bodies[i], &m); err != nil {
		t.Fatal(err)
	}
	return m
}

// jsonOf decodes a JSON literal, for comparison with a decoded body.
func jsonOf(t *testing.T, s string) any {
	t.Helper()
	var v any
	if err := json.Unmarshal([]byte(s), &v); err != nil {
		t.Fatalf("%s: %v", s, err)
	}
	return v
}

func TestText(t *testing.T) {
	s, m := setup(t, &llmtest.Scripted{Rules: []llmtest.Rule{{Match: "France", Text: "Paris."}}})
	resp, err := generate(t, m, &llm.Request{Messages: []llm.Message{
		{Role: llm.RoleSystem, Content: "You are terse."},
		{Role: llm.RoleUser, Content: "Capital of France?"},
		{Role: llm.RoleSystem, Content: "Answer in one word."},
	}})
	if err != nil {
		t.Fatal(err)
	}
	if resp.Text != "Paris." || resp.FinishReason != llm.FinishStop || resp.Model != "claude-test" || len(resp.ToolCalls) != 0 {
		t.Errorf("got %q, %s, model %q, %d calls; want Paris., stop, claude-test, none", resp.Text, resp.FinishReason, resp.Model, len(resp.ToolCalls))
	}
	if resp.RequestID != "req_fake_000001" {
		t.Errorf("RequestID = %q, want the request-id header, req_fake_000001", resp.RequestID)
	}
	if resp.Latency <= 0 {
		t.Errorf("Latency = %v, want it measured", resp.Latency)
	}
	want := jsonOf(t, `{"model":"claude-test","max_tokens":4096,
		"system":[{"type":"text","text":"You are terse.\n\nAnswer in one word."}],
		"messages":[{"role":"user","content":[{"type":"text","text":"Capital of France?"}]}]}`)
	if diff := cmp.Diff(want, any(body(t, s, 0))); diff != "" {
		t.Errorf("request body (-want +got):\n%s", diff)
	}
}

var weatherTool = llm.Tool{
	Name:        "get_weather",
	Description: "The weather of a city.",
	Parameters:  json.RawMessage(`{"type":"object","properties":{"city":{"type":"string"}},"required":["city"]}`),
}

func lastIsTool(req *llm.Request) bool {
	return len(req.Messages) > 0 && req.Messages[len(req.Messages)-1].Role == llm.RoleTool
}

func TestToolCallRoundTrip(t *testing.T) {
	s, m := setup(t, &llmtest.Scripted{Rules: []llmtest.Rule{
		{When: lastIsTool, Text: "Sunny in Paris, rain in Oslo."},
		{Text: "Let me check.", ToolCalls: []llm.ToolCall{
			{ID: "toolu_1", Name: "get_weather", Arguments: json.RawMessage(`{"city":"Paris"}`)},
			{ID: "toolu_2", Name: "get_weather", Arguments: json.RawMessage(`{"city":"Oslo"}`)},
		}},
	}})
	req := &llm.Request{
		Messages: []llm.Message{{Role: llm.RoleUser, Content: "Weather in Paris and Oslo?"}},
		Tools:    []llm.Tool{weatherTool},
	}
	first, err := generate(t, m, req)
	if err != nil {
		t.Fatal(err)
	}
	wantCalls := []llm.ToolCall{
		{ID: "toolu_1", Name: "get_weather", Arguments: json.RawMessage(`{"city":"Paris"}`)},
		{ID: "toolu_2", Name: "get_weather", Arguments: json.RawMessage(`{"city":"Oslo"}`)},
	}
	if diff := cmp.Diff(wantCalls, first.ToolCalls); diff != "" || first.FinishReason != llm.FinishToolCalls || first.Text != "Let me check." {
		t.Errorf("text %q, finish %s, tool calls (-want +got):\n%s", first.Text, first.FinishReason, diff)
	}

	req.Messages = append(req.Messages,
		llm.Message{Role: llm.RoleAssistant, Content: first.Text, ToolCalls: first.ToolCalls},
		llm.Message{Role: llm.RoleTool, ToolCallID: "toolu_1", Content: "sunny"},
		llm.Message{Role: llm.RoleTool, ToolCallID: "toolu_2", Content: "no such city", IsError: true},
	)
	second, err := generate(t, m, req)
	if err != nil {
		t.Fatalf("the server refused the tool results: %v", err)
	}
	if second.Text != "Sunny in Paris, rain in Oslo." {
		t.Errorf("Text = %q, want the answer after the tools", second.Text)
	}

	got := body(t, s, 1)
	wantTools := jsonOf(t, `[{"name":"get_weather","description":"The weather of a city.","input_schema":{"type":"object","properties":{"city":{"type":"string"}},"required":["city"]}}]`)
	if diff := cmp.Diff(wantTools, got["tools"]); diff != "" {
		t.Errorf("tools (-want +got):\n%s", diff)
	}
	// Both results travel in one user message, right after the calls.
	wantMessages := jsonOf(t, `[
		{"role":"user","content":[{"type":"text","text":"Weather in Paris and Oslo?"}]},
		{"role":"assistant","content":[
			{"type":"text","text":"Let me check."},
			{"type":"tool_use","id":"toolu_1","name":"get_weather","input":{"city":"Paris"}},
			{"type":"tool_use","id":"toolu_2","name":"get_weather","input":{"city":"Oslo"}}]},
		{"role":"user","content":[
			{"type":"tool_result","tool_use_id":"toolu_1","content":[{"type":"text","text":"sunny"}]},
			{"type":"tool_result","tool_use_id":"toolu_2","content":[{"type":"text","text":"no such city"}],"is_error":true}]}]`)
	if diff := cmp.Diff(wantMessages, got["messages"]); diff != "" {
		t.Errorf("messages (-want +got):\n%s", diff)
	}
}

func TestRolesAlternate(t *testing.T) {
	call := llm.ToolCall{ID: "toolu_1", Name: "get_weather", Arguments: json.RawMessage(`{"city":"Paris"}`)}
	tests := []struct {
		name     string
		messages []llm.Message
		want     string
	}{
		{"consecutive user messages merge", []llm.Message{
			{Role: llm.RoleUser, Content: "Hello."},
			{Role: llm.RoleUser, Content: "Anyone there?"},
		}, `[{"role":"user","content":[{"type":"text","text":"Hello."},{"type":"text","text":"Anyone there?"}]}]`},
		{"a user message after tool results joins them, after them", []llm.Message{
			{Role: llm.RoleUser, Content: "Weather?"},
			{Role: llm.RoleAssistant, ToolCalls: []llm.ToolCall{call}},
			{Role: llm.RoleTool, ToolCallID: "toolu_1", Content: "sunny"},
			{Role: llm.RoleUser, Content: "Thanks."},
		}, `[{"role":"user","content":[{"type":"text","text":"Weather?"}]},
			{"role":"assistant","content":[{"type":"tool_use","id":"toolu_1","name":"get_weather","input":{"city":"Paris"}}]},
			{"role":"user","content":[{"type":"tool_result","tool_use_id":"toolu_1","content":[{"type":"text","text":"sunny"}]},{"type":"text","text":"Thanks."}]}]`},
		{"empty messages are left out", []llm.Message{
			{Role: llm.RoleUser, Content: "Hi."},
			{Role: llm.RoleAssistant, Content: ""},
			{Role: llm.RoleUser, Content: "Hello?"},
		}, `[{"role":"user","content":[{"type":"text","text":"Hi."},{"type":"text","text":"Hello?"}]}]`},
		{"an empty tool result has no content", []llm.Message{
			{Role: llm.RoleUser, Content: "Weather?"},
			{Role: llm.RoleAssistant, ToolCalls: []llm.ToolCall{call}},
			{Role: llm.RoleTool, ToolCallID: "toolu_1"},
		}, `[{"role":"user","content":[{"type":"text","text":"Weather?"}]},
			{"role":"assistant","content":[{"type":"tool_use","id":"toolu_1","name":"get_weather","input":{"city":"Paris"}}]},
			{"role":"user","content":[{"type":"tool_result","tool_use_id":"toolu_1"}]}]`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s, m := setup(t, &llmtest.Scripted{Rules: []llmtest.Rule{{Text: "ok"}}})
			if _, err := generate(t, m, &llm.Request{Messages: tc.messages, Tools: []llm.Tool{weatherTool}}); err != nil {
				t.Fatalf("the server refused the request: %v", err)
			}
			if diff := cmp.Diff(jsonOf(t, tc.want), body(t, s, 0)["messages"]); diff != "" {
				t.Errorf("messages (-want +got):\n%s", diff)
			}
		})
	}
}

func TestStructuredOutput(t *testing.T) {
	schema := json.RawMessage(`{"type":"object","properties":{"verdict":{"type":"string","enum":["pass","fail"]}},"required":["verdict"]}`)
	tests := []struct {
		name      string
		tools     []llm.Tool
		wantTools string
	}{
		{"alone", nil, `[{"name":"verdict","description":"Give your answer by calling this tool: its input is the answer, a JSON object matching the schema.","input_schema":` + string(schema) + `}]`},
		{"beside a tool", []llm.Tool{{Name: "now", Parameters: json.RawMessage(`{"type":"object"}`)}},
			`[{"name":"now","input_schema":{"type":"object"}},{"name":"verdict","description":"Give your answer by calling this tool: its input is the answer, a JSON object matching the schema.","input_schema":` + string(schema) + `}]`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s, m := setup(t, &llmtest.Scripted{Rules: []llmtest.Rule{{Text: `{"verdict":"pass"}`}}})
			resp, err := generate(t, m, &llm.Request{
				Messages:       []llm.Message{{Role: llm.RoleUser, Content: "Did the agent book the flight?"}},
				Tools:          tc.tools,
				ResponseSchema: &llm.Schema{Name: "verdict", Schema: schema, Strict: true},
			})
			if err != nil {
				t.Fatal(err)
			}
			if resp.Text != `{"verdict":"pass"}` || resp.FinishReason != llm.FinishStop || len(resp.ToolCalls) != 0 {
				t.Errorf("got %q, %s, calls %v; want the JSON as text, stop, no calls", resp.Text, resp.FinishReason, resp.ToolCalls)
			}
			got := body(t, s, 0)
			if diff := cmp.Diff(jsonOf(t, tc.wantTools), got["tools"]); diff != "" {
				t.Errorf("tools (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(jsonOf(t, `{"type":"tool","name":"verdict"}`), got["tool_choice"]); diff != "" {
				t.Errorf("tool_choice (-want +got):\n%s", diff)
			}
		})
	}
}

func TestStructuredOutputIgnored(t *testing.T) {
	// A model that answers text instead of the forced tool (the fake does so
	// for text that is not JSON) still gives a response: the text.
	_, m := setup(t, &llmtest.Scripted{Rules: []llmtest.Rule{{Text: "pass, I think"}}})
	resp, err := generate(t, m, &llm.Request{
		Messages:       []llm.Message{{Role: llm.RoleUser, Content: "Verdict?"}},
		ResponseSchema: &llm.Schema{Name: "verdict", Schema: json.RawMessage(`{"type":"object"}`)},
	})
	if err != nil {
		t.Fatal(err)
	}
	if resp.Text != "pass, I think" || resp.FinishReason != llm.FinishStop {
		t.Errorf("got %q, %s; want the text, stop", resp.Text, resp.FinishReason)
	}
}

func TestRequestShape(t *testing.T) {
	temp, seed := 0.2, int64(42)
	tests := []struct {
		name string
		req  *llm.Request
		want string // the fields wanted, besides model, messages and system
	}{
		{"defaults", &llm.Request{}, `{"max_tokens":4096}`},
		{"sampling, without the seed Anthropic lacks", &llm.Request{Temperature: &temp, MaxTokens: 256, Seed: &seed}, `{"max_tokens":256,"temperature":0.2}`},
		{"a tool without parameters", &llm.Request{Tools: []llm.Tool{{Name: "now"}}}, `{"max_tokens":4096,"tools":[{"name":"now","input_schema":{"type":"object","properties":{}}}]}`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s, m := setup(t, &llmtest.Scripted{Rules: []llmtest.Rule{{Text: "ok"}}})
			tc.req.Messages = []llm.Message{{Role: llm.RoleUser, Content: "hi"}}
			if _, err := generate(t, m, tc.req); err != nil {
				t.Fatalf("the server refused the request: %v", err)
			}
			got := body(t, s, 0)
			delete(got, "model")
			delete(got, "messages")
			if diff := cmp.Diff(jsonOf(t, tc.want), any(got)); diff != "" {
				t.Errorf("request fields (-want +got):\n%s", diff)
			}
		})
	}
}

func TestUsage(t *testing.T) {
	_, m := setup(t, llm.Func(func(context.Context, *llm.Request) (*llm.Response, error) {
		return &llm.Response{Text: "ok", Usage: llm.Usage{InputTokens: 1200, OutputTokens: 30, CachedTokens: 1024}}, nil
	}))
	resp, err := generate(t, m, ask("hi"))
	if err != nil {
		t.Fatal(err)
	}
	// On the wire: input_tokens 176, cache_read_input_tokens 1024.
	want := llm.Usage{InputTokens: 1200, OutputTokens: 30, CachedTokens: 1024}
	if resp.Usage != want {
		t.Errorf("Usage = %+v, want %+v", resp.Usage, want)
	}
}

func TestFinishReasons(t *testing.T) {
	for _, reason := range []llm.FinishReason{llm.FinishStop, llm.FinishLength, llm.FinishFiltered} {
		t.Run(string(reason), func(t *testing.T) {
			_, m := setup(t, llm.Func(func(context.Context, *llm.Request) (*llm.Response, error) {
				return &llm.Response{Text: "…", FinishReason: reason}, nil
			}))
			resp, err := generate(t, m, ask("hi"))
			if err != nil {
				t.Fatal(err)
			}
			if resp.FinishReason != reason {
				t.Errorf("FinishReason = %s, want %s", resp.FinishReason, reason)
			}
		})
	}
}

func TestAPIErrors(t *testing.T) {
	hot := 1.5
	tests := []struct {
		name       string
		inject     func(*llmtest.AnthropicServer)
		req        *llm.Request
		wantStatus int
		wantRetry  time.Duration
		wantIn     string // a substring of Message
	}{
		{"a rate limit", func(s *llmtest.AnthropicServer) { s.FailNext(429, 2*time.Second) }, ask("hi"), 429, 2 * time.Second, "rate limit"},
		{"overloaded", func(s *llmtest.AnthropicServer) { s.FailNext(529, 0) }, ask("hi"), 529, 0, "Overloaded"},
		{"a bad key", func(s *llmtest.AnthropicServer) { s.Key = "sk-ant-other" }, ask("hi"), 401, 0, "invalid x-api-key"},
		{"a bad request", func(*llmtest.AnthropicServer) {}, &llm.Request{Messages: []llm.Message{{Role: llm.RoleUser, Content: "hi"}}, Temperature: &hot}, 400, 0, "temperature"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s, m := setup(t, &llmtest.Scripted{Rules: []llmtest.Rule{{Text: "ok"}}})
			tc.inject(s)
			_, err := generate(t, m, tc.req)
			var api *llm.APIError
			if !errors.As(err, &api) {
				t.Fatalf("error = %v, want an *llm.APIError", err)
			}
			if api.Provider != "anthropic" || api.StatusCode != tc.wantStatus || api.RetryAfter != tc.wantRetry {
				t.Errorf("got %s %d, RetryAfter %v; want anthropic %d, %v", api.Provider, api.StatusCode, api.RetryAfter, tc.wantStatus, tc.wantRetry)
			}
			if !strings.Contains(api.Message, tc.wantIn) {
				t.Errorf("Message = %q, want it to contain %q", api.Message, tc.wantIn)
			}
			if !strings.HasPrefix(api.RequestID, "req_fake_") {
				t.Errorf("RequestID = %q, want the request-id header", api.RequestID)
			}
			if api.Body == "" || len(api.Body) > 500 {
				t.Errorf("Body = %q, want an excerpt of at most 500 bytes", api.Body)
			}
			if got := s.Requests(); got != 1 {
				t.Errorf("the server got %d requests, want 1: the SDK must not retry", got)
			}
		})
	}
}

func TestConformance(t *testing.T) {
	llmtest.TestProvider(t, func(t *testing.T, backend llm.Model) (llm.Model, *llmtest.Fake) {
		s, m := setup(t, backend)
		return m, &s.Fake
	})
}

// Anthropic answers 529 when it is overloaded: a server error, retried.
func TestOverloadedIsRetried(t *testing.T) {
	s, m := setup(t, &llmtest.Scripted{Rules: []llmtest.Rule{{Text: "ok"}}})
	s.FailNext(529, 0)
	resp, err := generate(t, llm.Retry(llm.RetryConfig{BaseDelay: time.Millisecond})(m), ask("hi"))
	if err != nil || resp.Text != "ok" || s.Requests() != 2 {
		t.Fatalf("got %v, %v after %d requests; want ok after a retry", resp, err, s.Requests())
	}
}

func TestLocalErrors(t *testing.T) {
	tests := []struct {
		name   string
		config anthropic.Config
		req    *llm.Request
		wantIn string
	}{
		{"no model", anthropic.Config{}, ask("hi"), "no model"},
		{"an unknown role", anthropic.Config{Model: "m"}, &llm.Request{Messages: []llm.Message{{Role: "robot", Content: "hi"}}}, `unknown role "robot"`},
		{"arguments not an object", anthropic.Config{Model: "m"}, &llm.Request{Messages: []llm.Message{
			{Role: llm.RoleUser, Content: "hi"},
			{Role: llm.RoleAssistant, ToolCalls: []llm.ToolCall{{ID: "t1", Name: "f", Arguments: json.RawMessage(`"{\"x\":"`)}}},
		}}, "arguments are not a JSON object"},
		{"parameters not an object", anthropic.Config{Model: "m"}, &llm.Request{Messages: []llm.Message{{Role: llm.RoleUser, Content: "hi"}}, Tools: []llm.Tool{{Name: "f", Parameters: json.RawMessage(`[1]`)}}}, `tool "f": parameters`},
		{"a schema not an object", anthropic.Config{Model: "m"}, &llm.Request{Messages: []llm.Message{{Role: llm.RoleUser, Content: "hi"}}, ResponseSchema: &llm.Schema{Name: "v", Schema: json.RawMessage(`"x"`)}}, `response schema "v" is not a JSON object`},
		{"a schema named like a tool", anthropic.Config{Model: "m"}, &llm.Request{Messages: []llm.Message{{Role: llm.RoleUser, Content: "hi"}}, Tools: []llm.Tool{weatherTool}, ResponseSchema: &llm.Schema{Name: "get_weather", Schema: json.RawMessage(`{"type":"object"}`)}}, "has the name of a tool"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s := llmtest.NewAnthropicServer(&llmtest.Scripted{})
			defer s.Close()
			tc.config.BaseURL, tc.config.APIKey = s.URL, "sk-ant-test"
			m, err := anthropic.New(tc.config)
			if err != nil {
				t.Fatal(err)
			}
			_, err = generate(t, m, tc.req)
			if err == nil || !strings.Contains(err.Error(), tc.wantIn) {
				t.Errorf("error = %v, want one containing %q", err, tc.wantIn)
			}
			if s.Requests() != 0 {
				t.Errorf("the server got %d requests, want none", s.Requests())
			}
		})
	}
}

func TestNewRefusesABadBaseURL(t *testing.T) {
	for _, base := range []string{"localhost:8080", "ftp://example.com", "http://"} {
		if _, err := anthropic.New(anthropic.Config{BaseURL: base}); err == nil {
			t.Errorf("New with base URL %q: no error, want one", base)
		}
	}
}
