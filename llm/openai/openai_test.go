package openai_test

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/gavelhq/gavel/llm"
	"github.com/gavelhq/gavel/llm/llmtest"
	"github.com/gavelhq/gavel/llm/openai"
)

// hangGuard bounds how long a test waits for a call that should end at
// once. It guards the run against a hang; it is no performance target.
const hangGuard = 30 * time.Second

// setup starts a fake OpenAI server answering from backing, and a Model
// talking to it.
func setup(t *testing.T, backing llm.Model) (*llmtest.OpenAIServer, *openai.Model) {
	t.Helper()
	s := llmtest.NewOpenAIServer(backing)
	t.Cleanup(s.Close)
	m, err := openai.New(openai.Config{APIKey: "sk-test", BaseURL: s.URL, Model: "gpt-test"})
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
func body(t *testing.T, s *llmtest.OpenAIServer, i int) map[string]any {
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
		{Role: llm.RoleSystem, Content: "Answer in one word."},
		{Role: llm.RoleUser, Content: "Capital of France?"},
	}})
	if err != nil {
		t.Fatal(err)
	}
	if resp.Text != "Paris." || resp.FinishReason != llm.FinishStop || resp.Model != "gpt-test" || len(resp.ToolCalls) != 0 {
		t.Errorf("got %q, %s, model %q, %d calls; want Paris., stop, gpt-test, none", resp.Text, resp.FinishReason, resp.Model, len(resp.ToolCalls))
	}
	if resp.RequestID != "req_fake_000001" {
		t.Errorf("RequestID = %q, want the x-request-id header, req_fake_000001", resp.RequestID)
	}
	if resp.Latency <= 0 {
		t.Errorf("Latency = %v, want it measured", resp.Latency)
	}
	want := jsonOf(t, `{"model":"gpt-test","messages":[{"role":"system","content":"Answer in one word."},{"role":"user","content":"Capital of France?"}]}`)
	if diff := cmp.Diff(want, any(body(t, s, 0))); diff != "" {
		t.Errorf("request body (-want +got):\n%s", diff)
	}
}

var weatherTool = llm.Tool{
	Name:        "get_weather",
	Description: "The weather of a city.",
	Parameters:  json.RawMessage(`{"type":"object","properties":{"city":{"type":"string"}},"required":["city"]}`),
}

// lastIsTool matches a request whose last message is a tool result.
func lastIsTool(req *llm.Request) bool {
	return len(req.Messages) > 0 && req.Messages[len(req.Messages)-1].Role == llm.RoleTool
}

func TestToolCallRoundTrip(t *testing.T) {
	s, m := setup(t, &llmtest.Scripted{Rules: []llmtest.Rule{
		{When: lastIsTool, Text: "It is sunny in Paris."},
		{ToolCalls: []llm.ToolCall{{ID: "call_abc", Name: "get_weather", Arguments: json.RawMessage(`{"city":"Paris"}`)}}},
	}})
	req := &llm.Request{
		Messages: []llm.Message{{Role: llm.RoleUser, Content: "Weather in Paris?"}},
		Tools:    []llm.Tool{weatherTool},
	}
	first, err := generate(t, m, req)
	if err != nil {
		t.Fatal(err)
	}
	wantCalls := []llm.ToolCall{{ID: "call_abc", Name: "get_weather", Arguments: json.RawMessage(`{"city":"Paris"}`)}}
	if diff := cmp.Diff(wantCalls, first.ToolCalls); diff != "" || first.FinishReason != llm.FinishToolCalls {
		t.Errorf("finish %s, tool calls (-want +got):\n%s", first.FinishReason, diff)
	}

	req.Messages = append(req.Messages,
		llm.Message{Role: llm.RoleAssistant, ToolCalls: first.ToolCalls},
		llm.Message{Role: llm.RoleTool, ToolCallID: "call_abc", Content: "sunny, 24°C"},
	)
	second, err := generate(t, m, req)
	if err != nil {
		t.Fatalf("the server refused the tool result: %v", err)
	}
	if second.Text != "It is sunny in Paris." {
		t.Errorf("Text = %q, want the answer after the tool", second.Text)
	}

	got := body(t, s, 1)
	wantTools := jsonOf(t, `[{"type":"function","function":{"name":"get_weather","description":"The weather of a city.","parameters":{"type":"object","properties":{"city":{"type":"string"}},"required":["city"]}}}]`)
	if diff := cmp.Diff(wantTools, got["tools"]); diff != "" {
		t.Errorf("tools (-want +got):\n%s", diff)
	}
	wantMessages := jsonOf(t, `[
		{"role":"user","content":"Weather in Paris?"},
		{"role":"assistant","tool_calls":[{"id":"call_abc","type":"function","function":{"name":"get_weather","arguments":"{\"city\":\"Paris\"}"}}]},
		{"role":"tool","tool_call_id":"call_abc","content":"sunny, 24°C"}]`)
	if diff := cmp.Diff(wantMessages, got["messages"]); diff != "" {
		t.Errorf("messages (-want +got):\n%s", diff)
	}
}

