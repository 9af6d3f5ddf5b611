package agent

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/gavelhq/gavel/judge"
	"github.com/gavelhq/gavel/llm"
)

// ReplyMapping says where the parts of a Reply are in the JSON document an
// agent answers with. Each field is a JSON pointer (RFC 6901), such as
// "/output/text" or "/choices/0/message/content". The HTTP adapter reads
// replies through it, and the exec adapter reads its "reply" answers with
// the same rules.
//
// Text must be in every reply. The other parts are read when they are
// present (a missing part, or null, counts as none), and a part that is
// present with the wrong type is an error.
type ReplyMapping struct {
	// Text points to the reply's text, a string. Defaults to "/reply".
	Text string
	// ToolCalls points to the calls the agent made, an array of objects
	// {"name", "arguments", "result", "is_error", "id"}: name is required;
	// arguments is any JSON value (a string holding a JSON object or array,
	// as OpenAI sends them, is unwrapped); result is a string, or any JSON
	// value, kept as its JSON text. Defaults to "/tool_calls".
	ToolCalls string
	// InputTokens and OutputTokens point to integer token counts. Default
	// to "/usage/input_tokens" and "/usage/output_tokens".
	InputTokens  string
	OutputTokens string
	// CachedTokens points to the number of input tokens read from a prompt
	// cache, an integer; CostUSD to what the reply cost, a number. Default
	// to "/usage/cached_tokens" and "/usage/cost_usd". Counts and cost
	// below 0, or above what a reply can spend (llm.MaxTokenCount tokens,
	// llm.MaxCostUSD), are errors: they would be summed into the run's
	// usage.
	CachedTokens string
	CostUSD      string
}

// The pointers of the default mapping.
const (
	defaultTextPointer         = "/reply"
	defaultToolCallsPointer    = "/tool_calls"
	defaultInputTokensPointer  = "/usage/input_tokens"
	defaultOutputTokensPointer = "/usage/output_tokens"
	defaultCachedTokensPointer = "/usage/cached_tokens"
	defaultCostUSDPointer      = "/usage/cost_usd"
)

// replyReader is a compiled ReplyMapping.
type replyReader struct {
	text, toolCalls                   jsonPointer
	inputTokens, outputTokens, cached jsonPointer
	costUSD                           jsonPointer
}

// compile parses m's pointers, filling in the defaults; textDefault is the
// default of Text (the exec protocol's replies keep their text in "/text").
func (m ReplyMapping) compile(textDefault string) (replyReader, error) {
	var r replyReader
	for _, f := range []struct {
		field, value, def string
		dst               *jsonPointer
	}{
		{"Text", m.Text, textDefault, &r.text},
		{"ToolCalls", m.ToolCalls, defaultToolCallsPointer, &r.toolCalls},
		{"InputTokens", m.InputTokens, defaultInputTokensPointer, &r.inputTokens},
		{"OutputTokens", m.OutputTokens, defaultOutputTokensPointer, &r.outputTokens},
		{"CachedTokens", m.CachedTokens, defaultCachedTokensPointer, &r.cached},
		{"CostUSD", m.CostUSD, defaultCostUSDPointer, &r.costUSD},
	} {
		v := f.value
		if v == "" {
			v = f.def
		}
		p, err := parsePointer(v)
		if err != nil {
			return replyReader{}, fmt.Errorf("reply mapping %s: %w", f.field, err)
		}
		*f.dst = p
	}
	return r, nil
}

// read builds a Reply from a JSON document. Its errors say which part is
// wrong; the caller adds an excerpt of the document.
func (r replyReader) read(doc []byte) (*Reply, error) {
	if !json.Valid(doc) {
		return nil, errors.New("the reply is not JSON")
	}
	raw, ok := r.text.find(doc)
	if !ok {
		return nil, fmt.Errorf("the reply has no text at %s", r.text)
	}
	reply := &Reply{}
	if err := json.Unmarshal(raw, &reply.Text); err != nil || isNull(raw) {
		return nil, fmt.Errorf("the reply's text at %s is %s, want a string", r.text, llm.JSONKind(raw))
	}

	if raw, ok := r.toolCalls.find(doc); ok && !isNull(raw) {
		calls, err := readToolCalls(raw)
		if err != nil {
			return nil, fmt.Errorf("the reply's tool calls at %s: %w", r.toolCalls, err)
		}
		reply.ToolCalls = calls
	}

	counted := false // the reply gave a token count, 0 included
	for _, n := range []struct {
		p   jsonPointer
		dst *int64
	}{
		{r.inputTokens, &reply.Usage.InputTokens},
		{r.outputTokens, &reply.Usage.OutputTokens},
		{r.cached, &reply.Usage.CachedTokens},
	} {
		raw, ok := n.p.find(doc)
		if !ok || isNull(raw) {
			continue
		}
		var problem string
		if *n.dst, problem = llm.ReadCount(raw); problem != "" {
			return nil, fmt.Errorf("the reply's token count at %s %s", n.p, problem)
		}
		counted = counted || n.dst != &reply.Usage.CachedTokens
	}
	// An agent that says nothing of its input or output tokens spent
	// what nobody knows: not 0.
	reply.Usage.Unreported = !counted
	if raw, ok := r.costUSD.find(doc); ok && !isNull(raw) {
		var problem string
		if reply.Usage.CostUSD, problem = llm.ReadCost(raw); problem != "" {
			return nil, fmt.Errorf("the reply's cost at %s %s", r.costUSD, problem)
		}
	} else if reply.Usage.Tokens() > 0 {
		// Tokens spent on models Gavel cannot see: what they cost is
		// unknown, not zero.
		reply.Usage.Unpriced = true
	}
	return reply, nil
}

