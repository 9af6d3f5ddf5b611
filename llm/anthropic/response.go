package anthropic

import (
	"cmp"
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
	if problem := checkWire(body); problem != "" {
		return nil, fmt.Errorf("%s: malformed response: %s: %s", m.provider, problem, llm.BodyExcerpt(body))
	}
	return toResponse(&msg, schema), nil
}

// wireMessage holds the parts of a message that the SDK reads too kindly:
// it takes a number where text belongs as its digits, and a negative count,
// or one no call can spend, as it is.
type wireMessage struct {
	Content []struct {
		Type json.RawMessage `json:"type"`
		Text json.RawMessage `json:"text"`
		Name json.RawMessage `json:"name"`
	} `json:"content"`
	Usage struct {
		InputTokens              json.RawMessage `json:"input_tokens"`
		OutputTokens             json.RawMessage `json:"output_tokens"`
		CacheReadInputTokens     json.RawMessage `json:"cache_read_input_tokens"`
		CacheCreationInputTokens json.RawMessage `json:"cache_creation_input_tokens"`
	} `json:"usage"`
}

// checkWire says what is wrong with the content blocks and the usage of a
// message (body, valid JSON), or returns "": block types, text and tool
// names that are not strings, token counts that are not whole numbers of
// at least 0.
func checkWire(body []byte) string {
	var w wireMessage
	if err := json.Unmarshal(body, &w); err != nil {
		return err.Error()
	}
	var texts []llm.WireField
	for i, b := range w.Content {
		at := fmt.Sprintf("content[%d]", i)
		texts = append(texts,
			llm.WireField{Path: at + ".type", Value: b.Type},
			llm.WireField{Path: at + ".text", Value: b.Text},
			llm.WireField{Path: at + ".name", Value: b.Name})
	}
	return cmp.Or(llm.CheckText(texts...), llm.CheckCounts(
		llm.WireField{Path: "usage.input_tokens", Value: w.Usage.InputTokens},
		llm.WireField{Path: "usage.output_tokens", Value: w.Usage.OutputTokens},
		llm.WireField{Path: "usage.cache_read_input_tokens", Value: w.Usage.CacheReadInputTokens},
		llm.WireField{Path: "usage.cache_creation_input_tokens", Value: w.Usage.CacheCreationInputTokens},
	))
}

// toResponse maps a message. When the request asked for structured output
// (schema), the input of the forced tool is the response's Text.
func toResponse(msg *sdk.Message, schema *llm.Schema) *llm.Response {
	u := msg.Usage
	resp := &llm.Response{
		Model: msg.Model,
		ID:    msg.ID,
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
