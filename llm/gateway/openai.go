package gateway

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

// An OpenAIError is the body of OpenAI's error answers: what the server
// refuses, in OpenAI's words and shape. Param and Code are null when nil.
type OpenAIError struct {
	Message string  `json:"message"`
	Type    string  `json:"type"`
	Param   *string `json:"param"`
	Code    *string `json:"code"`
}

// WithParam sets the error's param (the field at fault) and returns it.
func (e *OpenAIError) WithParam(p string) *OpenAIError { e.Param = &p; return e }

// WithCode sets the error's code and returns it.
func (e *OpenAIError) WithCode(c string) *OpenAIError { e.Code = &c; return e }

// InvalidRequest is an invalid_request_error saying what is wrong.
func InvalidRequest(format string, args ...any) *OpenAIError {
	return &OpenAIError{Message: fmt.Sprintf(format, args...), Type: "invalid_request_error"}
}

// WriteOpenAIError answers status with e, in OpenAI's shape.
func WriteOpenAIError(w http.ResponseWriter, status int, e *OpenAIError) {
	writeJSON(w, status, map[string]*OpenAIError{"error": e})
}

// OpenAIStatusError is the error OpenAI answers status with: message, or
// the API's own words for the status when message is "".
func OpenAIStatusError(status int, message string) *OpenAIError {
	e := &OpenAIError{Message: message}
	switch {
	case status == http.StatusTooManyRequests:
		e.Type = "requests"
		e.WithCode("rate_limit_exceeded")
		if e.Message == "" {
			e.Message = "Rate limit reached for requests. Please try again later."
		}
	case status == http.StatusUnauthorized:
		e.Type = "invalid_request_error"
		e.WithCode("invalid_api_key")
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
		StreamOptions       *struct {
			IncludeUsage bool `json:"include_usage"`
		} `json:"stream_options"`
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

// A ChatRequest is a valid request of OpenAI's Chat Completions API
// (POST /v1/chat/completions), decoded.
type ChatRequest struct {
	// Request is what the model is asked: the wire's model, messages,
	// tools, temperature, max_completion_tokens (or max_tokens), seed and
	// response_format (a json_schema one becomes its ResponseSchema).
	Request *llm.Request
	// Stream asks for the answer as server-sent events (StreamChat).
	Stream bool
	// IncludeUsage asks a stream to end with a chunk of usage
	// (stream_options.include_usage).
	IncludeUsage bool
}

// DecodeChat reads the body of a chat completion request and checks it
// as the real API does: the error, when it is not valid, is the 400 the
// real API answers, in its words.
func DecodeChat(body []byte) (*ChatRequest, *OpenAIError) {
	var req oaRequest
	if err := json.Unmarshal(body, &req); err != nil {
		return nil, InvalidRequest("We could not parse the JSON body of your request. (HINT: This likely means you aren't using your HTTP library correctly. The OpenAI API expects a JSON payload, but what was sent was not valid JSON.)")
	}
	if e := validateOpenAI(&req); e != nil {
		return nil, e
	}
	out := &ChatRequest{Request: openAIToLLM(&req), Stream: req.Stream}
	if req.StreamOptions != nil {
		out.IncludeUsage = req.StreamOptions.IncludeUsage
	}
	return out, nil
}

// openAIToolName is the pattern OpenAI wants of function names.
var openAIToolName = regexp.MustCompile(`^[a-zA-Z0-9_-]{1,64}$`)

// validateOpenAI checks req as the real API does.
func validateOpenAI(req *oaRequest) *OpenAIError {
	if req.Model == nil || *req.Model == "" {
		return InvalidRequest("you must provide a model parameter")
	}
	if req.StreamOptions != nil && !req.Stream {
		return InvalidRequest("The 'stream_options' parameter is only allowed when 'stream' is enabled.").WithParam("stream_options").WithCode("invalid_value")
	}
	if len(req.Messages) == 0 {
		return InvalidRequest("Invalid 'messages': empty array. Expected an array with minimum length 1, but got an empty array instead.").WithParam("messages").WithCode("empty_array")
	}
	// pending holds the tool calls of the last assistant message that no
	// tool message has answered yet.
	var pending []string
	answered := map[string]bool{}
	unanswered := func(i int) *OpenAIError {
		var missing []string
		for _, id := range pending {
			if !answered[id] {
				missing = append(missing, id)
			}
		}
		if len(missing) == 0 {
			return nil
		}
		return InvalidRequest("An assistant message with 'tool_calls' must be followed by tool messages responding to each 'tool_call_id'. The following tool_call_ids did not have response messages: %s", strings.Join(missing, ", ")).WithParam(fmt.Sprintf("messages.[%d].role", i))
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
				return InvalidRequest("Invalid value for 'content': expected a string, got null.").WithParam(fmt.Sprintf("messages.[%d].content", i))
			}
			pending, answered = nil, map[string]bool{}
			for j, c := range m.ToolCalls {
				p := fmt.Sprintf("messages.[%d].tool_calls.[%d]", i, j)
				switch {
				case c.ID == "":
					return InvalidRequest("Missing required parameter: '%s.id'.", p).WithParam(p + ".id").WithCode("missing_required_parameter")
				case c.Type != "function":
					return InvalidRequest("Invalid value: '%s'. Supported values are: 'function' and 'custom'.", c.Type).WithParam(p + ".type").WithCode("invalid_value")
				case c.Function.Name == "":
					return InvalidRequest("Missing required parameter: '%s.function.name'.", p).WithParam(p + ".function.name").WithCode("missing_required_parameter")
				}
				pending = append(pending, c.ID)
			}
		case "tool":
			if m.ToolCallID == nil {
				p := fmt.Sprintf("messages.[%d].tool_call_id", i)
				return InvalidRequest("Missing required parameter: '%s'.", p).WithParam(p).WithCode("missing_required_parameter")
			}
			if !slices.Contains(pending, *m.ToolCallID) {
				return InvalidRequest("Invalid parameter: messages with role 'tool' must be a response to a preceeding message with 'tool_calls'.").WithParam(fmt.Sprintf("messages.[%d].role", i))
			}
			answered[*m.ToolCallID] = true
		default:
			return InvalidRequest("Invalid value: '%s'. Supported values are: 'system', 'assistant', 'user', 'function', 'tool', and 'developer'.", m.Role).WithParam(fmt.Sprintf("messages[%d].role", i)).WithCode("invalid_value")
		}
	}
	if e := unanswered(len(req.Messages)); e != nil {
		return e
	}
	for i, t := range req.Tools {
		p := fmt.Sprintf("tools[%d]", i)
		if t.Type != "function" {
			return InvalidRequest("Invalid value: '%s'. Supported values are: 'function' and 'custom'.", t.Type).WithParam(p + ".type").WithCode("invalid_value")
		}
		if t.Function == nil {
			return InvalidRequest("Missing required parameter: '%s.function'.", p).WithParam(p + ".function").WithCode("missing_required_parameter")
		}
		if !openAIToolName.MatchString(t.Function.Name) {
			return InvalidRequest("Invalid '%s.function.name': string does not match pattern. Expected a string that matches the pattern '^[a-zA-Z0-9_-]+$'.", p).WithParam(p + ".function.name").WithCode("invalid_value")
		}
		if t.Function.Parameters == nil {
			continue // a function without arguments
		}
		schema, ok := jsonObject(t.Function.Parameters)
		if !ok {
			return InvalidRequest("Invalid type for '%s.function.parameters': expected an object, but got %s instead.", p, llm.JSONKind(t.Function.Parameters)).WithParam(p + ".function.parameters").WithCode("invalid_type")
		}
		if typ, _ := schema["type"].(string); typ != "object" {
			return InvalidRequest("Invalid schema for function '%s': schema must be a JSON Schema of 'type: \"object\"', got 'type: \"%v\"'.", t.Function.Name, schema["type"]).WithParam(p + ".function.parameters").WithCode("invalid_function_parameters")
		}
		if t.Function.Strict {
			if problem := strictProblem(schema); problem != "" {
				return InvalidRequest("Invalid schema for function '%s': %s", t.Function.Name, problem).WithParam(p + ".function.parameters").WithCode("invalid_function_parameters")
			}
		}
	}
	if f := req.ResponseFormat; f != nil {
		switch f.Type {
		case "text", "json_object":
		case "json_schema":
			if f.JSONSchema == nil {
				return InvalidRequest("Missing required parameter: 'response_format.json_schema'.").WithParam("response_format.json_schema").WithCode("missing_required_parameter")
			}
			if f.JSONSchema.Name == "" {
				return InvalidRequest("Missing required parameter: 'response_format.json_schema.name'.").WithParam("response_format.json_schema.name").WithCode("missing_required_parameter")
			}
			if !openAIToolName.MatchString(f.JSONSchema.Name) {
				return InvalidRequest("Invalid 'response_format.json_schema.name': string does not match pattern. Expected a string that matches the pattern '^[a-zA-Z0-9_-]+$'.").WithParam("response_format.json_schema.name").WithCode("invalid_value")
			}
			schema, ok := jsonObject(f.JSONSchema.Schema)
			if !ok {
				return InvalidRequest("Missing required parameter: 'response_format.json_schema.schema'.").WithParam("response_format.json_schema.schema").WithCode("missing_required_parameter")
			}
			if f.JSONSchema.Strict {
				if problem := strictProblem(schema); problem != "" {
					return InvalidRequest("Invalid schema for response_format '%s': %s", f.JSONSchema.Name, problem).WithParam("response_format").WithCode("invalid_json_schema")
				}
			}
		default:
			return InvalidRequest("Invalid value: '%s'. Supported values are: 'json_object', 'json_schema', and 'text'.", f.Type).WithParam("response_format.type").WithCode("invalid_value")
		}
	}
	return nil
}