// wireToolCall is a tool call as agents report them.
type wireToolCall struct {
	ID        string          `json:"id"`
	Name      string          `json:"name"`
	Arguments json.RawMessage `json:"arguments"`
	Result    json.RawMessage `json:"result"`
	IsError   bool            `json:"is_error"`
}

// readToolCalls reads an array of wire tool calls.
func readToolCalls(raw json.RawMessage) ([]judge.ToolCall, error) {
	var items []json.RawMessage
	if err := json.Unmarshal(raw, &items); err != nil {
		return nil, fmt.Errorf("got %s, want an array", llm.JSONKind(raw))
	}
	calls := make([]judge.ToolCall, 0, len(items))
	for i, item := range items {
		var w wireToolCall
		if err := json.Unmarshal(item, &w); err != nil {
			return nil, fmt.Errorf("call %d is %s, want an object {name, arguments, result, is_error}", i, excerptJSON(item))
		}
		if w.Name == "" {
			return nil, fmt.Errorf("call %d has no name", i)
		}
		call := judge.ToolCall{ID: w.ID, Name: w.Name, IsError: w.IsError, Arguments: toolArguments(w.Arguments)}
		switch {
		case len(w.Result) == 0 || isNull(w.Result):
		case w.Result[0] == '"':
			_ = json.Unmarshal(w.Result, &call.Result) // valid: it came from a valid document
		default:
			var b bytes.Buffer
			_ = json.Compact(&b, w.Result)
			call.Result = b.String()
		}
		calls = append(calls, call)
	}
	return calls, nil
}

// toolArguments returns a call's arguments as JSON, unwrapping a string
// that holds a JSON object or array.
func toolArguments(raw json.RawMessage) json.RawMessage {
	if len(raw) == 0 || isNull(raw) {
		return nil
	}
	if raw[0] == '"' {
		var s string
		if json.Unmarshal(raw, &s) == nil {
			t := strings.TrimSpace(s)
			if (strings.HasPrefix(t, "{") || strings.HasPrefix(t, "[")) && json.Valid([]byte(t)) {
				return json.RawMessage(t)
			}
		}
	}
	return append(json.RawMessage(nil), raw...)
}

// isNull reports whether raw is the JSON null.
func isNull(raw json.RawMessage) bool { return string(bytes.TrimSpace(raw)) == "null" }

// maxValueExcerpt bounds the JSON values quoted in errors about a reply's
// parts.
const maxValueExcerpt = 80

// excerptJSON quotes the start of a JSON value for an error message.
func excerptJSON(raw json.RawMessage) string {
	s := string(bytes.TrimSpace(raw))
	if len(s) > maxValueExcerpt {
		s = cutUTF8(s, maxValueExcerpt) + "…"
	}
	return s
}

// A jsonPointer is a parsed JSON pointer (RFC 6901).
type jsonPointer struct {
	src    string
	tokens []string
}

// parsePointer parses s per RFC 6901: "" is the whole document, and
// anything else starts with "/", with "~1" standing for "/" and "~0" for
// "~" in its reference tokens.
func parsePointer(s string) (jsonPointer, error) {
	if s == "" {
		return jsonPointer{}, nil
	}
	if !strings.HasPrefix(s, "/") {
		return jsonPointer{}, fmt.Errorf("invalid JSON pointer %q: it must start with \"/\"", s)
	}
	tokens := strings.Split(s[1:], "/")
	for i, t := range tokens {
		for j := 0; j < len(t); j++ {
			if t[j] == '~' && (j+1 == len(t) || (t[j+1] != '0' && t[j+1] != '1')) {
				return jsonPointer{}, fmt.Errorf("invalid JSON pointer %q: \"~\" must be followed by 0 or 1", s)
			}
		}
		tokens[i] = strings.ReplaceAll(strings.ReplaceAll(t, "~1", "/"), "~0", "~")
	}
	return jsonPointer{src: s, tokens: tokens}, nil
}

// String returns the pointer as written.
func (p jsonPointer) String() string {
	if p.src == "" {
		return `"" (the whole document)`
	}
	return p.src
}

// find returns the value p points to in doc, a valid JSON document, with
// its bytes as the document has them.
func (p jsonPointer) find(doc []byte) (json.RawMessage, bool) {
	cur := json.RawMessage(doc)
	for _, tok := range p.tokens {
		switch v := bytes.TrimSpace(cur); {
		case len(v) > 0 && v[0] == '{':
			var obj map[string]json.RawMessage
			if json.Unmarshal(v, &obj) != nil {
				return nil, false
			}
			next, ok := obj[tok]
			if !ok {
				return nil, false
			}
			cur = next
		case len(v) > 0 && v[0] == '[':
			i, ok := arrayIndex(tok)
			if !ok {
				return nil, false
			}
			var arr []json.RawMessage
			if json.Unmarshal(v, &arr) != nil || i >= len(arr) {
				return nil, false
			}
			cur = arr[i]
		default:
			return nil, false
		}
	}
	return cur, true
}

// arrayIndex parses an array index token: decimal digits without leading
// zeros. "-" (past the last element) points to nothing when reading.
func arrayIndex(tok string) (int, bool) {
	if tok == "" || (len(tok) > 1 && tok[0] == '0') {
		return 0, false
	}
	for _, c := range tok {
		if c < '0' || c > '9' {
			return 0, false
		}
	}
	i, err := strconv.Atoi(tok)
	return i, err == nil
}
