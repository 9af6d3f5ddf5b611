package agent_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gavelhq/gavel/agent"
	"github.com/gavelhq/gavel/judge"
	"github.com/gavelhq/gavel/llm"
	"github.com/gavelhq/gavel/llm/anthropic"
	"github.com/gavelhq/gavel/llm/llmtest"
	"github.com/gavelhq/gavel/llm/openai"
	"github.com/gavelhq/gavel/mcp"
)

// An MCP server is the builtin agent's usual toolbox.
var _ agent.Toolbox = (*mcp.Client)(nil)

// orderDesk is a toolbox with the seeds' two tools.
type orderDesk struct {
	mu        sync.Mutex
	calls     int // the calls that reached the desk
	cancelled []string
	down      bool // every call fails to reach the server
}

// called returns how many calls reached the desk.
func (d *orderDesk) called() int {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.calls
}

func (d *orderDesk) Tools(context.Context) ([]llm.Tool, error) {
	return []llm.Tool{
		{Name: "get_order_status", Description: "Look up an order's current status.", Parameters: json.RawMessage(`{"type":"object","properties":{"order_id":{"type":"string"}},"required":["order_id"]}`)},
		{Name: "cancel_order", Description: "Cancel an order.", Parameters: json.RawMessage(`{"type":"object","properties":{"order_id":{"type":"string"},"confirmation":{"type":"boolean"}},"required":["order_id","confirmation"]}`)},
	}, nil
}

func (d *orderDesk) Call(_ context.Context, name string, args json.RawMessage) (judge.ToolCall, error) {
	d.mu.Lock()
	d.calls++
	d.mu.Unlock()
	if d.down {
		return judge.ToolCall{}, errors.New("connection refused")
	}
	var a struct {
		OrderID      string `json:"order_id"`
		Confirmation bool   `json:"confirmation"`
	}
	json.Unmarshal(args, &a)
	call := judge.ToolCall{Name: name, Arguments: args, Duration: time.Millisecond}
	switch {
	case name == "get_order_status" && a.OrderID == "12345":
		call.Result = `{"status":"shipped","eta":"2026-03-15"}`
	case name == "get_order_status":
		call.Result, call.IsError = `{"error":"not found"}`, true
	case name == "cancel_order":
		d.mu.Lock()
		d.cancelled = append(d.cancelled, a.OrderID)
		d.mu.Unlock()
		call.Result = fmt.Sprintf(`{"cancelled":%v}`, a.Confirmation)
	}
	return call, nil
}

func toolCall(name, args string) llm.ToolCall {
	return llm.ToolCall{Name: name, Arguments: json.RawMessage(args)}
}