// validateOpenAIContent checks that a message's content is a string, an
// array of content parts, or (for an assistant) null.
func validateOpenAIContent(i int, m oaMessage) *OpenAIError {
	if isNull(m.Content) {
		if m.Role == "assistant" {
			return nil
		}
		return InvalidRequest("Invalid value for 'content': expected a string, got null.").WithParam(fmt.Sprintf("messages.[%d].content", i))
	}
	if _, err := openAIText(m.Content); err != nil {
		return InvalidRequest("Invalid type for 'messages[%d].content': expected one of a string or array of objects, but got %s instead.", i, llm.JSONKind(m.Content)).WithParam(fmt.Sprintf("messages[%d].content", i)).WithCode("invalid_type")
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

// ChatCompletion encodes a model's response as the chat.completion OpenAI
// answers, in JSON: its id is "chatcmpl-" and id, model the model's name
// when the response does not say it, created the time of the answer.
func ChatCompletion(resp *llm.Response, model, id string, created time.Time) []byte {
	b, err := json.Marshal(openAICompletion(resp, model, id, created))
	if err != nil {
		panic(fmt.Sprintf("gateway: encoding a chat completion: %v", err)) // its types always encode
	}
	return b
}

// openAICompletion is the chat.completion of a response.
func openAICompletion(resp *llm.Response, model, id string, created time.Time) oaCompletion {
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
		Created: created.Unix(),
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
		SystemFingerprint: "fp_gavel",
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
