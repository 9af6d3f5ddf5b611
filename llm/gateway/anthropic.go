package gateway

import (
	"encoding/json"
	"fmt"
	"net/http"
	"regexp"
	"slices"
	"strings"

	"github.com/gavelhq/gavel/llm"
)

// anthropicError is the body of Anthropic's error answers.
type anthropicError struct {
	Type  string `json:"type"` // "error"
	Error struct {
		Type    string `json:"type"`
		Message string `json:"message"`
	} `json:"error"`
	RequestID string `json:"request_id,omitempty"`
}

// WriteAnthropicError answers status with message in Anthropic's error
// shape (its error type is the status's); message "" is the API's own
// words for the status. The request id is the request-id header's.
func WriteAnthropicError(w http.ResponseWriter, status int, message string) {
	e := anthropicError{Type: "error", RequestID: w.Header().Get("request-id")}
	e.Error.Type = anthropicErrorType(status)
	e.Error.Message = message
	if message == "" {
		e.Error.Message = anthropicStatusMessage(status)
	}
	writeJSON(w, status, e)
}

func anthropicErrorType(status int) string {
	switch status {
	case http.StatusBadRequest:
		return "invalid_request_error"
	case http.StatusUnauthorized:
		return "authentication_error"
	case http.StatusForbidden:
		return "permission_error"
	case http.StatusNotFound:
		return "not_found_error"
	case http.StatusRequestEntityTooLarge:
		return "request_too_large"
	case http.StatusTooManyRequests:
		return "rate_limit_error"
	case 529:
		return "overloaded_error"
	}
	if status >= 500 {
		return "api_error"
	}
	return "invalid_request_error"
}

func anthropicStatusMessage(status int) string {
	switch status {
	case http.StatusTooManyRequests:
		return "Number of requests has exceeded your rate limit. Please try again later."
	case http.StatusUnauthorized:
		return "invalid x-api-key"
	case 529:
		return "Overloaded"
	case http.StatusInternalServerError:
		return "Internal server error"
	}
	if t := http.StatusText(status); t != "" {
		return t
	}
	return fmt.Sprintf("HTTP %d", status)
}

// The wire shapes of a messages request.
type (
	anRequest struct {
		Model       *string         `json:"model"`
		MaxTokens   *int            `json:"max_tokens"`
		Messages    []anMessage     `json:"messages"`
		System      json.RawMessage `json:"system"`
		Tools       []anTool        `json:"tools"`
		ToolChoice  *anToolChoice   `json:"tool_choice"`
		Temperature *float64        `json:"temperature"`
		Stream      bool            `json:"stream"`
	}
	anMessage struct {
		Role    string          `json:"role"`
		Content json.RawMessage `json:"content"`
	}
	anBlock struct {
		Type      string          `json:"type"`
		Text      string          `json:"text,omitempty"`
		ID        string          `json:"id,omitempty"`
		Name      string          `json:"name,omitempty"`
		Input     json.RawMessage `json:"input,omitempty"`
		ToolUseID string          `json:"tool_use_id,omitempty"`
		Content   json.RawMessage `json:"content,omitempty"`
		IsError   bool            `json:"is_error,omitempty"`
	}
	anTool struct {
		Type        string          `json:"type"`
		Name        string          `json:"name"`
		Description string          `json:"description"`
		InputSchema json.RawMessage `json:"input_schema"`
	}
	anToolChoice struct {
		Type string `json:"type"`
		Name string `json:"name"`
	}
)

// DecodeMessages reads the body of a Messages API request
// (POST /v1/messages) and checks it as the real API does: the problem,
// when it is not valid, is the message of the 400 the real API answers.
// A tool_choice that forces one tool becomes the request's
// ResponseSchema, as Anthropic's clients ask for structured output.
// stream says whether the request asks for server-sent events.
func DecodeMessages(body []byte) (req *llm.Request, stream bool, problem string) {
	var wire anRequest
	if err := json.Unmarshal(body, &wire); err != nil {
		return nil, false, "There was an issue with the request body: it is not valid JSON."
	}
	blocks, problem := validateAnthropic(&wire)
	if problem != "" {
		return nil, false, problem
	}
	return anthropicToLLM(&wire, blocks), wire.Stream, ""
}

// anthropicToolName is the pattern Anthropic wants of tool names.
var anthropicToolName = regexp.MustCompile(`^[a-zA-Z0-9_-]{1,128}$`)

