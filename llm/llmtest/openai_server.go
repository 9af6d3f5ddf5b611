package llmtest

import (
	"encoding/json"
	"fmt"
	"net/http"
	"regexp"
	"slices"
	"strings"
	"time"

	"github.com/gavelhq/gavel/llm"
)

// An OpenAIServer is a fake of the OpenAI Chat Completions API
// (POST /v1/chat/completions) on a loopback port. It validates each request
// as the real API does and answers 400, in OpenAI's error shape, where the
// real API would; it turns a valid request into an llm.Request, asks its
// backing model, and answers a chat.completion of the real shape, with an
// x-request-id header.
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

// openAIError is the body of OpenAI's error answers.
type openAIError struct {
	Message string  `json:"message"`
	Type    string  `json:"type"`
	Param   *string `json:"param"`
	Code    *string `json:"code"`
}

func (e *openAIError) withParam(p string) *openAIError { e.Param = &p; return e }
func (e *openAIError) withCode(c string) *openAIError  { e.Code = &c; return e }

func invalidRequest(format string, args ...any) *openAIError {
	return &openAIError{Message: fmt.Sprintf(format, args...), Type: "invalid_request_error"}
}

func writeOpenAIError(w http.ResponseWriter, status int, e *openAIError) {
	writeJSON(w, status, map[string]*openAIError{"error": e})
}

// writeStatusError answers status with the message the real API gives it.
func (s *OpenAIServer) writeStatusError(w http.ResponseWriter, status int) {
	writeOpenAIError(w, status, openAIStatusError(status, ""))
}

func openAIStatusError(status int, message string) *openAIError {
	e := &openAIError{Message: message}
	switch {
	case status == http.StatusTooManyRequests:
		e.Type = "requests"
		e.withCode("rate_limit_exceeded")
		if e.Message == "" {
			e.Message = "Rate limit reached for requests. Please try again later."
		}
	case status == http.StatusUnauthorized:
		e.Type = "invalid_request_error"
		e.withCode("invalid_api_key")
		if e.Message == "" {
			e.Message = "Incorrect API key provided."
		}
	case status >= 500:
		e.Type = "server_error"
		if e.Message == "" {
			e.Message = "The server had an error while processing your request. Sorry about that!"
		}
	default:
		e.Type = "invalid_request_error"
		if e.Message == "" {
			e.Message = http.StatusText(status)
		}
	}
	return e
}

// The wire shapes of a chat completion request.
type (
	oaRequest struct {
		Model               *string           `json:"model"`
		Messages            []oaMessage       `json:"messages"`
		Tools               []oaTool          `json:"tools"`
		Temperature         *float64          `json:"temperature"`
		MaxCompletionTokens *int              `json:"max_completion_tokens"`
		MaxTokens           *int              `json:"max_tokens"`
		Seed                *int64            `json:"seed"`
		ResponseFormat      *oaResponseFormat `json:"response_format"`
		Stream              bool              `json:"stream"`
	}
	oaMessage struct {
		Role       string          `json:"role"`
		Content    json.RawMessage `json:"content"`
		ToolCalls  []oaToolCall    `json:"tool_calls"`
		ToolCallID *string         `json:"tool_call_id"`
	}
	oaToolCall struct {
		ID       string `json:"id"`
		Type     string `json:"type"`
		Function struct {
			Name      string `json:"name"`
			Arguments string `json:"arguments"`
		} `json:"function"`
	}
	oaTool struct {
		Type     string `json:"type"`
		Function *struct {
			Name        string          `json:"name"`
			Description string          `json:"description"`
			Parameters  json.RawMessage `json:"parameters"`
			Strict      bool            `json:"strict"`
		} `json:"function"`
	}
	oaResponseFormat struct {
		Type       string `json:"type"`
		JSONSchema *struct {
			Name   string          `json:"name"`
			Schema json.RawMessage `json:"schema"`
			Strict bool            `json:"strict"`
		} `json:"json_schema"`
	}
)

