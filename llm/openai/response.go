package openai

import (
	"cmp"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
	"time"

	sdk "github.com/openai/openai-go/v3"

	"github.com/gavelhq/gavel/llm"
)

// response reads a chat completion's body. A body that is not a chat
// completion is an error quoting it.
func (m *Model) response(body []byte) (*llm.Response, error) {
	var cc sdk.ChatCompletion
	if !json.Valid(body) {
		return nil, fmt.Errorf("%s: malformed response, not JSON: %s", m.provider, llm.BodyExcerpt(body))
	}
	if err := json.Unmarshal(body, &cc); err != nil {
		return nil, fmt.Errorf("%s: malformed response: %v: %s", m.provider, err, llm.BodyExcerpt(body))
	}
	if len(cc.Choices) == 0 {
		return nil, fmt.Errorf("%s: malformed response, no choices: %s", m.provider, llm.BodyExcerpt(body))
	}
	if problem := checkWire(body); problem != "" {
		return nil, fmt.Errorf("%s: malformed response: %s: %s", m.provider, problem, llm.BodyExcerpt(body))
	}
	return toResponse(&cc), nil
}

// wireCompletion holds the parts of a chat completion that the SDK reads
// too kindly: it takes a number where text belongs as its digits, and a
// negative count, or one no call can spend, as it is.
type wireCompletion struct {
	Choices []struct {
		Message struct {
			Content   json.RawMessage `json:"content"`
			Refusal   json.RawMessage `json:"refusal"`
			ToolCalls []struct {
				Function struct {
					Name      json.RawMessage `json:"name"`
					Arguments json.RawMessage `json:"arguments"`
				} `json:"function"`
			} `json:"tool_calls"`
		} `json:"message"`
	} `json:"choices"`
	Usage struct {
		PromptTokens        json.RawMessage `json:"prompt_tokens"`
		CompletionTokens    json.RawMessage `json:"completion_tokens"`
		PromptTokensDetails struct {
			CachedTokens json.RawMessage `json:"cached_tokens"`
		} `json:"prompt_tokens_details"`
	} `json:"usage"`
}

// checkWire says what is wrong with the first choice's text and the usage
// of a chat completion (body, valid JSON), or returns "": text that is not
// a string (or null), tool call names and arguments that are not strings,
// token counts that are not whole numbers of at least 0.
func checkWire(body []byte) string {
	var w wireCompletion
	if err := json.Unmarshal(body, &w); err != nil {
		return err.Error()
	}
	msg := w.Choices[0].Message
	texts := []llm.WireField{
		{Path: "choices[0].message.content", Value: msg.Content},
		{Path: "choices[0].message.refusal", Value: msg.Refusal},
	}
	for i, c := range msg.ToolCalls {
		at := fmt.Sprintf("choices[0].message.tool_calls[%d].function", i)
		texts = append(texts,
			llm.WireField{Path: at + ".name", Value: c.Function.Name},
			llm.WireField{Path: at + ".arguments", Value: c.Function.Arguments})
	}
	return cmp.Or(llm.CheckText(texts...), llm.CheckCounts(
		llm.WireField{Path: "usage.prompt_tokens", Value: w.Usage.PromptTokens},
		llm.WireField{Path: "usage.completion_tokens", Value: w.Usage.CompletionTokens},
		llm.WireField{Path: "usage.prompt_tokens_details.cached_tokens", Value: w.Usage.PromptTokensDetails.CachedTokens},
	))
}

// toResponse maps the first choice of a chat completion. Its strings are
// copied: the SDK's are cut from the whole body it parsed, which a string
// kept in a transcript would keep alive (a run of many trials holds
// every transcript until its reports are written).
func toResponse(cc *sdk.ChatCompletion) *llm.Response {
	choice := cc.Choices[0]
	msg := choice.Message
	resp := &llm.Response{
		Text:  strings.Clone(msg.Content),
		Model: strings.Clone(cc.Model),
		ID:    strings.Clone(cc.ID),
		Usage: llm.Usage{
			InputTokens:  cc.Usage.PromptTokens,
			OutputTokens: cc.Usage.CompletionTokens,
			CachedTokens: cc.Usage.PromptTokensDetails.CachedTokens,
		},
	}
	for _, c := range msg.ToolCalls {
		if c.Type != "function" && c.Type != "" {
			continue // a custom tool's call: Gavel sends no custom tools
		}
		resp.ToolCalls = append(resp.ToolCalls, llm.ToolCall{
			ID:        strings.Clone(c.ID),
			Name:      strings.Clone(c.Function.Name),
			Arguments: arguments(c.Function.Arguments),
		})
	}
	resp.FinishReason = finishReason(choice.FinishReason, len(resp.ToolCalls) > 0)
	if msg.Refusal != "" {
		resp.FinishReason = llm.FinishFiltered
		if resp.Text == "" {
			resp.Text = strings.Clone(msg.Refusal)
		}
	}
	return resp
}

// arguments keeps a tool call's arguments as JSON: as they are when valid,
// {} when empty, and as a JSON string when the model wrote invalid JSON.
func arguments(s string) json.RawMessage {
	switch {
	case strings.TrimSpace(s) == "":
		return json.RawMessage("{}")
	case json.Valid([]byte(s)):
		return json.RawMessage(s)
	}
	b, _ := json.Marshal(s)
	return b
}

func finishReason(reason string, calls bool) llm.FinishReason {
	switch reason {
	case "stop":
		return llm.FinishStop
	case "length":
		return llm.FinishLength
	case "tool_calls", "function_call":
		return llm.FinishToolCalls
	case "content_filter":
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
	return &llm.APIError{
		Provider:   provider,
		StatusCode: hr.StatusCode,
		Message:    errorMessage(body),
		Body:       llm.BodyExcerpt(body),
		RequestID:  hr.Header.Get("x-request-id"),
		RetryAfter: retryAfter(hr.Header, now),
	}
}

// errorMessage finds the explanation in an error body: OpenAI's
// {"error":{"message"}}, or the {"error":"…"} or {"message"} of
// compatible servers.
func errorMessage(body []byte) string {
	var wire struct {
		Error   json.RawMessage `json:"error"`
		Message string          `json:"message"`
	}
	if json.Unmarshal(body, &wire) != nil {
		return ""
	}
	var nested struct {
		Message string `json:"message"`
	}
	var flat string
	switch {
	case json.Unmarshal(wire.Error, &nested) == nil && nested.Message != "":
		return nested.Message
	case json.Unmarshal(wire.Error, &flat) == nil && flat != "":
		return flat
	}
	return wire.Message
}

// retryAfter reads how long the server asked to wait: retry-after-ms, which
// OpenAI sends for waits under a second, or Retry-After.
func retryAfter(h http.Header, now time.Time) time.Duration {
	if ms, err := strconv.ParseFloat(strings.TrimSpace(h.Get("retry-after-ms")), 64); err == nil && ms > 0 && ms < float64(time.Hour/time.Millisecond) {
		return time.Duration(ms * float64(time.Millisecond))
	}
	return llm.ParseRetryAfter(h, now)
}