// validateAnthropic checks req as the real API does, and returns each
// message's content blocks, or the message of the 400 to answer.
func validateAnthropic(req *anRequest) ([][]anBlock, string) {
	switch {
	case req.Model == nil || *req.Model == "":
		return nil, "model: Field required"
	case req.MaxTokens == nil:
		return nil, "max_tokens: Field required"
	case *req.MaxTokens < 1:
		return nil, "max_tokens: Input should be greater than or equal to 1"
	case req.Temperature != nil && *req.Temperature < 0:
		return nil, "temperature: Input should be greater than or equal to 0"
	case req.Temperature != nil && *req.Temperature > 1:
		return nil, "temperature: Input should be less than or equal to 1"
	}
	if _, problem := anthropicSystem(req.System); problem != "" {
		return nil, "system: " + problem
	}
	if len(req.Messages) == 0 {
		return nil, "messages: at least one message is required"
	}

	all := make([][]anBlock, len(req.Messages))
	for i, m := range req.Messages {
		switch m.Role {
		case "user", "assistant":
		case "system":
			return nil, fmt.Sprintf(`messages.%d.role: Unexpected role "system". The Messages API accepts a top-level `+"`system`"+` parameter, not "system" as an input message role.`, i)
		default:
			return nil, fmt.Sprintf("messages.%d.role: Input should be 'user' or 'assistant'", i)
		}
		if i == 0 && m.Role != "user" {
			return nil, `messages: first message must use the "user" role`
		}
		if i > 0 && m.Role == req.Messages[i-1].Role {
			return nil, fmt.Sprintf(`messages: roles must alternate between "user" and "assistant", but found multiple %q roles in a row`, m.Role)
		}
		blocks, problem := anthropicBlocks(m.Content)
		if problem != "" {
			return nil, fmt.Sprintf("messages.%d.content: %s", i, problem)
		}
		last := i == len(req.Messages)-1
		if len(blocks) == 0 && !(last && m.Role == "assistant") {
			return nil, fmt.Sprintf("messages.%d: all messages must have non-empty content except for the optional final assistant message", i)
		}
		all[i] = blocks
		if msg := validateAnthropicBlocks(i, m.Role, blocks, all); msg != "" {
			return nil, msg
		}
	}
	// Every tool_use must be answered in the next message.
	for i := 0; i+1 < len(all); i++ {
		var missing []string
		for _, b := range all[i] {
			if b.Type == "tool_use" && !slices.ContainsFunc(all[i+1], func(r anBlock) bool { return r.Type == "tool_result" && r.ToolUseID == b.ID }) {
				missing = append(missing, b.ID)
			}
		}
		if len(missing) > 0 {
			return nil, fmt.Sprintf("messages.%d: `tool_use` ids were found without `tool_result` blocks immediately after: %s. Each `tool_use` block must have a corresponding `tool_result` block in the next message.", i, strings.Join(missing, ", "))
		}
	}

	names := map[string]bool{}
	for i, t := range req.Tools {
		if t.Type != "" && t.Type != "custom" {
			return nil, fmt.Sprintf("tools.%d.type: server tools (%q) are not served here: give custom tools", i, t.Type)
		}
		if t.Name == "" {
			return nil, fmt.Sprintf("tools.%d.custom.name: Field required", i)
		}
		if !anthropicToolName.MatchString(t.Name) {
			return nil, fmt.Sprintf("tools.%d.custom.name: String should match pattern '^[a-zA-Z0-9_-]{1,128}$'", i)
		}
		if names[t.Name] {
			return nil, "tools: Tool names must be unique."
		}
		names[t.Name] = true
		schema, ok := jsonObject(t.InputSchema)
		if !ok {
			return nil, fmt.Sprintf("tools.%d.custom.input_schema: Field required", i)
		}
		if typ, _ := schema["type"].(string); typ != "object" {
			return nil, fmt.Sprintf("tools.%d.custom.input_schema.type: Input should be 'object'", i)
		}
	}
	if c := req.ToolChoice; c != nil {
		switch c.Type {
		case "auto", "any", "none":
		case "tool":
			if c.Name == "" {
				return nil, "tool_choice.tool.name: Field required"
			}
			if !names[c.Name] {
				return nil, fmt.Sprintf("tool_choice.tool.name: tool %q was not found in tools", c.Name)
			}
		default:
			return nil, fmt.Sprintf("tool_choice: Input tag '%s' found using 'type' does not match any of the expected tags: 'auto', 'any', 'tool', 'none'", c.Type)
		}
		if c.Type != "none" && len(req.Tools) == 0 {
			return nil, "tool_choice: tool_choice may only be specified while providing tools"
		}
	}
	return all, ""
}