func newBuiltin(t *testing.T, model llm.Model, c agent.BuiltinConfig) *agent.Builtin {
	t.Helper()
	c.Model = model
	b, err := agent.NewBuiltin(c)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func converse(t *testing.T, a agent.Agent, session string, messages ...string) []*agent.Reply {
	t.Helper()
	ctx := context.Background()
	s, err := a.Open(ctx, session)
	if err != nil {
		t.Fatal(err)
	}
	var replies []*agent.Reply
	for _, m := range messages {
		r, err := s.Send(ctx, agent.Message{Text: m})
		if err != nil {
			t.Fatalf("send %q: %v", m, err)
		}
		replies = append(replies, r)
	}
	if err := s.Close(ctx); err != nil {
		t.Fatal(err)
	}
	return replies
}

func TestBuiltinReActLoop(t *testing.T) {
	model := &llmtest.Scripted{Rules: []llmtest.Rule{
		{Match: "where's my order", ToolCalls: []llm.ToolCall{toolCall("get_order_status", `{"order_id":"12345"}`)}},
		{Match: `"status":"shipped"`, Text: "Your order 12345 shipped and arrives on 2026-03-15."},
	}}
	b := newBuiltin(t, model, agent.BuiltinConfig{Tools: []agent.Toolbox{&orderDesk{}}})
	reply := converse(t, b, "s1", "where's my order #12345?")[0]

	if reply.Text != "Your order 12345 shipped and arrives on 2026-03-15." {
		t.Errorf("reply = %q", reply.Text)
	}
	if len(reply.ToolCalls) != 1 || reply.ToolCalls[0].Name != "get_order_status" || reply.ToolCalls[0].Result != `{"status":"shipped","eta":"2026-03-15"}` || reply.ToolCalls[0].ID == "" {
		t.Errorf("tool calls = %+v, want the lookup with its result and id", reply.ToolCalls)
	}
	if reply.Usage.InputTokens == 0 || reply.Latency <= 0 {
		t.Errorf("usage %+v, latency %v: want both counted", reply.Usage, reply.Latency)
	}
	calls := model.Calls()
	if len(calls) != 2 || len(calls[0].Tools) != 2 {
		t.Fatalf("%d model calls, tools offered %d; want 2 calls offering both tools", len(calls), len(calls[0].Tools))
	}
	last := calls[1].Messages[len(calls[1].Messages)-1]
	if last.Role != llm.RoleTool || last.ToolCallID != reply.ToolCalls[0].ID {
		t.Errorf("second call ends with %+v, want the tool result answering the call", last)
	}
}

func TestBuiltinRevivalContinuesTheConversation(t *testing.T) {
	for name, checkpoints := range map[string]func(t *testing.T) agent.Checkpoints{
		"memory":    func(*testing.T) agent.Checkpoints { return agent.MemoryCheckpoints() },
		"directory": func(t *testing.T) agent.Checkpoints { return agent.DirCheckpoints(t.TempDir()) },
	} {
		t.Run(name, func(t *testing.T) {
			store := checkpoints(t)
			model := &llmtest.Scripted{Rules: []llmtest.Rule{
				{Match: "my listings", Text: "You have 3 listings: Beach House, Mountain Cabin, City Apartment."},
				{When: func(r *llm.Request) bool {
					return strings.Contains(r.Messages[len(r.Messages)-1].Content, "first one") && mentions(r, "Beach House")
				}, Text: "The Beach House is 82% occupied."},
				{Match: "first one", Text: "Which listing do you mean?"},
			}}
			converse(t, newBuiltin(t, model, agent.BuiltinConfig{Checkpoints: store}), "thread-7", "What are my listings?")

			// A new agent over the same checkpoints: the process restarted.
			reply := converse(t, newBuiltin(t, model, agent.BuiltinConfig{Checkpoints: store}), "thread-7", "What's the occupancy for the first one?")[0]
			if reply.Text != "The Beach House is 82% occupied." {
				t.Errorf("after revival, reply = %q: the context was lost", reply.Text)
			}
			other := converse(t, newBuiltin(t, model, agent.BuiltinConfig{Checkpoints: store}), "thread-8", "What's the occupancy for the first one?")[0]
			if other.Text != "Which listing do you mean?" {
				t.Errorf("another session saw thread-7's context: %q", other.Text)
			}
		})
	}
}

func mentions(r *llm.Request, s string) bool {
	for _, m := range r.Messages {
		if strings.Contains(m.Content, s) {
			return true
		}
	}
	return false
}

func TestBuiltinSystemPrompt(t *testing.T) {
	model := &llmtest.Scripted{Rules: []llmtest.Rule{{Text: "ok"}}}
	b := newBuiltin(t, model, agent.BuiltinConfig{
		SystemPrompt: "You help with {product}. Today's date is {today}, the time {now}. Respond in {locale}. JSON looks like {\"a\": 1}.",
		Vars:         map[string]string{"product": "property listings"},
		Locale:       "fr",
		Now:          func() time.Time { return time.Date(2026, 3, 9, 23, 30, 0, 0, time.FixedZone("", 2*3600)) },
	})
	converse(t, b, "s", "hi")
	want := `You help with property listings. Today's date is 2026-03-09, the time 2026-03-09T23:30:00+02:00. Respond in fr. JSON looks like {"a": 1}.`
	if got := model.Calls()[0].Messages[0]; got.Role != llm.RoleSystem || got.Content != want {
		t.Errorf("system message = %+v, want %q", got, want)
	}

	_, err := agent.NewBuiltin(agent.BuiltinConfig{Model: model, SystemPrompt: "Be {tone}."})
	if err == nil || !strings.Contains(err.Error(), "{tone}, which has no value") {
		t.Errorf("missing variable: error = %v", err)
	}
	if _, err := agent.NewBuiltin(agent.BuiltinConfig{}); err == nil {
		t.Error("no model: no error")
	}
}

func TestBuiltinToolFailuresReachTheModel(t *testing.T) {
	tests := []struct {
		name       string
		call       llm.ToolCall
		desk       *orderDesk
		wantResult string
	}{
		{"a tool the model made up", toolCall("refund_order", `{}`), &orderDesk{}, `unknown tool "refund_order": the tools are cancel_order, get_order_status`},
		{"a tool reporting an error", toolCall("get_order_status", `{"order_id":"999"}`), &orderDesk{}, `{"error":"not found"}`},
		{"a server that cannot be reached", toolCall("get_order_status", `{"order_id":"1"}`), &orderDesk{down: true}, "the tool could not be called: connection refused"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			model := &llmtest.Scripted{Rules: []llmtest.Rule{
				{Match: "go", ToolCalls: []llm.ToolCall{tt.call}},
				{Text: "Sorry, that did not work."},
			}}
			reply := converse(t, newBuiltin(t, model, agent.BuiltinConfig{Tools: []agent.Toolbox{tt.desk}}), "s", "go")[0]
			if len(reply.ToolCalls) != 1 || !reply.ToolCalls[0].IsError || reply.ToolCalls[0].Result != tt.wantResult {
				t.Fatalf("tool calls = %+v, want one failed call with result %q", reply.ToolCalls, tt.wantResult)
			}
			if last := model.Calls()[1].Messages; !last[len(last)-1].IsError {
				t.Error("the model was not told the call failed")
			}
		})
	}
}

