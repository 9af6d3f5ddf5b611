package gateway

import (
	"encoding/json"
	"fmt"
	"net/http"
	"time"
	"unicode/utf8"

	"github.com/gavelhq/gavel/llm"
)

// The wire shapes of a streamed chat completion.
type (
	oaChunk struct {
		ID                string          `json:"id"`
		Object            string          `json:"object"`
		Created           int64           `json:"created"`
		Model             string          `json:"model"`
		SystemFingerprint string          `json:"system_fingerprint"`
		Choices           []oaChunkChoice `json:"choices"`
		// Usage is null in every chunk but the last when usage is asked
		// for, and absent when not.
		Usage *json.RawMessage `json:"usage,omitempty"`
	}
	oaChunkChoice struct {
		Index        int             `json:"index"`
		Delta        oaDelta         `json:"delta"`
		Logprobs     json.RawMessage `json:"logprobs"`
		FinishReason *string         `json:"finish_reason"`
	}
	oaDelta struct {
		Role      string           `json:"role,omitempty"`
		Content   *string          `json:"content,omitempty"`
		ToolCalls []oaToolCallPart `json:"tool_calls,omitempty"`
	}
	oaToolCallPart struct {
		Index    int    `json:"index"`
		ID       string `json:"id,omitempty"`
		Type     string `json:"type,omitempty"`
		Function struct {
			Name      string `json:"name,omitempty"`
			Arguments string `json:"arguments"`
		} `json:"function"`
	}
)

// streamPiece is how many bytes of text or arguments a chunk carries at
// most: a client must put the pieces together, as it must with a real
// stream.
const streamPiece = 16

// StreamChat answers a chat completion asked with stream: true: resp as
// OpenAI streams it, server-sent events of chat.completion.chunk objects
// (the role first, then the text and each tool call's arguments in
// pieces, then the finish reason) and data: [DONE]. With includeUsage
// (stream_options.include_usage), every chunk has "usage": null and one
// more chunk, without choices, carries the usage. id, model and created
// are as ChatCompletion's.
func StreamChat(w http.ResponseWriter, resp *llm.Response, model, id string, created time.Time, includeUsage bool) {
	full := openAICompletion(resp, model, id, created)
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-cache")
	w.WriteHeader(http.StatusOK)
	flusher, _ := w.(http.Flusher)
	null := json.RawMessage("null")
	send := func(choices []oaChunkChoice, usage *json.RawMessage) bool {
		c := oaChunk{ID: full.ID, Object: "chat.completion.chunk", Created: full.Created, Model: full.Model,
			SystemFingerprint: full.SystemFingerprint, Choices: choices, Usage: usage}
		if includeUsage && usage == nil {
			c.Usage = &null
		}
		b, err := json.Marshal(c)
		if err != nil {
			panic(fmt.Sprintf("gateway: encoding a chunk: %v", err)) // its types always encode
		}
		if _, err := fmt.Fprintf(w, "data: %s\n\n", b); err != nil {
			return false // the client has gone
		}
		if flusher != nil {
			flusher.Flush()
		}
		return true
	}
	delta := func(d oaDelta) []oaChunkChoice {
		return []oaChunkChoice{{Delta: d, Logprobs: null}}
	}

	answer := full.Choices[0].Message
	empty := ""
	if !send(delta(oaDelta{Role: "assistant", Content: &empty}), nil) {
		return
	}
	if answer.Content != nil {
		for _, piece := range pieces(*answer.Content) {
			if !send(delta(oaDelta{Content: &piece}), nil) {
				return
			}
		}
	}
	for i, c := range answer.ToolCalls {
		head := oaToolCallPart{Index: i, ID: c.ID, Type: c.Type}
		head.Function.Name = c.Function.Name
		if !send(delta(oaDelta{ToolCalls: []oaToolCallPart{head}}), nil) {
			return
		}
		for _, piece := range pieces(c.Function.Arguments) {
			part := oaToolCallPart{Index: i}
			part.Function.Arguments = piece
			if !send(delta(oaDelta{ToolCalls: []oaToolCallPart{part}}), nil) {
				return
			}
		}
	}
	finish := full.Choices[0].FinishReason
	if !send([]oaChunkChoice{{Delta: oaDelta{}, Logprobs: null, FinishReason: &finish}}, nil) {
		return
	}
	if includeUsage {
		usage, err := json.Marshal(full.Usage)
		if err != nil {
			panic(fmt.Sprintf("gateway: encoding usage: %v", err))
		}
		raw := json.RawMessage(usage)
		if !send([]oaChunkChoice{}, &raw) {
			return
		}
	}
	fmt.Fprint(w, "data: [DONE]\n\n")
	if flusher != nil {
		flusher.Flush()
	}
}

