package gateway_test

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/gavelhq/gavel/llm"
	"github.com/gavelhq/gavel/llm/anthropic"
	"github.com/gavelhq/gavel/llm/gateway"
	"github.com/gavelhq/gavel/llm/llmtest"
	"github.com/gavelhq/gavel/llm/openai"
)

// backing answers "where is my order?" with a tool call, a tool's result
// with text, and "fail" with a vendor's 429.
func backing() *llmtest.Scripted {
	return &llmtest.Scripted{Name: "backing-model", Rules: []llmtest.Rule{
		{Match: "fail", Err: &llm.APIError{Provider: "openai", StatusCode: 429, Message: "slow down", RetryAfter: 1500 * time.Millisecond}},
		{Match: "where is my order?", ToolCalls: []llm.ToolCall{{ID: "call_1", Name: "get_order_status", Arguments: json.RawMessage(`{"order_id":"12345"}`)}}},
		{Match: "shipped", Text: "Your order 12345 has shipped, and should reach you on Friday."},
	}}
}

// start serves model with a fixed clock.
func start(t *testing.T, model llm.Model) *httptest.Server {
	t.Helper()
	srv := httptest.NewServer(gateway.New(model, gateway.Config{Now: func() time.Time { return time.Unix(1_700_000_000, 0) }}))
	t.Cleanup(srv.Close)
	return srv
}

// Gavel's own providers, which speak the vendors' wire with their SDKs,
// talk to the model behind a Server as to the vendor: a tool call, then
// the answer to its result, with the backing model's usage.
func TestServerSpeaksBothVendors(t *testing.T) {
	srv := start(t, backing())
	oa, err := openai.New(openai.Config{BaseURL: srv.URL + "/v1", APIKey: "unused", Model: "gpt-5-mini"})
	if err != nil {
		t.Fatal(err)
	}
	an, err := anthropic.New(anthropic.Config{BaseURL: srv.URL, APIKey: "unused", Model: "claude-haiku-4-5"})
	if err != nil {
		t.Fatal(err)
	}
	tools := []llm.Tool{{Name: "get_order_status", Parameters: json.RawMessage(`{"type":"object","properties":{"order_id":{"type":"string"}}}`)}}
	for _, tc := range []struct {
		name  string
		model llm.Model
	}{{"openai", oa}, {"anthropic", an}} {
		t.Run(tc.name, func(t *testing.T) {
			msgs := []llm.Message{{Role: llm.RoleSystem, Content: "You track orders."}, {Role: llm.RoleUser, Content: "where is my order?"}}
			resp, err := tc.model.Generate(t.Context(), &llm.Request{Messages: msgs, Tools: tools, MaxTokens: 100})
			if err != nil {
				t.Fatal(err)
			}
			if len(resp.ToolCalls) != 1 || resp.ToolCalls[0].Name != "get_order_status" || string(resp.ToolCalls[0].Arguments) != `{"order_id":"12345"}` {
				t.Fatalf("tool calls %+v, want get_order_status {order_id: 12345}", resp.ToolCalls)
			}
			if resp.FinishReason != llm.FinishToolCalls || resp.Model != "backing-model" || resp.Usage.InputTokens == 0 {
				t.Errorf("finish %q, model %q, usage %+v: want tool_calls, the backing model's name and its usage", resp.FinishReason, resp.Model, resp.Usage)
			}
			msgs = append(msgs, llm.Message{Role: llm.RoleAssistant, ToolCalls: resp.ToolCalls},
				llm.Message{Role: llm.RoleTool, ToolCallID: resp.ToolCalls[0].ID, Content: `{"status":"shipped"}`})
			resp, err = tc.model.Generate(t.Context(), &llm.Request{Messages: msgs, Tools: tools, MaxTokens: 100})
			if err != nil {
				t.Fatal(err)
			}
			if want := "Your order 12345 has shipped, and should reach you on Friday."; resp.Text != want || resp.FinishReason != llm.FinishStop {
				t.Errorf("got %q (%s), want %q (stop)", resp.Text, resp.FinishReason, want)
			}
		})
	}
}

// A model's error reaches the client as the vendor's error of its
// status, with its Retry-After; the providers read it as they read the
// vendor's.
func TestServerPassesModelErrorsOn(t *testing.T) {
	srv := start(t, backing())
	oa, _ := openai.New(openai.Config{BaseURL: srv.URL + "/v1", APIKey: "unused", Model: "m"})
	an, _ := anthropic.New(anthropic.Config{BaseURL: srv.URL, APIKey: "unused", Model: "m"})
	for name, m := range map[string]llm.Model{"openai": oa, "anthropic": an} {
		_, err := m.Generate(t.Context(), &llm.Request{Messages: []llm.Message{{Role: llm.RoleUser, Content: "fail"}}, MaxTokens: 10})
		var api *llm.APIError
		if !errors.As(err, &api) || api.StatusCode != 429 || api.RetryAfter != 1500*time.Millisecond || !strings.Contains(api.Message, "slow down") {
			t.Errorf("%s: %v (%+v), want a 429 saying slow down, Retry-After 1.5 s", name, err, api)
		}
	}
}

