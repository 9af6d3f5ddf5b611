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
