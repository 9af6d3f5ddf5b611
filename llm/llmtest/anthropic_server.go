package llmtest

import (
	"net/http"

	"github.com/gavelhq/gavel/llm"
	"github.com/gavelhq/gavel/llm/gateway"
)

// An AnthropicServer is a fake of the Anthropic Messages API
// (POST /v1/messages) on a loopback port. It validates each request as the
// real API does and answers 400, in Anthropic's error shape, where the real
// API would; it turns a valid request into an llm.Request, asks its backing
// model, and answers a message of the real shape, with a request-id header.
// The wire format is package gateway's.
//
// It wants the x-api-key (401 without it) and anthropic-version headers.
// Streaming and server tools are not supported. The embedded Fake injects
// faults and counts requests.
//
// A tool_choice that forces one tool is how Anthropic's clients ask for
// structured output, so the backing model gets that tool as the request's
// ResponseSchema, and its text answer, when a JSON object, comes back as the
// forced tool_use block. A text answer that is not a JSON object comes back
// as a text block, as if the model had ignored the tool: the real API never
// does that, but it lets a test send malformed output through a provider.
type AnthropicServer struct {
	Fake
	// URL is the base URL to give a client: the server's address.
	URL string
	// Key, when set, is the only API key accepted; another gets a 401.
	// Any key is accepted when it is empty.
	Key string

	model llm.Model
}

// NewAnthropicServer starts a fake Anthropic server answering from model.
// Close it when done.
func NewAnthropicServer(model llm.Model) *AnthropicServer {
	s := &AnthropicServer{model: model}
	s.start("request-id", s.writeStatusError, s.serve)
	s.URL = s.srv.URL
	return s
}

func (s *AnthropicServer) writeStatusError(w http.ResponseWriter, status int) {
	gateway.WriteAnthropicError(w, status, "")
}

func (s *AnthropicServer) serve(w http.ResponseWriter, r *http.Request, body []byte, id string, x fault) {
	if r.URL.Path != "/v1/messages" || r.Method != http.MethodPost {
		gateway.WriteAnthropicError(w, http.StatusNotFound, "Not Found")
		return
	}
	switch key := r.Header.Get("x-api-key"); {
	case key == "":
		gateway.WriteAnthropicError(w, http.StatusUnauthorized, "x-api-key header is required")
		return
	case s.Key != "" && key != s.Key:
		gateway.WriteAnthropicError(w, http.StatusUnauthorized, "invalid x-api-key")
		return
	}
	if r.Header.Get("anthropic-version") == "" {
		gateway.WriteAnthropicError(w, http.StatusBadRequest, "anthropic-version: header is required")
		return
	}
	req, stream, problem := gateway.DecodeMessages(body)
	if problem == "" && stream {
		problem = "stream: llmtest: the fake Anthropic server does not stream"
	}
	if problem != "" {
		gateway.WriteAnthropicError(w, http.StatusBadRequest, problem)
		return
	}
	resp, err := s.model.Generate(r.Context(), req)
	if err != nil {
		s.modelFailed(r.Context(), w, err, func(status int, message string) {
			gateway.WriteAnthropicError(w, status, message)
		})
		return
	}
	if x.kind == faultTruncate {
		resp = gateway.Truncated(resp)
	}
	writeAnswer(w, gateway.Message(resp, req, id), x, spoilAnthropic)
}

// spoilAnthropic puts the wrong value a fault asks for in a message.
func spoilAnthropic(doc map[string]any, kind faultKind) {
	switch kind {
	case faultNumericContent:
		content, _ := doc["content"].([]any)
		for _, b := range content {
			if block := b.(map[string]any); block["type"] == "text" {
				block["text"] = numericContent
				return
			}
		}
		doc["content"] = append([]any{map[string]any{"type": "text", "text": numericContent}}, content...)
	}
	if n, ok := spoilsUsage(kind); ok {
		doc["usage"].(map[string]any)["input_tokens"] = n
	}
}