// Requests the vendors refuse are refused in their words; a path or a
// stream the server does not serve says what it serves.
func TestServerRefuses(t *testing.T) {
	srv := start(t, backing())
	for _, tc := range []struct {
		name, path, body string
		status           int
		want             string
	}{
		{"no messages", "/v1/chat/completions", `{"model":"m","messages":[]}`, 400, "Invalid 'messages': empty array"},
		{"not JSON", "/v1/chat/completions", `{"model":`, 400, "We could not parse the JSON body"},
		{"stream options without a stream", "/v1/chat/completions", `{"model":"m","stream_options":{"include_usage":true},"messages":[{"role":"user","content":"hi"}]}`, 400, "only allowed when 'stream' is enabled"},
		{"anthropic without max_tokens", "/v1/messages", `{"model":"m","messages":[{"role":"user","content":"hi"}]}`, 400, "max_tokens: Field required"},
		{"unknown path", "/v1/embeddings", `{}`, 404, "serves POST /v1/chat/completions (OpenAI) and POST /v1/messages (Anthropic)"},
		{"responses API", "/v1/responses", `{}`, 404, `Responses API is not served here, its Chat Completions API is (POST /v1/chat/completions): have the client use it (OpenAI Agents SDK: set_default_openai_api(\"chat_completions\")`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			resp, err := http.Post(srv.URL+tc.path, "application/json", strings.NewReader(tc.body))
			if err != nil {
				t.Fatal(err)
			}
			defer resp.Body.Close()
			var body strings.Builder
			bufio.NewReader(resp.Body).WriteTo(&body)
			if resp.StatusCode != tc.status || !strings.Contains(body.String(), tc.want) {
				t.Errorf("%d %s, want %d with %q", resp.StatusCode, body.String(), tc.status, tc.want)
			}
		})
	}
}

// A streamed chat completion comes as OpenAI streams it: chunks whose
// pieces make the answer, the finish reason, a last chunk of usage when
// asked for, and [DONE].
func TestStreamChat(t *testing.T) {
	for _, tc := range []struct {
		name, message string
		wantText      string
		wantArgs      string
		wantFinish    string
	}{
		{"text", "shipped?", "Your order 12345 has shipped, and should reach you on Friday.", "", "stop"},
		{"tool call", "where is my order?", "", `{"order_id":"12345"}`, "tool_calls"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			srv := start(t, backing())
			body := `{"model":"gpt-5-mini","stream":true,"stream_options":{"include_usage":true},"messages":[{"role":"user","content":"` + tc.message + `"}]}`
			resp, err := http.Post(srv.URL+"/v1/chat/completions", "application/json", strings.NewReader(body))
			if err != nil {
				t.Fatal(err)
			}
			defer resp.Body.Close()
			if ct := resp.Header.Get("Content-Type"); resp.StatusCode != 200 || ct != "text/event-stream" {
				t.Fatalf("%d %s, want 200 text/event-stream", resp.StatusCode, ct)
			}
			type chunk struct {
				ID      string `json:"id"`
				Object  string `json:"object"`
				Created int64  `json:"created"`
				Choices []struct {
					Delta struct {
						Role      string  `json:"role"`
						Content   *string `json:"content"`
						ToolCalls []struct {
							Index    int    `json:"index"`
							ID       string `json:"id"`
							Function struct {
								Name      string `json:"name"`
								Arguments string `json:"arguments"`
							} `json:"function"`
						} `json:"tool_calls"`
					} `json:"delta"`
					FinishReason *string `json:"finish_reason"`
				} `json:"choices"`
				Usage *struct {
					PromptTokens     int64 `json:"prompt_tokens"`
					CompletionTokens int64 `json:"completion_tokens"`
				} `json:"usage"`
			}
			var text, args, finish, name, role string
			var chunks, usages int
			done := false
			sc := bufio.NewScanner(resp.Body)
			for sc.Scan() {
				line, ok := strings.CutPrefix(sc.Text(), "data: ")
				if !ok {
					continue
				}
				if line == "[DONE]" {
					done = true
					continue
				}
				var c chunk
				if err := json.Unmarshal([]byte(line), &c); err != nil {
					t.Fatalf("chunk %q: %v", line, err)
				}
				chunks++
				if c.ID != "chatcmpl-gavel_000001" || c.Object != "chat.completion.chunk" || c.Created != 1_700_000_000 {
					t.Errorf("chunk %s: want id chatcmpl-gavel_000001, object chat.completion.chunk, created by the server's clock", line)
				}
				if c.Usage != nil {
					usages++
					if len(c.Choices) != 0 || c.Usage.PromptTokens == 0 {
						t.Errorf("usage chunk %s: want no choices and the usage", line)
					}
				}
				for _, ch := range c.Choices {
					role += ch.Delta.Role
					if ch.Delta.Content != nil {
						text += *ch.Delta.Content
					}
					for _, tcall := range ch.Delta.ToolCalls {
						name += tcall.Function.Name
						args += tcall.Function.Arguments
					}
					if ch.FinishReason != nil {
						finish = *ch.FinishReason
					}
				}
			}
			got := []string{role, text, args, finish}
			if diff := cmp.Diff([]string{"assistant", tc.wantText, tc.wantArgs, tc.wantFinish}, got); diff != "" {
				t.Errorf("role, text, arguments, finish reason (-want +got):\n%s", diff)
			}
			if tc.wantArgs != "" && name != "get_order_status" {
				t.Errorf("tool name %q, want get_order_status", name)
			}
			if usages != 1 || !done || chunks < 4 {
				t.Errorf("%d usage chunks, [DONE] %v, %d chunks: want one usage chunk, [DONE], and the answer in pieces", usages, done, chunks)
			}
		})
	}
}

