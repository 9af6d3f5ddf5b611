package llmtest

import (
	"net/http"
	"strings"
	"time"

	"github.com/gavelhq/gavel/llm"
	"github.com/gavelhq/gavel/llm/gateway"
)

// An OpenAIServer is a fake of the OpenAI Chat Completions API
// (POST /v1/chat/completions) on a loopback port. It validates each request
// as the real API does and answers 400, in OpenAI's error shape, where the
// real API would; it turns a valid request into an llm.Request, asks its
// backing model, and answers a chat.completion of the real shape, with an
// x-request-id header. The wire format is package gateway's.
//
// It wants an Authorization: Bearer header (401 without one). Streaming is
// not supported. The embedded Fake injects faults and counts requests.
type OpenAIServer struct {
	Fake
	// URL is the base URL to give a client: the server's address and /v1.
	URL string
	// Key, when set, is the only API key accepted; another gets a 401.
	// Any key is accepted when it is empty.
	Key string
	// Gateway, when set, is a path the API is served under too, as an AI
	// gateway serves a vendor's behind a path of its own, which may name
	// an account ("/ACCOUNT/v1"): the base URL is then the server's
	// address and Gateway. Any other path is answered 404, echoing it, as
	// the real API does.
	Gateway string

	model llm.Model
}

// NewOpenAIServer starts a fake OpenAI server answering from model. Close
// it when done.
func NewOpenAIServer(model llm.Model) *OpenAIServer {
	s := &OpenAIServer{model: model}
	s.start("x-request-id", s.writeStatusError, s.serve)
	s.URL = s.srv.URL + "/v1"
	return s
}

// writeStatusError answers status with the message the real API gives it.
func (s *OpenAIServer) writeStatusError(w http.ResponseWriter, status int) {
	gateway.WriteOpenAIError(w, status, gateway.OpenAIStatusError(status, ""))
}

func (s *OpenAIServer) serve(w http.ResponseWriter, r *http.Request, body []byte, id string, x fault) {
	route := r.URL.Path == "/v1/chat/completions" || r.URL.Path == "/chat/completions" ||
		s.Gateway != "" && r.URL.Path == s.Gateway+"/chat/completions"
	if !route || r.Method != http.MethodPost {
		gateway.WriteOpenAIError(w, http.StatusNotFound, gateway.InvalidRequest("Invalid URL (%s %s)", r.Method, r.URL.Path))
		return
	}
	if e := s.authorize(r); e != nil {
		gateway.WriteOpenAIError(w, http.StatusUnauthorized, e)
		return
	}
	req, e := gateway.DecodeChat(body)
	if e == nil && req.Stream {
		e = gateway.InvalidRequest("llmtest: the fake OpenAI server does not stream").WithParam("stream")
	}
	if e != nil {
		gateway.WriteOpenAIError(w, http.StatusBadRequest, e)
		return
	}
	resp, err := s.model.Generate(r.Context(), req.Request)
	if err != nil {
		s.modelFailed(r.Context(), w, err, func(status int, message string) {
			gateway.WriteOpenAIError(w, status, gateway.OpenAIStatusError(status, message))
		})
		return
	}
	if x.kind == faultTruncate {
		resp = gateway.Truncated(resp)
	}
	writeAnswer(w, gateway.ChatCompletion(resp, req.Request.Model, id, time.Now()), x, spoilOpenAI)
}

// spoilOpenAI puts the wrong value a fault asks for in a chat completion.
func spoilOpenAI(doc map[string]any, kind faultKind) {
	switch kind {
	case faultNumericContent:
		choice := doc["choices"].([]any)[0].(map[string]any)
		choice["message"].(map[string]any)["content"] = numericContent
	}
	if n, ok := spoilsUsage(kind); ok {
		usage := doc["usage"].(map[string]any)
		usage["prompt_tokens"] = n
		usage["total_tokens"] = n
	}
}

func (s *OpenAIServer) authorize(r *http.Request) *gateway.OpenAIError {
	key, ok := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer ")
	switch {
	case !ok || strings.TrimSpace(key) == "":
		return gateway.InvalidRequest("You didn't provide an API key. You need to provide your API key in an Authorization header using Bearer auth (i.e. Authorization: Bearer YOUR_KEY).")
	case s.Key != "" && key != s.Key:
		return gateway.InvalidRequest("Incorrect API key provided: %s. You can find your API key at https://platform.openai.com/account/api-keys.", redact(key)).WithCode("invalid_api_key")
	}
	return nil
}

// redact shows a key as the real API does: its ends only.
func redact(key string) string {
	if len(key) <= 8 {
		return strings.Repeat("*", len(key))
	}
	return key[:3] + strings.Repeat("*", len(key)-7) + key[len(key)-4:]
}
