package openai

import (
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"
	sdk "github.com/openai/openai-go/v3"

	"github.com/gavelhq/gavel/llm"
)

func TestOllamaURL(t *testing.T) {
	tests := []struct{ host, want string }{
		{"", "http://127.0.0.1:11434"},
		{"127.0.0.1:8080", "http://127.0.0.1:8080"},
		{"localhost", "http://localhost:11434"},
		{"0.0.0.0", "http://0.0.0.0:11434"},
		{":9999", "http://127.0.0.1:9999"},
		{"gpu-box:11434", "http://gpu-box:11434"},
		{"http://gpu-box", "http://gpu-box:80"},
		{"https://ollama.example.com", "https://ollama.example.com:443"},
		{"http://gpu-box:1234/", "http://gpu-box:1234"},
		{"https://example.com/ollama", "https://example.com:443/ollama"},
		{"[::1]:11434", "http://[::1]:11434"},
		{"::1", "http://[::1]:11434"},
		{`"127.0.0.1:8080"`, "http://127.0.0.1:8080"},
		{"127.0.0.1:99999", "http://127.0.0.1:11434"},
	}
	for _, tc := range tests {
		if got := ollamaURL(tc.host); got != tc.want {
			t.Errorf("ollamaURL(%q) = %q, want %q", tc.host, got, tc.want)
		}
	}
}

func TestToResponse(t *testing.T) {
	tests := []struct {
		name string
		body string
		want *llm.Response
	}{
		{"text", `{"model":"gpt-x","choices":[{"message":{"role":"assistant","content":"hi"},"finish_reason":"stop"}],"usage":{"prompt_tokens":10,"completion_tokens":2,"prompt_tokens_details":{"cached_tokens":4}}}`,
			&llm.Response{Text: "hi", FinishReason: llm.FinishStop, Model: "gpt-x", Usage: llm.Usage{InputTokens: 10, OutputTokens: 2, CachedTokens: 4}}},
		{"a cut answer", `{"choices":[{"message":{"content":"hi"},"finish_reason":"length"}]}`,
			&llm.Response{Text: "hi", FinishReason: llm.FinishLength}},
		{"a content filter", `{"choices":[{"message":{"content":""},"finish_reason":"content_filter"}]}`,
			&llm.Response{FinishReason: llm.FinishFiltered}},
		{"a refusal", `{"choices":[{"message":{"content":null,"refusal":"I can't help with that."},"finish_reason":"stop"}]}`,
			&llm.Response{Text: "I can't help with that.", FinishReason: llm.FinishFiltered}},
		{"tool calls", `{"choices":[{"message":{"content":null,"tool_calls":[` +
			`{"id":"a","type":"function","function":{"name":"f","arguments":"{\"x\":1}"}},` +
			`{"id":"b","type":"function","function":{"name":"g","arguments":""}},` +
			`{"id":"c","type":"function","function":{"name":"h","arguments":"{\"x\":"}}]},"finish_reason":"tool_calls"}]}`,
			&llm.Response{FinishReason: llm.FinishToolCalls, ToolCalls: []llm.ToolCall{
				{ID: "a", Name: "f", Arguments: json.RawMessage(`{"x":1}`)},
				{ID: "b", Name: "g", Arguments: json.RawMessage(`{}`)},
				{ID: "c", Name: "h", Arguments: json.RawMessage(`"{\"x\":"`)},
			}}},
		{"tool calls without a finish reason", `{"choices":[{"message":{"tool_calls":[{"id":"a","type":"function","function":{"name":"f","arguments":"{}"}}]},"finish_reason":""}]}`,
			&llm.Response{FinishReason: llm.FinishToolCalls, ToolCalls: []llm.ToolCall{{ID: "a", Name: "f", Arguments: json.RawMessage(`{}`)}}}},
		{"an unknown finish reason", `{"choices":[{"message":{"content":"x"},"finish_reason":"eos"}]}`,
			&llm.Response{Text: "x", FinishReason: "eos"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var cc sdk.ChatCompletion
			if err := json.Unmarshal([]byte(tc.body), &cc); err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tc.want, toResponse(&cc)); diff != "" {
				t.Errorf("response (-want +got):\n%s", diff)
			}
		})
	}
}

func TestErrorMessage(t *testing.T) {
	tests := []struct{ body, want string }{
		{`{"error":{"message":"bad model","type":"invalid_request_error"}}`, "bad model"},
		{`{"error":"model not found"}`, "model not found"},
		{`{"object":"error","message":"too long","type":"BadRequestError"}`, "too long"},
		{`<html>Bad Gateway</html>`, ""},
		{``, ""},
	}
	for _, tc := range tests {
		if got := errorMessage([]byte(tc.body)); got != tc.want {
			t.Errorf("errorMessage(%s) = %q, want %q", tc.body, got, tc.want)
		}
	}
}

func TestWireArguments(t *testing.T) {
	tests := []struct {
		args, want string
		wantErr    bool
	}{
		{``, `{}`, false},
		{`{"x":1}`, `{"x":1}`, false},
		{`"{\"x\":"`, ``, true}, // invalid arguments, kept as a JSON string
		{`{"x":`, ``, true},     // invalid arguments, raw
		{`[1,2]`, ``, true},
		{`7`, ``, true},
	}
	for _, tc := range tests {
		got, err := wireArguments(json.RawMessage(tc.args))
		if got != tc.want || (err != nil) != tc.wantErr {
			t.Errorf("wireArguments(%s) = %s, %v; want %s, error %v", tc.args, got, err, tc.want, tc.wantErr)
		}
	}
}