// A client that goes away while the model works is not answered.
func TestServerDropsAClientThatLeft(t *testing.T) {
	started := make(chan struct{})
	srv := start(t, llm.Func(func(ctx context.Context, _ *llm.Request) (*llm.Response, error) {
		close(started)
		<-ctx.Done()
		return nil, ctx.Err()
	}))
	ctx, cancel := context.WithCancel(t.Context())
	go func() { <-started; cancel() }()
	req, _ := http.NewRequestWithContext(ctx, http.MethodPost, srv.URL+"/v1/chat/completions", strings.NewReader(`{"model":"m","messages":[{"role":"user","content":"hi"}]}`))
	if _, err := http.DefaultClient.Do(req); !errors.Is(err, context.Canceled) {
		t.Errorf("%v, want the client's own cancellation", err)
	}
}

// A streamed message comes as Anthropic streams it: named events whose
// deltas make the answer's text or tool input, the stop reason and the
// output tokens in message_delta, and message_stop.
func TestStreamMessage(t *testing.T) {
	for _, tc := range []struct {
		name, message         string
		wantText, wantInput   string
		wantStop, wantBlockOf string
	}{
		{"text", "shipped?", "Your order 12345 has shipped, and should reach you on Friday.", "", "end_turn", "text"},
		{"tool use", "where is my order?", "", `{"order_id":"12345"}`, "tool_use", "tool_use"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			srv := start(t, backing())
			body := `{"model":"claude-haiku-4-5","max_tokens":100,"stream":true,"messages":[{"role":"user","content":"` + tc.message + `"}]}`
			resp, err := http.Post(srv.URL+"/v1/messages", "application/json", strings.NewReader(body))
			if err != nil {
				t.Fatal(err)
			}
			defer resp.Body.Close()
			if ct := resp.Header.Get("Content-Type"); resp.StatusCode != 200 || ct != "text/event-stream" {
				t.Fatalf("%d %s, want 200 text/event-stream", resp.StatusCode, ct)
			}
			var events []string
			var text, input, stop, block string
			var inputTokens, outputTokens int64
			event := ""
			sc := bufio.NewScanner(resp.Body)
			for sc.Scan() {
				if name, ok := strings.CutPrefix(sc.Text(), "event: "); ok {
					event = name
					continue
				}
				data, ok := strings.CutPrefix(sc.Text(), "data: ")
				if !ok {
					continue
				}
				var e struct {
					Type    string `json:"type"`
					Message struct {
						ID    string `json:"id"`
						Usage struct {
							InputTokens int64 `json:"input_tokens"`
						} `json:"usage"`
					} `json:"message"`
					ContentBlock struct {
						Type string `json:"type"`
						Name string `json:"name"`
					} `json:"content_block"`
					Delta struct {
						Type        string `json:"type"`
						Text        string `json:"text"`
						PartialJSON string `json:"partial_json"`
						StopReason  string `json:"stop_reason"`
					} `json:"delta"`
					Usage struct {
						OutputTokens int64 `json:"output_tokens"`
					} `json:"usage"`
				}
				if err := json.Unmarshal([]byte(data), &e); err != nil {
					t.Fatalf("event %q: %v", data, err)
				}
				if e.Type != event {
					t.Errorf("event %q carries %q", event, e.Type)
				}
				if len(events) == 0 || events[len(events)-1] != e.Type {
					events = append(events, e.Type)
				}
				switch e.Type {
				case "message_start":
					inputTokens = e.Message.Usage.InputTokens
					if e.Message.ID != "msg_gavel_000001" {
						t.Errorf("message id %q", e.Message.ID)
					}
				case "content_block_start":
					block = e.ContentBlock.Type
				case "content_block_delta":
					text += e.Delta.Text
					input += e.Delta.PartialJSON
				case "message_delta":
					stop, outputTokens = e.Delta.StopReason, e.Usage.OutputTokens
				}
			}
			want := []string{"message_start", "content_block_start", "content_block_delta", "content_block_stop", "message_delta", "message_stop"}
			if diff := cmp.Diff(want, events); diff != "" {
				t.Errorf("events (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff([]string{tc.wantText, tc.wantInput, tc.wantStop, tc.wantBlockOf}, []string{text, input, stop, block}); diff != "" {
				t.Errorf("text, tool input, stop reason, block type (-want +got):\n%s", diff)
			}
			if inputTokens == 0 || outputTokens == 0 {
				t.Errorf("input tokens %d, output tokens %d: want the backing model's", inputTokens, outputTokens)
			}
		})
	}
}