func TestBuiltinTurnLimit(t *testing.T) {
	model := &llmtest.Scripted{Rules: []llmtest.Rule{{ToolCalls: []llm.ToolCall{toolCall("get_order_status", `{"order_id":"12345"}`)}}}}
	b := newBuiltin(t, model, agent.BuiltinConfig{Tools: []agent.Toolbox{&orderDesk{}}, MaxTurns: 3})
	s, _ := b.Open(context.Background(), "s")
	reply, err := s.Send(context.Background(), agent.Message{Text: "loop"})
	if !errors.Is(err, agent.ErrMaxTurns) {
		t.Fatalf("error = %v, want ErrMaxTurns", err)
	}
	if reply == nil || len(reply.ToolCalls) != 3 {
		t.Errorf("reply = %+v, want the 3 calls made so far", reply)
	}
}

func TestBuiltinRefusesDuplicateToolNames(t *testing.T) {
	b := newBuiltin(t, &llmtest.Scripted{}, agent.BuiltinConfig{Tools: []agent.Toolbox{&orderDesk{}, &orderDesk{}}})
	if _, err := b.Open(context.Background(), "s"); err == nil || !strings.Contains(err.Error(), `two tool servers offer a tool named "get_order_status"`) {
		t.Errorf("error = %v, want one naming the duplicate tool", err)
	}
}

func TestBuiltinSessionsRunConcurrently(t *testing.T) {
	model := &llmtest.Scripted{Rules: []llmtest.Rule{{Text: "ok"}}}
	b := newBuiltin(t, model, agent.BuiltinConfig{Tools: []agent.Toolbox{&orderDesk{}}})
	var wg sync.WaitGroup
	for i := range 16 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			ctx := context.Background()
			s, err := b.Open(ctx, fmt.Sprintf("s%d", i))
			if err != nil {
				t.Error(err)
				return
			}
			for _, m := range []string{"hi", "again"} {
				if _, err := s.Send(ctx, agent.Message{Text: m}); err != nil {
					t.Error(err)
				}
			}
			if err := s.Close(ctx); err != nil {
				t.Error(err)
			}
		}()
	}
	wg.Wait()
	if got := len(model.Calls()); got != 32 {
		t.Errorf("%d model calls, want 32", got)
	}
}

// A vendor opens a provider's model against a fake server of that vendor
// answering with backend, as a suite's "openai:…" or "anthropic:…" model
// reaches the real API.
type vendor struct {
	name string
	open func(t *testing.T, backend llm.Model) (llm.Model, *llmtest.Fake)
}

