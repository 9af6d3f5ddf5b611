package agent

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/gavelhq/gavel/judge"
	"github.com/gavelhq/gavel/llm"
	"github.com/gavelhq/gavel/telemetry"
)

// A Toolbox is where the builtin agent's tools come from: an MCP server
// (mcp.Client is one), or anything else that lists and calls tools.
type Toolbox interface {
	Tools(ctx context.Context) ([]llm.Tool, error)
	// Call calls a tool and returns the record of the call. A tool that
	// reports a failure is a call with IsError set, not an error; an error
	// means the tool could not be called at all.
	Call(ctx context.Context, name string, args json.RawMessage) (judge.ToolCall, error)
}

// BuiltinConfig configures a Builtin agent.
type BuiltinConfig struct {
	// SystemPrompt is the agent's harness. {today} becomes the date the
	// session opened (2006-01-02), {now} the time it opened (RFC 3339,
	// 2006-01-02T15:04:05Z07:00), both as Now tells them and in its
	// time's location; {locale} the Locale, and {name} the value of
	// Vars["name"]. A placeholder with no value is an error when the agent
	// is built.
	SystemPrompt string
	Vars         map[string]string
	// Locale fills {locale}. Defaults to "en".
	Locale string

	// Model answers; the agent's tool calls and final replies are its.
	Model llm.Model
	// Temperature and MaxTokens are sent with every call when set. A reply
	// cut off by the token limit while calling tools fails the message: its
	// calls are not run (their arguments may be cut too).
	Temperature *float64
	MaxTokens   int

	// Tools are the agent's tool sources. A tool name offered by two of
	// them is an error at the first Open.
	Tools []Toolbox
	// MaxTurns bounds the model calls for one message. Defaults to 6.
	MaxTurns int

	// Checkpoints keep conversations between Close and Open. Defaults to
	// MemoryCheckpoints.
	Checkpoints Checkpoints
	// Now tells the time for {today} and {now}: a fixed time fakes the
	// clock, so that a prompt reads the same on every run. A time the
	// context of Open carries (WithNow, a case's own) wins. Defaults to
	// time.Now.
	Now func() time.Time
}

// ErrMaxTurns is returned, wrapped, when the agent used all its model
// calls for a message without answering; the reply returned with it holds
// the tool calls made so far.
var ErrMaxTurns = errors.New("the agent reached its turn limit without answering")

// A Builtin agent is defined in configuration, as in the seeds: a
// system-prompt template, a model, tools, and a ReAct loop (the model
// calls tools until it answers, at most MaxTurns times per message).
// Closing a session saves its conversation as a checkpoint; opening the
// same id again continues it with its full context. Its sessions are
// Dispatchers: an event reaches the model as a user message (EventText).
type Builtin struct {
	c BuiltinConfig

	mu     sync.Mutex
	tools  []llm.Tool
	owners map[string]Toolbox // tool name → its toolbox
}

var placeholder = regexp.MustCompile(`\{([A-Za-z_][A-Za-z0-9_]*)\}`)

// NewBuiltin returns a Builtin agent configured by c. It is an error for
// the model to be missing or for the prompt to use a placeholder with no
// value.
func NewBuiltin(c BuiltinConfig) (*Builtin, error) {
	if c.Model == nil {
		return nil, errors.New("builtin agent: no model given")
	}
	if c.MaxTokens < 0 {
		return nil, fmt.Errorf("builtin agent: max_tokens is %d: want a positive number, or none for the provider's limit", c.MaxTokens)
	}
	if c.Locale == "" {
		c.Locale = "en"
	}
	if c.MaxTurns <= 0 {
		c.MaxTurns = 6
	}
	if c.Checkpoints == nil {
		c.Checkpoints = MemoryCheckpoints()
	}
	if c.Now == nil {
		c.Now = time.Now
	}
	for _, m := range placeholder.FindAllStringSubmatch(c.SystemPrompt, -1) {
		if name := m[1]; name != "today" && name != "now" && name != "locale" {
			if _, ok := c.Vars[name]; !ok {
				return nil, fmt.Errorf("builtin agent: the system prompt uses {%s}, which has no value: add %s to its variables", name, name)
			}
		}
	}
	return &Builtin{c: c}, nil
}