// validateAnthropicBlocks checks the content blocks of message i.
func validateAnthropicBlocks(i int, role string, blocks []anBlock, all [][]anBlock) string {
	for j, b := range blocks {
		where := fmt.Sprintf("messages.%d.content.%d", i, j)
		switch b.Type {
		case "text":
			if b.Text == "" {
				return where + ".text: text content blocks must be non-empty"
			}
		case "image", "document":
			if role != "user" {
				return fmt.Sprintf("%s.type: %s blocks are only allowed in user messages", where, b.Type)
			}
		case "thinking", "redacted_thinking":
			if role != "assistant" {
				return fmt.Sprintf("%s.type: %s blocks are only allowed in assistant messages", where, b.Type)
			}
		case "tool_use":
			switch {
			case role != "assistant":
				return where + ".type: tool_use blocks are only allowed in assistant messages"
			case b.ID == "":
				return where + ".tool_use.id: Field required"
			case b.Name == "":
				return where + ".tool_use.name: Field required"
			}
			if _, ok := jsonObject(b.Input); !ok {
				return where + ".tool_use.input: Input should be a valid dictionary"
			}
		case "tool_result":
			if role != "user" {
				return where + ".type: tool_result blocks are only allowed in user messages"
			}
			if b.ToolUseID == "" {
				return where + ".tool_result.tool_use_id: Field required"
			}
			if _, problem := anthropicResultText(b.Content); problem != "" {
				return where + ".tool_result.content: " + problem
			}
			if i == 0 || !slices.ContainsFunc(all[i-1], func(u anBlock) bool { return u.Type == "tool_use" && u.ID == b.ToolUseID }) {
				return fmt.Sprintf("%s: unexpected `tool_use_id` found in `tool_result` blocks: %s. Each `tool_result` block must have a corresponding `tool_use` block in the previous message.", where, b.ToolUseID)
			}
			if j > 0 && blocks[j-1].Type != "tool_result" {
				return where + ": `tool_result` blocks must come before any other content in a user message"
			}
		default:
			return fmt.Sprintf("%s.type: Input tag '%s' found using 'type' does not match any of the expected tags", where, b.Type)
		}
	}
	return ""
}

// anthropicBlocks reads a message's content: a string (one text block) or
// an array of blocks.
func anthropicBlocks(raw json.RawMessage) ([]anBlock, string) {
	if isNull(raw) {
		return nil, "Field required"
	}
	var s string
	if err := json.Unmarshal(raw, &s); err == nil {
		if s == "" {
			return nil, ""
		}
		return []anBlock{{Type: "text", Text: s}}, ""
	}
	var blocks []anBlock
	if err := json.Unmarshal(raw, &blocks); err != nil {
		return nil, "Input should be a valid list"
	}
	return blocks, ""
}

// anthropicSystem reads the top-level system: a string or an array of
// text blocks.
func anthropicSystem(raw json.RawMessage) (text, problem string) {
	if isNull(raw) {
		return "", ""
	}
	var s string
	if err := json.Unmarshal(raw, &s); err == nil {
		return s, ""
	}
	var blocks []anBlock
	if err := json.Unmarshal(raw, &blocks); err != nil {
		return "", "Input should be a valid string or a list of text blocks"
	}
	texts := make([]string, 0, len(blocks))
	for j, b := range blocks {
		if b.Type != "text" {
			return "", fmt.Sprintf("%d.type: Input should be 'text'", j)
		}
		if b.Text == "" {
			return "", fmt.Sprintf("%d.text: text content blocks must be non-empty", j)
		}
		texts = append(texts, b.Text)
	}
	return strings.Join(texts, "\n"), ""
}

// anthropicResultText reads a tool_result's content: absent, a string, or
// an array of blocks whose text is joined.
func anthropicResultText(raw json.RawMessage) (text, problem string) {
	if isNull(raw) {
		return "", ""
	}
	var s string
	if err := json.Unmarshal(raw, &s); err == nil {
		return s, ""
	}
	var blocks []anBlock
	if err := json.Unmarshal(raw, &blocks); err != nil {
		return "", "Input should be a valid string or a list of blocks"
	}
	var texts []string
	for j, b := range blocks {
		if b.Type == "text" {
			if b.Text == "" {
				return "", fmt.Sprintf("%d.text: text content blocks must be non-empty", j)
			}
			texts = append(texts, b.Text)
		}
	}
	return strings.Join(texts, "\n"), ""
}