func (s *OpenAIServer) serve(w http.ResponseWriter, r *http.Request, body []byte, id string, x fault) {
	route := r.URL.Path == "/v1/chat/completions" || r.URL.Path == "/chat/completions" ||
		s.Gateway != "" && r.URL.Path == s.Gateway+"/chat/completions"
	if !route || r.Method != http.MethodPost {
		writeOpenAIError(w, http.StatusNotFound, invalidRequest("Invalid URL (%s %s)", r.Method, r.URL.Path))
		return
	}
	if e := s.authorize(r); e != nil {
		writeOpenAIError(w, http.StatusUnauthorized, e)
		return
	}
	var req oaRequest
	if err := json.Unmarshal(body, &req); err != nil {
		writeOpenAIError(w, http.StatusBadRequest, invalidRequest("We could not parse the JSON body of your request. (HINT: This likely means you aren't using your HTTP library correctly. The OpenAI API expects a JSON payload, but what was sent was not valid JSON.)"))
		return
	}
	if e := validateOpenAI(&req); e != nil {
		writeOpenAIError(w, http.StatusBadRequest, e)
		return
	}
	lreq := openAIToLLM(&req)
	resp, err := s.model.Generate(r.Context(), lreq)
	if err != nil {
		s.modelFailed(r.Context(), w, err, func(status int, message string) {
			writeOpenAIError(w, status, openAIStatusError(status, message))
		})
		return
	}
	if x.kind == faultTruncate {
		resp = truncated(resp)
	}
	writeAnswer(w, openAICompletion(resp, lreq.Model, id), x, spoilOpenAI)
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

func (s *OpenAIServer) authorize(r *http.Request) *openAIError {
	key, ok := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer ")
	switch {
	case !ok || strings.TrimSpace(key) == "":
		return invalidRequest("You didn't provide an API key. You need to provide your API key in an Authorization header using Bearer auth (i.e. Authorization: Bearer YOUR_KEY).")
	case s.Key != "" && key != s.Key:
		return invalidRequest("Incorrect API key provided: %s. You can find your API key at https://platform.openai.com/account/api-keys.", redact(key)).withCode("invalid_api_key")
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

// openAIToolName is the pattern OpenAI wants of function names.
var openAIToolName = regexp.MustCompile(`^[a-zA-Z0-9_-]{1,64}$`)

// validateOpenAI checks req as the real API does.
func validateOpenAI(req *oaRequest) *openAIError {
	if req.Model == nil || *req.Model == "" {
		return invalidRequest("you must provide a model parameter")
	}
	if req.Stream {
		return invalidRequest("llmtest: the fake OpenAI server does not stream").withParam("stream")
	}
	if len(req.Messages) == 0 {
		return invalidRequest("Invalid 'messages': empty array. Expected an array with minimum length 1, but got an empty array instead.").withParam("messages").withCode("empty_array")
	}
	// pending holds the tool calls of the last assistant message that no
	// tool message has answered yet.
	var pending []string
	answered := map[string]bool{}
	unanswered := func(i int) *openAIError {
		var missing []string
		for _, id := range pending {
			if !answered[id] {
				missing = append(missing, id)
			}
		}
		if len(missing) == 0 {
			return nil
		}
		return invalidRequest("An assistant message with 'tool_calls' must be followed by tool messages responding to each 'tool_call_id'. The following tool_call_ids did not have response messages: %s", strings.Join(missing, ", ")).withParam(fmt.Sprintf("messages.[%d].role", i))
	}
	for i, m := range req.Messages {
		if m.Role != "tool" && len(pending) > 0 {
			if e := unanswered(i); e != nil {
				return e
			}
			pending = nil
		}
		if e := validateOpenAIContent(i, m); e != nil {
			return e
		}
		switch m.Role {
		case "system", "developer", "user":
		case "assistant":
			if isNull(m.Content) && len(m.ToolCalls) == 0 {
				return invalidRequest("Invalid value for 'content': expected a string, got null.").withParam(fmt.Sprintf("messages.[%d].content", i))
			}
			pending, answered = nil, map[string]bool{}
			for j, c := range m.ToolCalls {
				p := fmt.Sprintf("messages.[%d].tool_calls.[%d]", i, j)
				switch {
				case c.ID == "":
					return invalidRequest("Missing required parameter: '%s.id'.", p).withParam(p + ".id").withCode("missing_required_parameter")
				case c.Type != "function":
					return invalidRequest("Invalid value: '%s'. Supported values are: 'function' and 'custom'.", c.Type).withParam(p + ".type").withCode("invalid_value")
				case c.Function.Name == "":
					return invalidRequest("Missing required parameter: '%s.function.name'.", p).withParam(p + ".function.name").withCode("missing_required_parameter")
				}
				pending = append(pending, c.ID)
			}
		case "tool":
			if m.ToolCallID == nil {
				p := fmt.Sprintf("messages.[%d].tool_call_id", i)
				return invalidRequest("Missing required parameter: '%s'.", p).withParam(p).withCode("missing_required_parameter")
			}
			if !slices.Contains(pending, *m.ToolCallID) {
				return invalidRequest("Invalid parameter: messages with role 'tool' must be a response to a preceeding message with 'tool_calls'.").withParam(fmt.Sprintf("messages.[%d].role", i))
			}
			answered[*m.ToolCallID] = true
		default:
			return invalidRequest("Invalid value: '%s'. Supported values are: 'system', 'assistant', 'user', 'function', 'tool', and 'developer'.", m.Role).withParam(fmt.Sprintf("messages[%d].role", i)).withCode("invalid_value")
		}
	}
	if e := unanswered(len(req.Messages)); e != nil {
		return e
	}
	for i, t := range req.Tools {
		p := fmt.Sprintf("tools[%d]", i)
		if t.Type != "function" {
			return invalidRequest("Invalid value: '%s'. Supported values are: 'function' and 'custom'.", t.Type).withParam(p + ".type").withCode("invalid_value")
		}
		if t.Function == nil {
			return invalidRequest("Missing required parameter: '%s.function'.", p).withParam(p + ".function").withCode("missing_required_parameter")
		}
		if !openAIToolName.MatchString(t.Function.Name) {
			return invalidRequest("Invalid '%s.function.name': string does not match pattern. Expected a string that matches the pattern '^[a-zA-Z0-9_-]+$'.", p).withParam(p + ".function.name").withCode("invalid_value")
		}
		if t.Function.Parameters == nil {
			continue // a function without arguments
		}
		schema, ok := jsonObject(t.Function.Parameters)
		if !ok {
			return invalidRequest("Invalid type for '%s.function.parameters': expected an object, but got %s instead.", p, llm.JSONKind(t.Function.Parameters)).withParam(p + ".function.parameters").withCode("invalid_type")
		}
		if typ, _ := schema["type"].(string); typ != "object" {
			return invalidRequest("Invalid schema for function '%s': schema must be a JSON Schema of 'type: \"object\"', got 'type: \"%v\"'.", t.Function.Name, schema["type"]).withParam(p + ".function.parameters").withCode("invalid_function_parameters")
		}
		if t.Function.Strict {
			if problem := strictProblem(schema); problem != "" {
				return invalidRequest("Invalid schema for function '%s': %s", t.Function.Name, problem).withParam(p + ".function.parameters").withCode("invalid_function_parameters")
			}
		}
	}
	if f := req.ResponseFormat; f != nil {
		switch f.Type {
		case "text", "json_object":
		case "json_schema":
			if f.JSONSchema == nil {
				return invalidRequest("Missing required parameter: 'response_format.json_schema'.").withParam("response_format.json_schema").withCode("missing_required_parameter")
			}
			if f.JSONSchema.Name == "" {
				return invalidRequest("Missing required parameter: 'response_format.json_schema.name'.").withParam("response_format.json_schema.name").withCode("missing_required_parameter")
			}
			if !openAIToolName.MatchString(f.JSONSchema.Name) {
				return invalidRequest("Invalid 'response_format.json_schema.name': string does not match pattern. Expected a string that matches the pattern '^[a-zA-Z0-9_-]+$'.").withParam("response_format.json_schema.name").withCode("invalid_value")
			}
			schema, ok := jsonObject(f.JSONSchema.Schema)
			if !ok {
				return invalidRequest("Missing required parameter: 'response_format.json_schema.schema'.").withParam("response_format.json_schema.schema").withCode("missing_required_parameter")
			}
			if f.JSONSchema.Strict {
				if problem := strictProblem(schema); problem != "" {
					return invalidRequest("Invalid schema for response_format '%s': %s", f.JSONSchema.Name, problem).withParam("response_format").withCode("invalid_json_schema")
				}
			}
		default:
			return invalidRequest("Invalid value: '%s'. Supported values are: 'json_object', 'json_schema', and 'text'.", f.Type).withParam("response_format.type").withCode("invalid_value")
		}
	}
	return nil
}

// validateOpenAIContent checks that a message's content is a string, an
// array of content parts, or (for an assistant) null.
func validateOpenAIContent(i int, m oaMessage) *openAIError {
	if isNull(m.Content) {
		if m.Role == "assistant" {
			return nil
		}
		return invalidRequest("Invalid value for 'content': expected a string, got null.").withParam(fmt.Sprintf("messages.[%d].content", i))
	}
	if _, err := openAIText(m.Content); err != nil {
		return invalidRequest("Invalid type for 'messages[%d].content': expected one of a string or array of objects, but got %s instead.", i, llm.JSONKind(m.Content)).withParam(fmt.Sprintf("messages[%d].content", i)).withCode("invalid_type")
	}
	return nil
}

// openAIText reads a message's content: a string, or an array of parts
// whose text parts are joined.
func openAIText(raw json.RawMessage) (string, error) {
	if isNull(raw) {
		return "", nil
	}
	var s string
	if err := json.Unmarshal(raw, &s); err == nil {
		return s, nil
	}
	var parts []struct {
		Type string `json:"type"`
		Text string `json:"text"`
	}
	if err := json.Unmarshal(raw, &parts); err != nil {
		return "", err
	}
	var b strings.Builder
	for _, p := range parts {
		if p.Type == "text" {
			b.WriteString(p.Text)
		}
	}
	return b.String(), nil
}

// openAIToLLM turns a valid wire request into the request the backing
// model gets.
func openAIToLLM(req *oaRequest) *llm.Request {
	out := &llm.Request{Model: *req.Model, Temperature: req.Temperature, Seed: req.Seed}
	switch {
	case req.MaxCompletionTokens != nil:
		out.MaxTokens = *req.MaxCompletionTokens
	case req.MaxTokens != nil:
		out.MaxTokens = *req.MaxTokens
	}
	for _, m := range req.Messages {
		text, _ := openAIText(m.Content)
		msg := llm.Message{Content: text}
		switch m.Role {
		case "system", "developer":
			msg.Role = llm.RoleSystem
		case "user":
			msg.Role = llm.RoleUser
		case "assistant":
			msg.Role = llm.RoleAssistant
			for _, c := range m.ToolCalls {
				msg.ToolCalls = append(msg.ToolCalls, llm.ToolCall{ID: c.ID, Name: c.Function.Name, Arguments: rawArguments(c.Function.Arguments)})
			}
		case "tool":
			msg.Role = llm.RoleTool
			msg.ToolCallID = *m.ToolCallID
		}
		out.Messages = append(out.Messages, msg)
	}
	for _, t := range req.Tools {
		out.Tools = append(out.Tools, llm.Tool{Name: t.Function.Name, Description: t.Function.Description, Parameters: t.Function.Parameters})
	}
	if f := req.ResponseFormat; f != nil && f.Type == "json_schema" {
		out.ResponseSchema = &llm.Schema{Name: f.JSONSchema.Name, Schema: f.JSONSchema.Schema, Strict: f.JSONSchema.Strict}
	}
	return out
}

// rawArguments keeps a function's arguments as JSON: as they are when they
// are JSON, as a JSON string when not.
func rawArguments(s string) json.RawMessage {
	if json.Valid([]byte(s)) {
		return json.RawMessage(s)
	}
	b, _ := json.Marshal(s)
	return b
}

// The wire shapes of a chat completion.
type (
	oaCompletion struct {
		ID                string     `json:"id"`
		Object            string     `json:"object"`
		Created           int64      `json:"created"`
		Model             string     `json:"model"`
		Choices           []oaChoice `json:"choices"`
		Usage             oaUsage    `json:"usage"`
		ServiceTier       string     `json:"service_tier"`
		SystemFingerprint string     `json:"system_fingerprint"`
	}
	oaChoice struct {
		Index        int             `json:"index"`
		Message      oaAnswer        `json:"message"`
		Logprobs     json.RawMessage `json:"logprobs"`
		FinishReason string          `json:"finish_reason"`
	}
	oaAnswer struct {
		Role        string       `json:"role"`
		Content     *string      `json:"content"`
		Refusal     *string      `json:"refusal"`
		ToolCalls   []oaToolCall `json:"tool_calls,omitempty"`
		Annotations []any        `json:"annotations"`
	}
	oaUsage struct {
		PromptTokens            int64 `json:"prompt_tokens"`
		CompletionTokens        int64 `json:"completion_tokens"`
		TotalTokens             int64 `json:"total_tokens"`
		PromptTokensDetails     any   `json:"prompt_tokens_details"`
		CompletionTokensDetails any   `json:"completion_tokens_details"`
	}
)

// openAICompletion encodes the backing model's response as a chat.completion.
func openAICompletion(resp *llm.Response, model, id string) oaCompletion {
	if resp.Model != "" {
		model = resp.Model
	}
	answer := oaAnswer{Role: "assistant", Annotations: []any{}}
	if resp.Text != "" || len(resp.ToolCalls) == 0 {
		answer.Content = &resp.Text
	}
	for i, c := range resp.ToolCalls {
		tc := oaToolCall{ID: c.ID, Type: "function"}
		if tc.ID == "" {
			tc.ID = fmt.Sprintf("call_%s_%d", strings.TrimPrefix(id, "req_"), i+1)
		}
		tc.Function.Name = c.Name
		tc.Function.Arguments = string(c.Arguments)
		if len(c.Arguments) == 0 {
			tc.Function.Arguments = "{}"
		}
		answer.ToolCalls = append(answer.ToolCalls, tc)
	}
	u := resp.Usage
	return oaCompletion{
		ID:      "chatcmpl-" + strings.TrimPrefix(id, "req_"),
		Object:  "chat.completion",
		Created: time.Now().Unix(),
		Model:   model,
		Choices: []oaChoice{{
			Message:      answer,
			Logprobs:     json.RawMessage("null"),
			FinishReason: openAIFinish(resp),
		}},
		Usage: oaUsage{
			PromptTokens:            u.InputTokens,
			CompletionTokens:        u.OutputTokens,
			TotalTokens:             u.InputTokens + u.OutputTokens,
			PromptTokensDetails:     map[string]int64{"cached_tokens": u.CachedTokens, "audio_tokens": 0},
			CompletionTokensDetails: map[string]int64{"reasoning_tokens": 0, "audio_tokens": 0, "accepted_prediction_tokens": 0, "rejected_prediction_tokens": 0},
		},
		ServiceTier:       "default",
		SystemFingerprint: "fp_llmtest",
	}
}

func openAIFinish(resp *llm.Response) string {
	switch resp.FinishReason {
	case llm.FinishLength:
		return "length"
	case llm.FinishToolCalls:
		return "tool_calls"
	case llm.FinishFiltered:
		return "content_filter"
	case llm.FinishStop:
		return "stop"
	}
	if len(resp.ToolCalls) > 0 {
		return "tool_calls"
	}
	return "stop"
}