var vendors = []vendor{
	{"openai", func(t *testing.T, backend llm.Model) (llm.Model, *llmtest.Fake) {
		srv := llmtest.NewOpenAIServer(backend)
		t.Cleanup(srv.Close)
		m, err := openai.New(openai.Config{APIKey: "sk-test", BaseURL: srv.URL, Model: "gpt-test"})
		if err != nil {
			t.Fatal(err)
		}
		return m, &srv.Fake
	}},
	{"anthropic", func(t *testing.T, backend llm.Model) (llm.Model, *llmtest.Fake) {
		srv := llmtest.NewAnthropicServer(backend)
		t.Cleanup(srv.Close)
		m, err := anthropic.New(anthropic.Config{APIKey: "sk-ant-test", BaseURL: srv.URL, Model: "claude-test"})
		if err != nil {
			t.Fatal(err)
		}
		return m, &srv.Fake
	}},
}

// send opens a session of a and sends it one message.
func send(t *testing.T, a agent.Agent, text string) (*agent.Reply, error) {
	t.Helper()
	s, err := a.Open(t.Context(), "s")
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close(t.Context())
	return s.Send(t.Context(), agent.Message{Text: text})
}

// A reply cut off by the token limit holds tool calls whose arguments may
// be cut too (a llama.cpp server sent `{ "order_id" : "`): they are not
// run, and the agent fails saying why, keeping the tokens spent.
func TestBuiltinDoesNotRunToolCallsCutOffByTheTokenLimit(t *testing.T) {
	for _, v := range vendors {
		t.Run(v.name, func(t *testing.T) {
			backend := &llmtest.Scripted{Rules: []llmtest.Rule{{ToolCalls: []llm.ToolCall{toolCall("get_order_status", `{"order_id":"12345"}`)}}}}
			model, fake := v.open(t, backend)
			fake.TruncateNext()
			desk := &orderDesk{}
			reply, err := send(t, newBuiltin(t, model, agent.BuiltinConfig{Tools: []agent.Toolbox{desk}, MaxTokens: 50}), "where's my order #12345?")
			for _, want := range []string{"cut off by the token limit (finish_reason length)", "get_order_status", "not run", "raise the agent's max_tokens (now 50)"} {
				if err == nil || !strings.Contains(err.Error(), want) {
					t.Errorf("error = %v, want one containing %q", err, want)
				}
			}
			if desk.called() != 0 {
				t.Errorf("the tool was called %d times, want never", desk.called())
			}
			if fake.Requests() != 1 {
				t.Errorf("the server got %d requests, want 1: nothing is sent after the cut reply", fake.Requests())
			}
			if reply == nil || reply.FinishReason != "length" || reply.Usage.OutputTokens == 0 || len(reply.ToolCalls) != 0 {
				t.Errorf("reply = %+v, want the cut reply: finish reason length, its tokens, no calls run", reply)
			}
		})
	}
}

// Arguments that are not a JSON object are not given to the tool: the call
// fails, the model is told why, and the history it is sent back in holds
// {} in their place, never the broken text.
func TestBuiltinInvalidArgumentsAreAFailedCall(t *testing.T) {
	const broken = `{ "order_id" : "`
	backend := &llmtest.Scripted{Rules: []llmtest.Rule{
		{When: func(r *llm.Request) bool { return r.Messages[len(r.Messages)-1].Role == llm.RoleTool }, Text: "Sorry, let me try again later."},
		{ToolCalls: []llm.ToolCall{toolCall("get_order_status", broken)}},
	}}
	model, fake := vendors[0].open(t, backend) // OpenAI's wire carries arguments as text, broken or not
	desk := &orderDesk{}
	reply, err := send(t, newBuiltin(t, model, agent.BuiltinConfig{Tools: []agent.Toolbox{desk}}), "where's my order?")
	if err != nil {
		t.Fatal(err)
	}
	if desk.called() != 0 {
		t.Errorf("the tool was called %d times, want never", desk.called())
	}
	if len(reply.ToolCalls) != 1 {
		t.Fatalf("tool calls = %+v, want the one failed call", reply.ToolCalls)
	}
	call := reply.ToolCalls[0]
	var kept string
	if !call.IsError || json.Unmarshal(call.Arguments, &kept) != nil || kept != broken || !strings.Contains(call.Result, "not a JSON object") {
		t.Errorf("call = %+v, want a failed call keeping the raw arguments as a JSON string and saying they are not a JSON object", call)
	}
	bodies := fake.Bodies()
	if len(bodies) != 2 {
		t.Fatalf("the server got %d requests, want 2", len(bodies))
	}
	var second struct {
		Messages []struct {
			Role      string `json:"role"`
			Content   string `json:"content"`
			ToolCalls []struct {
				Function struct {
					Arguments string `json:"arguments"`
				} `json:"function"`
			} `json:"tool_calls"`
		} `json:"messages"`
	}
	if err := json.Unmarshal(bodies[1], &second); err != nil {
		t.Fatal(err)
	}
	msgs := second.Messages
	if n := len(msgs); n < 2 || len(msgs[n-2].ToolCalls) != 1 || msgs[n-2].ToolCalls[0].Function.Arguments != "{}" || !strings.Contains(msgs[n-1].Content, "not a JSON object") {
		t.Errorf("the second request ends with %+v, want the call with {} and a tool error saying why", msgs)
	}
}