// anthropicToLLM turns a valid wire request into the request the backing
// model gets. A forced tool becomes the ResponseSchema.
func anthropicToLLM(req *anRequest, all [][]anBlock) *llm.Request {
	out := &llm.Request{Model: *req.Model, MaxTokens: *req.MaxTokens, Temperature: req.Temperature}
	if system, _ := anthropicSystem(req.System); system != "" {
		out.Messages = append(out.Messages, llm.Message{Role: llm.RoleSystem, Content: system})
	}
	for i, m := range req.Messages {
		var texts []string
		var calls []llm.ToolCall
		for _, b := range all[i] {
			switch b.Type {
			case "text":
				texts = append(texts, b.Text)
			case "tool_use":
				calls = append(calls, llm.ToolCall{ID: b.ID, Name: b.Name, Arguments: b.Input})
			case "tool_result":
				text, _ := anthropicResultText(b.Content)
				out.Messages = append(out.Messages, llm.Message{Role: llm.RoleTool, ToolCallID: b.ToolUseID, Content: text, IsError: b.IsError})
			}
		}
		if len(texts) == 0 && len(calls) == 0 {
			continue
		}
		role := llm.RoleUser
		if m.Role == "assistant" {
			role = llm.RoleAssistant
		}
		out.Messages = append(out.Messages, llm.Message{Role: role, Content: strings.Join(texts, "\n"), ToolCalls: calls})
	}
	forced := ""
	if c := req.ToolChoice; c != nil && c.Type == "tool" {
		forced = c.Name
	}
	for _, t := range req.Tools {
		if t.Name == forced {
			out.ResponseSchema = &llm.Schema{Name: t.Name, Schema: t.InputSchema}
			continue
		}
		out.Tools = append(out.Tools, llm.Tool{Name: t.Name, Description: t.Description, Parameters: t.InputSchema})
	}
	return out
}

// The wire shapes of a message.
type (
	anAnswer struct {
		ID           string    `json:"id"`
		Type         string    `json:"type"`
		Role         string    `json:"role"`
		Model        string    `json:"model"`
		Content      []anBlock `json:"content"`
		StopReason   string    `json:"stop_reason"`
		StopSequence *string   `json:"stop_sequence"`
		Usage        anUsage   `json:"usage"`
	}
	anUsage struct {
		InputTokens              int64  `json:"input_tokens"`
		OutputTokens             int64  `json:"output_tokens"`
		CacheReadInputTokens     int64  `json:"cache_read_input_tokens"`
		CacheCreationInputTokens int64  `json:"cache_creation_input_tokens"`
		ServiceTier              string `json:"service_tier"`
	}
)

// Message encodes a model's response to req as the message Anthropic
// answers, in JSON: its id is "msg_" and id. A forced tool's answer (a
// ResponseSchema's), when a JSON object, is the tool_use block of that
// tool; a text that is not one comes back as a text block, as if the
// model had ignored the tool.
func Message(resp *llm.Response, req *llm.Request, id string) []byte {
	b, err := json.Marshal(anthropicMessage(resp, req, id))
	if err != nil {
		panic(fmt.Sprintf("gateway: encoding a message: %v", err)) // its types always encode
	}
	return b
}

// anthropicMessage encodes the backing model's response as a message.
// Anthropic counts cache reads apart from input_tokens, so the response's
// CachedTokens are taken out of its InputTokens.
func anthropicMessage(resp *llm.Response, req *llm.Request, id string) anAnswer {
	suffix := strings.TrimPrefix(id, "req_")
	out := anAnswer{ID: "msg_" + suffix, Type: "message", Role: "assistant", Model: req.Model, Content: []anBlock{}}
	if resp.Model != "" {
		out.Model = resp.Model
	}
	if s := req.ResponseSchema; s != nil && len(resp.ToolCalls) == 0 {
		if _, ok := jsonObject(json.RawMessage(resp.Text)); ok {
			out.Content = append(out.Content, anBlock{Type: "tool_use", ID: "toolu_" + suffix + "_1", Name: s.Name, Input: json.RawMessage(resp.Text)})
			out.StopReason = "tool_use"
		}
	}
	if out.StopReason == "" {
		if resp.Text != "" {
			out.Content = append(out.Content, anBlock{Type: "text", Text: resp.Text})
		}
		for i, c := range resp.ToolCalls {
			b := anBlock{Type: "tool_use", ID: c.ID, Name: c.Name, Input: c.Arguments}
			if b.ID == "" {
				b.ID = fmt.Sprintf("toolu_%s_%d", suffix, i+1)
			}
			if _, ok := jsonObject(b.Input); !ok {
				b.Input = json.RawMessage("{}") // the wire carries objects only: none, or cut off
			}
			out.Content = append(out.Content, b)
		}
		out.StopReason = anthropicStop(resp)
	}
	u := resp.Usage
	out.Usage = anUsage{
		InputTokens:          max(u.InputTokens-u.CachedTokens, 0),
		OutputTokens:         u.OutputTokens,
		CacheReadInputTokens: u.CachedTokens,
		ServiceTier:          "standard",
	}
	return out
}

func anthropicStop(resp *llm.Response) string {
	switch resp.FinishReason {
	case llm.FinishLength:
		return "max_tokens"
	case llm.FinishToolCalls:
		return "tool_use"
	case llm.FinishFiltered:
		return "refusal"
	case llm.FinishStop:
		return "end_turn"
	}
	if len(resp.ToolCalls) > 0 {
		return "tool_use"
	}
	return "end_turn"
}