func TestInvalidArgumentsStayJSON(t *testing.T) {
	const broken = `{"city": "Par`
	s, m := setup(t, &llmtest.Scripted{Rules: []llmtest.Rule{
		{When: lastIsTool, Text: "done"},
		{ToolCalls: []llm.ToolCall{{ID: "call_1", Name: "get_weather", Arguments: json.RawMessage(broken)}}},
	}})
	req := &llm.Request{Messages: []llm.Message{{Role: llm.RoleUser, Content: "Weather?"}}, Tools: []llm.Tool{weatherTool}}
	resp, err := generate(t, m, req)
	if err != nil {
		t.Fatal(err)
	}
	args := resp.ToolCalls[0].Arguments
	var s2 string
	if !json.Valid(args) || json.Unmarshal(args, &s2) != nil || s2 != broken {
		t.Errorf("Arguments = %s, want the invalid arguments as a JSON string", args)
	}
	// Sent back as they are, they would break the server (a llama.cpp
	// server answered 500 to every later request): they are refused.
	req.Messages = append(req.Messages,
		llm.Message{Role: llm.RoleAssistant, ToolCalls: resp.ToolCalls},
		llm.Message{Role: llm.RoleTool, ToolCallID: "call_1", Content: "bad arguments", IsError: true})
	_, err = generate(t, m, req)
	if err == nil || !strings.Contains(err.Error(), "message 1: tool call call_1 (get_weather): the arguments are not a JSON object") {
		t.Errorf("error = %v, want one naming the call whose arguments are not a JSON object", err)
	}
	if s.Requests() != 1 {
		t.Errorf("the server got %d requests, want 1: the broken arguments must not be sent", s.Requests())
	}
}