func TestBuiltinArgumentsMustBeAnObject(t *testing.T) {
	for _, args := range []string{`{ "order_id" : "`, `"{ \"order_id\""`, `[1,2]`, `7`, `null`} {
		t.Run(args, func(t *testing.T) {
			var history [][]llm.Message
			model := llm.Func(func(_ context.Context, req *llm.Request) (*llm.Response, error) {
				history = append(history, req.Messages)
				if len(history) == 1 {
					return &llm.Response{ToolCalls: []llm.ToolCall{{ID: "c1", Name: "get_order_status", Arguments: json.RawMessage(args)}}, FinishReason: llm.FinishToolCalls}, nil
				}
				return &llm.Response{Text: "Sorry.", FinishReason: llm.FinishStop}, nil
			})
			desk := &orderDesk{}
			reply, err := send(t, newBuiltin(t, model, agent.BuiltinConfig{Tools: []agent.Toolbox{desk}}), "go")
			if err != nil {
				t.Fatal(err)
			}
			if desk.called() != 0 || len(reply.ToolCalls) != 1 || !reply.ToolCalls[0].IsError {
				t.Fatalf("desk called %d times, calls %+v; want one failed call and no tool run", desk.called(), reply.ToolCalls)
			}
			if !json.Valid(reply.ToolCalls[0].Arguments) {
				t.Errorf("recorded arguments %s are not JSON: the transcript could not be stored", reply.ToolCalls[0].Arguments)
			}
			sent := history[1][len(history[1])-2]
			if len(sent.ToolCalls) != 1 || string(sent.ToolCalls[0].Arguments) != "{}" {
				t.Errorf("the call sent back is %+v, want its arguments as {}", sent.ToolCalls)
			}
		})
	}
}

// A loop that fails half-way returns what it did with the error: the calls
// made and the tokens spent are real, and the transcript keeps them.
func TestBuiltinFailureKeepsThePartialReply(t *testing.T) {
	down := &llm.APIError{Provider: "openai", StatusCode: 500, Message: "server error"}
	model := &llmtest.Scripted{Rules: []llmtest.Rule{
		{Match: `"status":"shipped"`, Err: down},
		{ToolCalls: []llm.ToolCall{toolCall("get_order_status", `{"order_id":"12345"}`)}},
	}}
	reply, err := send(t, newBuiltin(t, model, agent.BuiltinConfig{Tools: []agent.Toolbox{&orderDesk{}}}), "where's my order #12345?")
	if !errors.Is(err, down) {
		t.Fatalf("error = %v, want the model's error", err)
	}
	if reply == nil || len(reply.ToolCalls) != 1 || reply.Usage.InputTokens == 0 || reply.FinishReason != "tool_calls" {
		t.Errorf("reply = %+v, want the call made and the tokens of the first model call", reply)
	}
}

