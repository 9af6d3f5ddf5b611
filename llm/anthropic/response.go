package anthropic

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"time"

	sdk "github.com/anthropics/anthropic-sdk-go"

	"github.com/gavelhq/gavel/llm"
)

// response reads a message's body. A body that is not a message is an
// error quoting it.
func (m *Model) response(body []byte, schema *llm.Schema) (*llm.Response, error) {
	if !json.Valid(body) {
		return nil, fmt.Errorf("%s: malformed response, not JSON: %s", m.provider, llm.BodyExcerpt(body))
	}
	var probe struct {
		Type string `json:"type"`
	}
	if err := json.Unmarshal(body, &probe); err != nil || probe.Type != "message" {
		return nil, fmt.Errorf("%s: malformed response, not a message: %s", m.provider, llm.BodyExcerpt(body))
	}
	var msg sdk.Message
	if err := json.Unmarshal(body, &msg); err != nil {
		return nil, fmt.Errorf("%s: malformed response: %v: %s", m.provider, err, llm.BodyExcerpt(body))
	}
	return toResponse(&msg, schema), nil
}

// toResponse maps a message. When the request asked for structured output
// (schema), the input of the forced tool is the response's Text.
func toResponse(msg *sdk.Message, schema *llm.Schema) *llm.Response {
	u := msg.Usage
	resp := &llm.Response{
		Model: msg.Model,
		Usage: llm.Usage{
			// input_tokens leaves out the tokens read from or written to
			// the cache; llm.Usage counts them in.
			InputTokens:  u.InputTokens + u.CacheReadInputTokens + u.CacheCreationInputTokens,
			OutputTokens: u.OutputTokens,
			CachedTokens: u.CacheReadInputTokens,
		},
	}
	var texts []string
	answered := false
	for _, b := range msg.Content {
		switch b.Type {
		case "text":
			texts = append(texts, b.Text)
		case "tool_use":
			input := b.Input
			if len(input) == 0 {
				input = json.RawMessage("{}")
			}
			if schema != nil && b.Name == schema.Name && !answered {
				resp.Text, answered = string(input), true
				continue
			}
			resp.ToolCalls = append(resp.ToolCalls, llm.ToolCall{ID: b.ID, Name: b.Name, Arguments: input})
		}
	}
	if !answered {
		resp.Text = strings.Join(texts, "")
	}
	resp.FinishReason = finishReason(msg.StopReason, len(resp.ToolCalls) > 0)
	if answered && resp.FinishReason == llm.FinishToolCalls && len(resp.ToolCalls) == 0 {
		resp.FinishReason = llm.FinishStop // the forced tool was the answer
	}
	return resp
}

func finishReason(reason sdk.StopReason, calls bool) llm.FinishReason {
	switch reason {
	case sdk.StopReasonEndTurn, sdk.StopReasonStopSequence:
		return llm.FinishStop
	case sdk.StopReasonMaxTokens, sdk.StopReasonModelContextWindowExceeded:
		return llm.FinishLength
	case sdk.StopReasonToolUse:
		return llm.FinishToolCalls
	case sdk.StopReasonRefusal:
		return llm.FinishFiltered
	case "":
		if calls {
			return llm.FinishToolCalls
		}
		return llm.FinishStop
	}
	return llm.FinishReason(reason)
}

// fail turns the SDK's error into the error Generate returns: an
// *llm.APIError for an error answer, the SDK's error (a network failure, a
// cancelled context) wrapped otherwise.
func (m *Model) fail(err error, hr *http.Response) error {
	if hr == nil || hr.StatusCode < 400 {
		return fmt.Errorf("%s: %w", m.provider, err)
	}
	return apiError(m.provider, hr, time.Now())
}

// apiError reads an error answer. The SDK has read its body and left a
// copy in hr.Body.
func apiError(provider string, hr *http.Response, now time.Time) *llm.APIError {
	var body []byte
	if hr.Body != nil {
		body, _ = io.ReadAll(io.LimitReader(hr.Body, 64<<10))
	}
	var wire struct {
		Error struct {
			Message string `json:"message"`
		} `json:"error"`
	}
	_ = json.Unmarshal(body, &wire)
	return &llm.APIError{
		Provider:   provider,
		StatusCode: hr.StatusCode,
		Message:    wire.Error.Message,
		Body:       llm.BodyExcerpt(body),
		RequestID:  hr.Header.Get("request-id"),
		RetryAfter: llm.ParseRetryAfter(hr.Header, now),
	}
}
