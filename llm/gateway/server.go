package gateway

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
	"sync/atomic"
	"time"
	"unicode/utf8"

	"github.com/gavelhq/gavel/llm"
)

// A Server serves a model over the vendors' wire formats, so that a
// program written for either vendor's API, or with its SDK, talks to the
// model it is given: OpenAI's Chat Completions at POST
// /v1/chat/completions and Anthropic's Messages at POST /v1/messages
// (each under / too, for clients whose base URL leaves /v1 out). It is an
// http.Handler.
//
// A request is checked as the vendor checks it, and refused in its words
// with a 400; a valid one is handed to the model as an llm.Request and
// its answer encoded as the vendor's; asked with stream: true, as the
// vendor's server-sent events (StreamChat, StreamMessage). Any API key is accepted, none too. A
// model's error is answered as the vendor's error of its status
// (ModelError): a 429 with its Retry-After, say.
type Server struct {
	model llm.Model
	now   func() time.Time
	n     atomic.Int64
}

// Config holds a Server's optional settings.
type Config struct {
	// Now is the clock of the answers' created times. Defaults to
	// time.Now.
	Now func() time.Time
}

// New returns a Server answering from model.
func New(model llm.Model, c Config) *Server {
	if c.Now == nil {
		c.Now = time.Now
	}
	return &Server{model: model, now: c.Now}
}

// maxBody bounds the request bodies read.
const maxBody = 32 << 20

func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	path := strings.TrimPrefix(r.URL.Path, "/v1")
	switch {
	case path == "/chat/completions" && r.Method == http.MethodPost:
		s.chat(w, r)
	case path == "/messages" && r.Method == http.MethodPost:
		s.messages(w, r)
	case path == "/messages":
		WriteAnthropicError(w, http.StatusNotFound, "Not Found")
	case strings.HasPrefix(path, "/responses"):
		WriteOpenAIError(w, http.StatusNotFound, InvalidRequest("Invalid URL (%s %s): OpenAI's Responses API is not served here, its Chat Completions API is (POST /v1/chat/completions): have the client use it (OpenAI Agents SDK: set_default_openai_api(\"chat_completions\"); Vercel AI SDK: openai.chat(model))", r.Method, r.URL.Path))
	default:
		WriteOpenAIError(w, http.StatusNotFound, InvalidRequest("Invalid URL (%s %s): this server serves POST /v1/chat/completions (OpenAI) and POST /v1/messages (Anthropic)", r.Method, r.URL.Path))
	}
}

// id returns the id of a new request: req_gavel_000001, …
func (s *Server) id() string { return fmt.Sprintf("req_gavel_%06d", s.n.Add(1)) }

func (s *Server) chat(w http.ResponseWriter, r *http.Request) {
	id := s.id()
	w.Header().Set("x-request-id", id)
	body, err := io.ReadAll(io.LimitReader(r.Body, maxBody))
	if err != nil {
		panic(http.ErrAbortHandler)
	}
	req, e := DecodeChat(body)
	if e != nil {
		WriteOpenAIError(w, http.StatusBadRequest, e)
		return
	}
	resp, err := s.model.Generate(r.Context(), req.Request)
	if err != nil {
		status, message := s.failed(r.Context(), w, err)
		WriteOpenAIError(w, status, OpenAIStatusError(status, message))
		return
	}
	if req.Stream {
		StreamChat(w, resp, req.Request.Model, id, s.now(), req.IncludeUsage)
		return
	}
	writeBody(w, http.StatusOK, ChatCompletion(resp, req.Request.Model, id, s.now()))
}

func (s *Server) messages(w http.ResponseWriter, r *http.Request) {
	id := s.id()
	w.Header().Set("request-id", id)
	body, err := io.ReadAll(io.LimitReader(r.Body, maxBody))
	if err != nil {
		panic(http.ErrAbortHandler)
	}
	req, stream, problem := DecodeMessages(body)
	if problem != "" {
		WriteAnthropicError(w, http.StatusBadRequest, problem)
		return
	}
	resp, err := s.model.Generate(r.Context(), req)
	if err != nil {
		status, message := s.failed(r.Context(), w, err)
		WriteAnthropicError(w, status, message)
		return
	}
	if stream {
		StreamMessage(w, resp, req, id)
		return
	}
	writeBody(w, http.StatusOK, Message(resp, req, id))
}

// failed is the status and message to answer a model's error with, its
// Retry-After header set (ModelError). When the client has gone, the
// connection is dropped instead.
func (s *Server) failed(ctx context.Context, w http.ResponseWriter, err error) (int, string) {
	if ctx.Err() != nil {
		panic(http.ErrAbortHandler)
	}
	status, message, retryAfter := ModelError(err)
	if retryAfter > 0 {
		w.Header().Set("Retry-After", RetryAfter(retryAfter))
	}
	return status, message
}

// ModelError is how a server answers a model's error: an *llm.APIError
// with its status (4xx, 5xx), message (its body's excerpt when it has
// none) and Retry-After, so that a vendor's 429 reaches the client as a
// 429; anything else as a 500 quoting it.
func ModelError(err error) (status int, message string, retryAfter time.Duration) {
	var api *llm.APIError
	if errors.As(err, &api) && api.StatusCode >= 400 {
		message = api.Message
		if message == "" {
			message = api.Body
		}
		return api.StatusCode, message, api.RetryAfter
	}
	return http.StatusInternalServerError, "the model failed: " + err.Error(), 0
}

// RetryAfter formats d as a Retry-After value: seconds, with a fraction
// when d is not whole seconds ("1.5"), as vendors write it.
func RetryAfter(d time.Duration) string {
	return strconv.FormatFloat(d.Seconds(), 'f', -1, 64)
}

// writeJSON answers status with v as JSON.
func writeJSON(w http.ResponseWriter, status int, v any) {
	b, err := json.Marshal(v)
	if err != nil {
		panic(fmt.Sprintf("gateway: encoding an answer: %v", err))
	}
	writeBody(w, status, b)
}

// writeBody answers status with the JSON body b.
func writeBody(w http.ResponseWriter, status int, b []byte) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	w.Write(b)
}

// Truncated returns resp as a server that reached the token limit sends
// it: finish reason length, its text cut in half and each tool call's
// arguments cut in the middle (no longer JSON, most often). The fake
// vendor servers and a model endpoint's truncate faults cut replies so.
func Truncated(resp *llm.Response) *llm.Response {
	cut := *resp
	cut.FinishReason = llm.FinishLength
	cut.Text = half(resp.Text)
	cut.ToolCalls = make([]llm.ToolCall, len(resp.ToolCalls))
	for i, c := range resp.ToolCalls {
		c.Arguments = json.RawMessage(half(string(c.Arguments)))
		cut.ToolCalls[i] = c
	}
	return &cut
}

// half returns the first half of s, cut on a character boundary.
func half(s string) string {
	n := len(s) / 2
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n]
}