// pieces cuts s into pieces of at most streamPiece bytes, on character
// boundaries.
func pieces(s string) []string {
	var out []string
	for len(s) > streamPiece {
		n := streamPiece
		for n > 0 && !utf8.RuneStart(s[n]) {
			n--
		}
		if n == 0 {
			_, n = utf8.DecodeRuneInString(s)
		}
		out = append(out, s[:n])
		s = s[n:]
	}
	if s != "" {
		out = append(out, s)
	}
	return out
}

// StreamMessage answers a Messages request asked with stream: true: resp
// as Anthropic streams it, server-sent events named by their type:
// message_start (the message without content, its input tokens),
// content_block_start, content_block_delta (text_delta pieces of a
// text, input_json_delta pieces of a tool's input) and
// content_block_stop for each block, message_delta (the stop reason and
// the output tokens) and message_stop. req and id are as Message's.
func StreamMessage(w http.ResponseWriter, resp *llm.Response, req *llm.Request, id string) {
	full := anthropicMessage(resp, req, id)
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-cache")
	w.WriteHeader(http.StatusOK)
	flusher, _ := w.(http.Flusher)
	send := func(v map[string]any) bool {
		b, err := json.Marshal(v)
		if err != nil {
			panic(fmt.Sprintf("gateway: encoding an event: %v", err)) // its values always encode
		}
		if _, err := fmt.Fprintf(w, "event: %s\ndata: %s\n\n", v["type"], b); err != nil {
			return false // the client has gone
		}
		if flusher != nil {
			flusher.Flush()
		}
		return true
	}

	start := full
	start.Content = []anBlock{}
	start.StopReason = ""
	start.Usage.OutputTokens = 0
	head, err := json.Marshal(start)
	if err != nil {
		panic(fmt.Sprintf("gateway: encoding a message: %v", err))
	}
	var message map[string]any
	json.Unmarshal(head, &message)
	message["stop_reason"] = nil
	if !send(map[string]any{"type": "message_start", "message": message}) {
		return
	}
	for i, b := range full.Content {
		block := map[string]any{"type": b.Type}
		var deltas []map[string]any
		switch b.Type {
		case "text":
			block["text"] = ""
			for _, piece := range pieces(b.Text) {
				deltas = append(deltas, map[string]any{"type": "text_delta", "text": piece})
			}
		case "tool_use":
			block["id"], block["name"], block["input"] = b.ID, b.Name, map[string]any{}
			for _, piece := range pieces(string(b.Input)) {
				deltas = append(deltas, map[string]any{"type": "input_json_delta", "partial_json": piece})
			}
		}
		if !send(map[string]any{"type": "content_block_start", "index": i, "content_block": block}) {
			return
		}
		for _, d := range deltas {
			if !send(map[string]any{"type": "content_block_delta", "index": i, "delta": d}) {
				return
			}
		}
		if !send(map[string]any{"type": "content_block_stop", "index": i}) {
			return
		}
	}
	if !send(map[string]any{"type": "message_delta", "delta": map[string]any{"stop_reason": full.StopReason, "stop_sequence": nil},
		"usage": map[string]any{"output_tokens": full.Usage.OutputTokens}}) {
		return
	}
	send(map[string]any{"type": "message_stop"})
}
