package importer

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"github.com/gavelhq/gavel"
	"github.com/gavelhq/gavel/judge"
	"github.com/gavelhq/gavel/llm"
)

// An openAILine is one conversation of the OpenAI chat format: its
// messages and metadata, and usage if the line says.
type openAILine struct {
	Messages []openAIMessage            `json:"messages"`
	Metadata map[string]json.RawMessage `json:"metadata"`
	Usage    *openAIUsage               `json:"usage"`
	Model    string                     `json:"model"`
	ID       json.RawMessage            `json:"id"`
	CaseID   json.RawMessage            `json:"case_id"`
}

// An openAIMessage is one message of a conversation.
type openAIMessage struct {
	Role       string           `json:"role"`
	Content    json.RawMessage  `json:"content"`
	Name       string           `json:"name"`
	ToolCalls  []openAIToolCall `json:"tool_calls"`
	ToolCallID string           `json:"tool_call_id"`
	// FunctionCall is the legacy single call of an assistant message.
	FunctionCall *openAIFunction `json:"function_call"`
	// IsError marks a tool result as a failure (not OpenAI's: some logs
	// add it, as MCP's isError).
	IsError bool         `json:"is_error"`
	Usage   *openAIUsage `json:"usage"`
}

type openAIToolCall struct {
	ID       string         `json:"id"`
	Type     string         `json:"type"`
	Function openAIFunction `json:"function"`
}

type openAIFunction struct {
	Name      string          `json:"name"`
	Arguments json.RawMessage `json:"arguments"`
}

// openAIUsage is OpenAI's usage (prompt_tokens, completion_tokens) or the
// Responses API's and Anthropic's (input_tokens, output_tokens).
type openAIUsage struct {
	PromptTokens        int64 `json:"prompt_tokens"`
	CompletionTokens    int64 `json:"completion_tokens"`
	InputTokens         int64 `json:"input_tokens"`
	OutputTokens        int64 `json:"output_tokens"`
	PromptTokensDetails struct {
		CachedTokens int64 `json:"cached_tokens"`
	} `json:"prompt_tokens_details"`
}

func (u *openAIUsage) usage() judge.Usage {
	if u == nil {
		return judge.Usage{}
	}
	chat := judge.Usage{InputTokens: u.PromptTokens, OutputTokens: u.CompletionTokens, CachedTokens: u.PromptTokensDetails.CachedTokens}
	return chat.Add(judge.Usage{InputTokens: u.InputTokens, OutputTokens: u.OutputTokens})
}

// problem says what is wrong with the usage, as the providers say it of a
// vendor's (llm.CountProblem): the first wrong field and its problem, or
// "", "".
func (u *openAIUsage) problem() (field, problem string) {
	if u == nil {
		return "", ""
	}
	for _, c := range []struct {
		field string
		n     int64
	}{
		{"prompt_tokens", u.PromptTokens}, {"completion_tokens", u.CompletionTokens},
		{"input_tokens", u.InputTokens}, {"output_tokens", u.OutputTokens},
		{"prompt_tokens_details.cached_tokens", u.PromptTokensDetails.CachedTokens},
	} {
		if p := llm.CountProblem(c.n); p != "" {
			return c.field, p
		}
	}
	return "", ""
}

// usageProblems are the problems of a line's usage and its messages':
// counts no call can have (a negative one, more than MaxTokenCount), at
// their path.
func usageProblems(l openAILine, at func(p, format string, args ...any) Problems) Problems {
	var problems Problems
	check := func(path string, u *openAIUsage) {
		if field, problem := u.problem(); problem != "" {
			problems = append(problems, at(path+"."+field, "%s", problem)...)
		}
	}
	check("usage", l.Usage)
	for i, m := range l.Messages {
		check(fmt.Sprintf("messages[%d].usage", i), m.Usage)
	}
	return problems
}

// readOpenAI reads a JSON Lines file of conversations, one a line; blank
// lines are skipped.
func readOpenAI(path string, data []byte) ([]Case, Problems) {
	var cases []Case
	var problems Problems
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 0, 64*1024), len(data)+1)
	n := 0
	for sc.Scan() {
		n++
		line := bytes.TrimSpace(sc.Bytes())
		if len(line) == 0 {
			continue
		}
		c, ps := openAICase(path, n, line)
		problems = append(problems, ps...)
		if len(ps) == 0 {
			cases = append(cases, c)
		}
		if len(problems) > maxProblems {
			break
		}
	}
	if err := sc.Err(); err != nil {
		problems = append(problems, Problem{File: path, Line: n + 1, Message: err.Error()})
	}
	return cases, problems
}