// Open starts a session, or resumes the one saved under id.
func (b *Builtin) Open(ctx context.Context, sessionID string) (Session, error) {
	tools, err := b.toolList(ctx)
	if err != nil {
		return nil, err
	}
	msgs, resumed, err := b.c.Checkpoints.Load(ctx, sessionID)
	if err != nil {
		return nil, err
	}
	if !resumed && b.c.SystemPrompt != "" {
		now, fixed := Now(ctx)
		if !fixed {
			now = b.c.Now()
		}
		msgs = []llm.Message{{Role: llm.RoleSystem, Content: b.systemPrompt(now)}}
	}
	return &builtinSession{agent: b, id: sessionID, tools: tools, msgs: msgs}, nil
}

func (b *Builtin) systemPrompt(now time.Time) string {
	return placeholder.ReplaceAllStringFunc(b.c.SystemPrompt, func(m string) string {
		switch name := m[1 : len(m)-1]; name {
		case "today":
			return now.Format(time.DateOnly)
		case "now":
			return now.Format(time.RFC3339)
		case "locale":
			return b.c.Locale
		default:
			return b.c.Vars[name]
		}
	})
}

// toolList lists the tools of every toolbox, once.
func (b *Builtin) toolList(ctx context.Context) ([]llm.Tool, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.owners != nil {
		return b.tools, nil
	}
	owners := map[string]Toolbox{}
	var tools []llm.Tool
	for _, box := range b.c.Tools {
		listed, err := box.Tools(ctx)
		if err != nil {
			return nil, fmt.Errorf("builtin agent: list tools: %w", err)
		}
		for _, t := range listed {
			if _, dup := owners[t.Name]; dup {
				return nil, fmt.Errorf("builtin agent: two tool servers offer a tool named %q: rename one", t.Name)
			}
			owners[t.Name] = box
			tools = append(tools, t)
		}
	}
	b.tools, b.owners = tools, owners
	return tools, nil
}

type builtinSession struct {
	agent *Builtin
	id    string
	tools []llm.Tool

	mu   sync.Mutex
	msgs []llm.Message
}

// Send runs the ReAct loop for one user message. When the loop fails (a
// model error, a reply cut off by the token limit, the turn limit), the
// reply so far (the tool calls made, the tokens spent, the finish reason)
// is returned with the error.
func (s *builtinSession) Send(ctx context.Context, msg Message) (*Reply, error) {
	return s.answer(ctx, msg.Text)
}

// Dispatch gives the agent an event as the model sees it: a user message
// that EventText writes ("[event reminder_due] {"id":7}"), answered by
// the same ReAct loop as a message. A system prompt that tells the model
// what events mean, and that the user did not write them, is the
// harness's business, as in production.
func (s *builtinSession) Dispatch(ctx context.Context, e Event) (*Reply, error) {
	text, err := EventText(e)
	if err != nil {
		return nil, fmt.Errorf("builtin agent: %w", err)
	}
	return s.answer(ctx, text)
}

// EventText is how the builtin agent's model sees an event: "[event
// NAME]", then a space and the payload as compact JSON when there is one.
// It is an error for the payload to be other than JSON.
func EventText(e Event) (string, error) {
	text := "[event " + e.Name + "]"
	if len(e.Payload) == 0 || string(e.Payload) == "null" {
		return text, nil
	}
	var compact bytes.Buffer
	if err := json.Compact(&compact, e.Payload); err != nil {
		return "", fmt.Errorf("event %q: the payload is not valid JSON: %w", e.Name, err)
	}
	return text + " " + compact.String(), nil
}

// answer runs the ReAct loop for one user message, text.
func (s *builtinSession) answer(ctx context.Context, text string) (*Reply, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	start := time.Now()
	s.msgs = append(s.msgs, llm.Message{Role: llm.RoleUser, Content: text})
	reply := &Reply{}
	done := func(err error) (*Reply, error) {
		reply.Latency = time.Since(start)
		return reply, err
	}
	for range s.agent.c.MaxTurns {
		resp, err := s.agent.c.Model.Generate(ctx, &llm.Request{
			Messages:    s.msgs,
			Tools:       s.tools,
			Temperature: s.agent.c.Temperature,
			MaxTokens:   s.agent.c.MaxTokens,
		})
		if err != nil {
			return done(fmt.Errorf("builtin agent: %w", err))
		}
		reply.Usage = reply.Usage.Add(judge.Usage(resp.Usage))
		reply.FinishReason = turnFinish(reply.FinishReason, resp.FinishReason)
		if resp.FinishReason == llm.FinishLength && len(resp.ToolCalls) > 0 {
			reply.Text = resp.Text
			return done(s.cutOff(resp.ToolCalls))
		}
		calls := make([]llm.ToolCall, len(resp.ToolCalls)) // as the history keeps them
		for i, call := range resp.ToolCalls {
			calls[i] = call
			if !llm.IsObject(call.Arguments) {
				calls[i].Arguments = json.RawMessage("{}")
			}
		}
		s.msgs = append(s.msgs, llm.Message{Role: llm.RoleAssistant, Content: resp.Text, ToolCalls: calls})
		if len(resp.ToolCalls) == 0 {
			reply.Text = resp.Text
			return done(nil)
		}
		for _, call := range resp.ToolCalls {
			record := s.call(ctx, call)
			reply.ToolCalls = append(reply.ToolCalls, record)
			s.msgs = append(s.msgs, llm.Message{Role: llm.RoleTool, ToolCallID: call.ID, Content: record.Result, IsError: record.IsError})
		}
	}
	return done(fmt.Errorf("builtin agent: %w (%d model calls)", ErrMaxTurns, s.agent.c.MaxTurns))
}