func TestBuiltinFinishReason(t *testing.T) {
	tests := []struct {
		name    string
		reasons []llm.FinishReason // of the model calls of one message; all but the last call a tool
		want    string
	}{
		{"a plain answer", []llm.FinishReason{llm.FinishStop}, "stop"},
		{"an answer after a tool", []llm.FinishReason{llm.FinishToolCalls, llm.FinishStop}, "stop"},
		{"a cut answer", []llm.FinishReason{llm.FinishToolCalls, llm.FinishLength}, "length"},
		{"an earlier abnormal call stays visible", []llm.FinishReason{llm.FinishFiltered, llm.FinishStop}, "filtered"},
		{"a server that says stop with tool calls", []llm.FinishReason{llm.FinishStop, llm.FinishStop}, "stop"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			n := 0
			model := llm.Func(func(context.Context, *llm.Request) (*llm.Response, error) {
				resp := &llm.Response{Text: "ok", FinishReason: tc.reasons[n]}
				if n++; n < len(tc.reasons) {
					resp.ToolCalls = []llm.ToolCall{{ID: fmt.Sprint("c", n), Name: "get_order_status", Arguments: json.RawMessage(`{"order_id":"12345"}`)}}
				}
				return resp, nil
			})
			reply, err := send(t, newBuiltin(t, model, agent.BuiltinConfig{Tools: []agent.Toolbox{&orderDesk{}}}), "go")
			if err != nil {
				t.Fatal(err)
			}
			if reply.FinishReason != tc.want {
				t.Errorf("FinishReason = %q, want %q", reply.FinishReason, tc.want)
			}
		})
	}
}

// An event reaches the builtin agent's model as a user message: "[event
// NAME]" and the payload as compact JSON, after the conversation so far.
func TestBuiltinDispatch(t *testing.T) {
	for _, tc := range []struct {
		name    string
		event   agent.Event
		want    string
		wantErr string
	}{
		{name: "payload", event: agent.Event{Name: "reminder_due", Payload: json.RawMessage("{\n  \"id\": 7\n}")}, want: `[event reminder_due] {"id":7}`},
		{name: "no payload", event: agent.Event{Name: "tick"}, want: "[event tick]"},
		{name: "null payload", event: agent.Event{Name: "tick", Payload: json.RawMessage("null")}, want: "[event tick]"},
		{name: "payload not JSON", event: agent.Event{Name: "tick", Payload: json.RawMessage("{")}, wantErr: `event "tick": the payload is not valid JSON`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m := &llmtest.Scripted{Rules: []llmtest.Rule{{Text: "noted"}}}
			b, err := agent.NewBuiltin(agent.BuiltinConfig{Model: m})
			if err != nil {
				t.Fatal(err)
			}
			s, err := b.Open(t.Context(), "s")
			if err != nil {
				t.Fatal(err)
			}
			if _, err := s.Send(t.Context(), agent.Message{Text: "hi"}); err != nil {
				t.Fatal(err)
			}
			d, ok := s.(agent.Dispatcher)
			if !ok {
				t.Fatal("the builtin agent's session is not a Dispatcher")
			}
			reply, err := d.Dispatch(t.Context(), tc.event)
			if tc.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
					t.Fatalf("got error %v, want one saying %q", err, tc.wantErr)
				}
				return
			}
			if err != nil || reply.Text != "noted" {
				t.Fatalf("got %+v, %v", reply, err)
			}
			calls := m.Calls()
			msgs := calls[len(calls)-1].Messages
			if last := msgs[len(msgs)-1]; last.Role != llm.RoleUser || last.Content != tc.want || len(msgs) != 3 {
				t.Errorf("the model read %d messages ending with %s %q, want 3 ending with user %q", len(msgs), last.Role, last.Content, tc.want)
			}
		})
	}
}

// A time the context of Open carries (agent.WithNow) is the session's
// {today}, whatever the agent's own clock says.
func TestBuiltinNowFromContext(t *testing.T) {
	model := &llmtest.Scripted{Rules: []llmtest.Rule{{Text: "ok"}}}
	b := newBuiltin(t, model, agent.BuiltinConfig{
		SystemPrompt: "Today is {today}.",
		Now:          func() time.Time { return time.Date(2026, 3, 9, 10, 0, 0, 0, time.UTC) },
	})
	ctx := agent.WithNow(t.Context(), time.Date(2030, 1, 2, 0, 0, 0, 0, time.UTC))
	s, err := b.Open(ctx, "s")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.Send(ctx, agent.Message{Text: "hi"}); err != nil {
		t.Fatal(err)
	}
	if got := model.Calls()[0].Messages[0].Content; got != "Today is 2030-01-02." {
		t.Errorf("system prompt %q, want the context's date", got)
	}
}