// openAICase reads one line.
func openAICase(path string, n int, line []byte) (Case, Problems) {
	at := func(p, format string, args ...any) Problems {
		return Problems{{File: path, Line: n, Path: p, Message: fmt.Sprintf(format, args...)}}
	}
	var l openAILine
	var err error
	if line[0] == '[' {
		err = json.Unmarshal(line, &l.Messages)
	} else if line[0] == '{' {
		err = json.Unmarshal(line, &l)
		if err == nil && l.Messages == nil {
			return Case{}, at("", `a conversation is {"messages": [...], "metadata": {...}} or a list of messages: this object has no "messages"`)
		}
	} else {
		return Case{}, at("", "a line is one conversation: a JSON object with messages, or a list of messages")
	}
	if err != nil {
		_, msg := jsonProblem(line, 0, err)
		return Case{}, at("", "%s", msg)
	}
	if len(l.Messages) == 0 {
		return Case{}, at("messages", "the conversation has no messages")
	}
	if ps := usageProblems(l, at); len(ps) > 0 {
		return Case{}, ps
	}
	meta := map[string]string{}
	for k, v := range l.Metadata {
		meta[k] = metaString(v)
	}
	if l.Model != "" && meta["model"] == "" {
		meta["model"] = l.Model
	}
	source := fmt.Sprintf("%s:%d", path, n)
	meta["source"] = source
	id := caseIDFrom(meta)
	for _, raw := range []json.RawMessage{l.CaseID, l.ID} {
		if id == "" && len(raw) > 0 && string(raw) != "null" {
			id = metaString(raw)
		}
	}
	if id == "" {
		id = stem(path) + "-" + strconv.Itoa(n)
	}

	t := &judge.Transcript{Metadata: meta}
	done := answered{}
	var problems Problems
	for i, m := range l.Messages {
		p := fmt.Sprintf("messages[%d]", i)
		text, err := openAIText(m.Content)
		if err != nil {
			problems = append(problems, at(p+".content", "%v", err)...)
			continue
		}
		switch m.Role {
		case "system", "developer":
			t.Turns = append(t.Turns, judge.Turn{Role: judge.RoleSystem, Content: text})
		case "user":
			t.Turns = append(t.Turns, judge.Turn{Role: judge.RoleUser, Content: text})
		case "assistant":
			calls, ps := openAICalls(m, p, at)
			problems = append(problems, ps...)
			if last := len(t.Turns) - 1; last >= 0 && t.Turns[last].Role == judge.RoleAgent {
				// The same reply goes on: after its tool results, or in
				// another message before the user speaks again.
				turn := &t.Turns[last]
				turn.Content = joinText(turn.Content, text)
				turn.ToolCalls = append(turn.ToolCalls, calls...)
				turn.Usage = turn.Usage.Add(m.Usage.usage())
				continue
			}
			t.Turns = append(t.Turns, judge.Turn{Role: judge.RoleAgent, Content: text, ToolCalls: calls, Usage: m.Usage.usage()})
		case "tool", "function":
			problems = append(problems, openAIResult(t, done, m, text, p, at)...)
		case "":
			problems = append(problems, at(p, "the message has no role: want system, developer, user, assistant or tool")...)
		default:
			problems = append(problems, at(p+".role", "unknown role %q: want system, developer, user, assistant or tool", m.Role)...)
		}
	}
	if len(problems) > 0 {
		return Case{}, problems
	}
	finish(t, id)
	if u := l.Usage.usage(); u != (judge.Usage{}) {
		t.Usage = u
	}
	from := fmt.Sprintf("%s (openai)", source)
	return Case{ID: id, Name: meta["name"], Metadata: meta, Source: source, Trials: []gavel.Trial{trialOf(t, from)}}, nil
}

// openAIText is a message's text: a string, null, or a list of parts of
// which the text ones count (others, images and audio, are left out).
func openAIText(raw json.RawMessage) (string, error) {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || string(raw) == "null" {
		return "", nil
	}
	var s string
	if raw[0] == '"' {
		err := json.Unmarshal(raw, &s)
		return s, err
	}
	var parts []struct {
		Type string `json:"type"`
		Text string `json:"text"`
	}
	if err := json.Unmarshal(raw, &parts); err != nil {
		return "", fmt.Errorf("content is a string, null or a list of parts ({\"type\": \"text\", \"text\": ...})")
	}
	var texts []string
	for _, p := range parts {
		if strings.HasSuffix(p.Type, "text") || p.Type == "" {
			texts = append(texts, p.Text)
		}
	}
	return strings.Join(texts, "\n"), nil
}