func TestRequestShape(t *testing.T) {
	temp, seed := 0.2, int64(42)
	strictSchema := json.RawMessage(`{"type":"object","properties":{"verdict":{"type":"string"}},"required":["verdict"],"additionalProperties":false}`)
	tests := []struct {
		name string
		req  *llm.Request
		want string // the fields wanted, besides model and messages
	}{
		{"sampling", &llm.Request{Temperature: &temp, MaxTokens: 256, Seed: &seed}, `{"temperature":0.2,"max_completion_tokens":256,"seed":42}`},
		{"strict structured output", &llm.Request{ResponseSchema: &llm.Schema{Name: "verdict", Schema: strictSchema, Strict: true}},
			`{"response_format":{"type":"json_schema","json_schema":{"name":"verdict","strict":true,"schema":{"type":"object","properties":{"verdict":{"type":"string"}},"required":["verdict"],"additionalProperties":false}}}}`},
		{"loose structured output", &llm.Request{ResponseSchema: &llm.Schema{Name: "verdict", Schema: json.RawMessage(`{"type":"object"}`)}},
			`{"response_format":{"type":"json_schema","json_schema":{"name":"verdict","strict":false,"schema":{"type":"object"}}}}`},
		{"a tool without parameters", &llm.Request{Tools: []llm.Tool{{Name: "now"}}},
			`{"tools":[{"type":"function","function":{"name":"now","parameters":{"type":"object","properties":{}}}}]}`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s, m := setup(t, &llmtest.Scripted{Rules: []llmtest.Rule{{Text: `{"verdict":"pass"}`}}})
			tc.req.Messages = []llm.Message{{Role: llm.RoleUser, Content: "hi"}}
			resp, err := generate(t, m, tc.req)
			if err != nil {
				t.Fatalf("the server refused the request: %v", err)
			}
			if resp.Text != `{"verdict":"pass"}` {
				t.Errorf("Text = %q", resp.Text)
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
	tests := []struct {
		name       string
		inject     func(*llmtest.OpenAIServer)
		req        *llm.Request
		wantStatus int
		wantRetry  time.Duration
		wantIn     string // a substring of Message
	}{
		{"a rate limit", func(s *llmtest.OpenAIServer) { s.FailNext(429, 2*time.Second) }, ask("hi"), 429, 2 * time.Second, "Rate limit"},
		{"a server error", func(s *llmtest.OpenAIServer) { s.FailNext(500, 0) }, ask("hi"), 500, 0, "server had an error"},
		{"a bad key", func(s *llmtest.OpenAIServer) { s.Key = "sk-other" }, ask("hi"), 401, 0, "Incorrect API key"},
		{"a bad request", func(*llmtest.OpenAIServer) {}, &llm.Request{Messages: []llm.Message{
			{Role: llm.RoleUser, Content: "hi"},
			{Role: llm.RoleTool, ToolCallID: "call_nothing", Content: "orphan"},
		}}, 400, 0, "must be a response to a preceeding message"},
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
			if api.Provider != "openai" || api.StatusCode != tc.wantStatus || api.RetryAfter != tc.wantRetry {
				t.Errorf("got %s %d, RetryAfter %v; want openai %d, %v", api.Provider, api.StatusCode, api.RetryAfter, tc.wantStatus, tc.wantRetry)
			}
			if !strings.Contains(api.Message, tc.wantIn) {
				t.Errorf("Message = %q, want it to contain %q", api.Message, tc.wantIn)
			}
			if !strings.HasPrefix(api.RequestID, "req_fake_") {
				t.Errorf("RequestID = %q, want the x-request-id header", api.RequestID)
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

func TestLocalErrors(t *testing.T) {
	tests := []struct {
		name   string
		config openai.Config
		req    *llm.Request
		wantIn string
	}{
		{"no model", openai.Config{}, ask("hi"), "no model"},
		{"an unknown role", openai.Config{Model: "m"}, &llm.Request{Messages: []llm.Message{{Role: "robot", Content: "hi"}}}, `unknown role "robot"`},
		{"parameters not an object", openai.Config{Model: "m"}, &llm.Request{Messages: []llm.Message{{Role: llm.RoleUser, Content: "hi"}}, Tools: []llm.Tool{{Name: "f", Parameters: json.RawMessage(`[1]`)}}}, `tool "f": parameters`},
		{"a schema not an object", openai.Config{Model: "m"}, &llm.Request{Messages: []llm.Message{{Role: llm.RoleUser, Content: "hi"}}, ResponseSchema: &llm.Schema{Name: "v", Schema: json.RawMessage(`"x"`)}}, `response schema "v"`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s := llmtest.NewOpenAIServer(&llmtest.Scripted{})
			defer s.Close()
			tc.config.BaseURL, tc.config.APIKey = s.URL, "sk-test"
			m, err := openai.New(tc.config)
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
		if _, err := openai.New(openai.Config{BaseURL: base}); err == nil {
			t.Errorf("New with base URL %q: no error, want one", base)
		}
	}
}

func TestBaseURLForms(t *testing.T) {
	s := llmtest.NewOpenAIServer(&llmtest.Scripted{Rules: []llmtest.Rule{{Text: "ok"}}})
	defer s.Close()
	for _, base := range []string{s.URL, s.URL + "/", s.URL + "?api-version=2024-10-21"} {
		m, err := openai.New(openai.Config{APIKey: "sk-test", BaseURL: base, Model: "gpt-test"})
		if err != nil {
			t.Fatal(err)
		}
		if resp, err := generate(t, m, ask("hi")); err != nil || resp.Text != "ok" {
			t.Errorf("base URL %s: got %v, %v; want ok from /v1/chat/completions", base, resp, err)
		}
	}
}