// turnFinish is the finish reason of a reply whose model calls so far
// ended with sofar, after one more that ended with next: the last call's,
// unless an earlier one stopped abnormally (judge.Turn.AbnormalFinish).
func turnFinish(sofar string, next llm.FinishReason) string {
	if (judge.Turn{FinishReason: sofar}).AbnormalFinish() {
		return sofar
	}
	return string(next)
}

// cutOff explains why the tool calls of a reply cut off by the token limit
// were not run: their arguments may be cut too, and acting on half a
// reply would test something else than the agent.
func (s *builtinSession) cutOff(calls []llm.ToolCall) error {
	names := make([]string, len(calls))
	for i, c := range calls {
		names[i] = c.Name
	}
	advice := "set the agent's max_tokens (unset, the provider's or the server's own limit applies)"
	if s.agent.c.MaxTokens > 0 {
		advice = fmt.Sprintf("raise the agent's max_tokens (now %d)", s.agent.c.MaxTokens)
	}
	return fmt.Errorf("builtin agent: the model's reply was cut off by the token limit (finish_reason length) while calling %s: the calls were not run; %s",
		strings.Join(names, ", "), advice)
}

// argumentsText quotes the start of a tool call's arguments as the model
// wrote them: the text of the JSON string that a provider keeps invalid
// arguments in, raw otherwise.
func argumentsText(args json.RawMessage) string {
	text := string(args)
	var s string
	if json.Unmarshal(args, &s) == nil {
		text = s
	}
	if len(text) > maxValueExcerpt {
		text = cutUTF8(text, maxValueExcerpt) + "…"
	}
	return text
}

// call calls the tool the model asked for. Whatever goes wrong (arguments
// that are not a JSON object, a tool the model made up, a server that
// fails) becomes a failed call the model sees, as a production ReAct loop
// would show it.
func (s *builtinSession) call(ctx context.Context, call llm.ToolCall) judge.ToolCall {
	failed := func(why string) judge.ToolCall {
		return judge.ToolCall{ID: call.ID, Name: call.Name, Arguments: call.Arguments, Result: why, IsError: true}
	}
	if !llm.IsObject(call.Arguments) {
		record := failed(fmt.Sprintf("the arguments are not a JSON object: %s; the tool was not called: call it again with its arguments as a JSON object", argumentsText(call.Arguments)))
		if !json.Valid(call.Arguments) {
			record.Arguments, _ = json.Marshal(string(call.Arguments)) // the raw text, kept as a JSON string
		}
		return record
	}
	s.agent.mu.Lock()
	box := s.agent.owners[call.Name]
	s.agent.mu.Unlock()
	if box == nil {
		names := make([]string, len(s.tools))
		for i, t := range s.tools {
			names[i] = t.Name
		}
		slices.Sort(names)
		return failed(fmt.Sprintf("unknown tool %q: the tools are %s", call.Name, strings.Join(names, ", ")))
	}
	start := time.Now()
	ctx, end := telemetry.StartTool(ctx, call.Name, call.ID)
	record, err := box.Call(ctx, call.Name, call.Arguments)
	if err != nil {
		injected := record.Injected // a fault a test made on purpose stays marked
		record = failed("the tool could not be called: " + err.Error())
		record.Duration, record.Injected = time.Since(start), injected
	}
	record.ID = call.ID
	end(record)
	return record
}

// Close saves the conversation as the session's checkpoint.
func (s *builtinSession) Close(ctx context.Context) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.agent.c.Checkpoints.Save(ctx, s.id, s.msgs)
}