// openAICalls are an assistant message's tool calls.
func openAICalls(m openAIMessage, p string, at func(p, format string, args ...any) Problems) ([]judge.ToolCall, Problems) {
	var out []judge.ToolCall
	var problems Problems
	fns := m.ToolCalls
	if m.FunctionCall != nil {
		fns = append(fns, openAIToolCall{Function: *m.FunctionCall})
	}
	for j, c := range fns {
		cp := fmt.Sprintf("%s.tool_calls[%d]", p, j)
		if m.FunctionCall != nil && j == len(fns)-1 {
			cp = p + ".function_call"
		}
		if c.Function.Name == "" {
			problems = append(problems, at(cp+".function.name", "a tool call needs the name of the function it calls")...)
			continue
		}
		args, err := arguments(c.Function.Arguments)
		if err != nil {
			problems = append(problems, at(cp+".function.arguments", "%v", err)...)
			continue
		}
		out = append(out, judge.ToolCall{ID: c.ID, Name: c.Function.Name, Arguments: args})
	}
	return out, problems
}

// arguments are a call's arguments as JSON: OpenAI writes them as a
// string holding JSON; an object written as is is taken too. An empty
// string is no arguments.
func arguments(raw json.RawMessage) (json.RawMessage, error) {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || string(raw) == "null" {
		return nil, nil
	}
	if raw[0] != '"' {
		var compact bytes.Buffer
		if err := json.Compact(&compact, raw); err != nil {
			return nil, fmt.Errorf("the arguments are not JSON: %v", err)
		}
		return compact.Bytes(), nil
	}
	var s string
	if err := json.Unmarshal(raw, &s); err != nil {
		return nil, err
	}
	if strings.TrimSpace(s) == "" {
		return nil, nil
	}
	if !json.Valid([]byte(s)) {
		return nil, fmt.Errorf("the arguments string does not hold JSON: %q", cut(s, 80))
	}
	var compact bytes.Buffer
	_ = json.Compact(&compact, []byte(s))
	return compact.Bytes(), nil
}

// openAIResult pairs a tool message with the call of the reply it
// answers: by tool_call_id the latest call of that id still waiting for
// its result (see answered), or, without an id, the one call still
// waiting (a legacy function message, by name).
func openAIResult(t *judge.Transcript, done answered, m openAIMessage, text, p string, at func(p, format string, args ...any) Problems) Problems {
	last := len(t.Turns) - 1
	if last < 0 || t.Turns[last].Role != judge.RoleAgent {
		return at(p, "a tool result must follow the assistant message that called the tool")
	}
	var call *judge.ToolCall
	switch id := m.ToolCallID; {
	case id != "":
		if call = done.latest(t, last, id); call == nil && hasID(t, last, id) {
			return at(p+".tool_call_id", "every call of id %q before this result has its result already", id)
		} else if call == nil {
			return at(p+".tool_call_id", "no tool call of the assistant's reply has the id %q", id)
		}
	default:
		switch refs := done.waiting(t, last, named(m.Name)); len(refs) {
		case 0:
			return at(p, "no tool call of the assistant's reply waits for this result")
		case 1:
			call = done.answer(t, refs[0])
		default:
			return at(p+".tool_call_id", "several calls wait for a result: say which this one answers with tool_call_id")
		}
	}
	call.Result = text
	call.IsError = m.IsError || errorResult(text)
	return nil
}

// errorResult reports whether a tool's result says it failed: a JSON
// object with a non-empty "error" member ({"error": "order not found"}).
// Text that merely mentions an error is a result like any other.
func errorResult(text string) bool {
	var obj map[string]json.RawMessage
	if json.Unmarshal([]byte(text), &obj) != nil {
		return false
	}
	e, ok := obj["error"]
	switch s := strings.TrimSpace(string(e)); {
	case !ok, s == "null", s == "false", s == `""`, s == "{}", s == "[]":
		return false
	}
	return true
}

// joinText joins two texts of one reply with a blank line.
func joinText(a, b string) string {
	switch {
	case a == "":
		return b
	case b == "":
		return a
	}
	return a + "\n\n" + b
}

// cut shortens s to n runes for a message.
func cut(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n]) + "…"
}
