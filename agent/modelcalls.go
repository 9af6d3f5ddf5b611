package agent

import (
	"context"
	"fmt"
	"net/http"
	"sync"

	"github.com/gavelhq/gavel/judge"
	"github.com/gavelhq/gavel/llm"
)

// ModelCalls credits the model calls an agent makes through Gavel's model
// endpoint (an llm/gateway Server in front of Model's model) to the reply
// it is producing, as Recorded credits the calls of a recording MCP
// proxy: the endpoint cannot tell which session made a call, so the
// sessions of an agent given to Credit take turns, one message or event
// at a time across all sessions, and every call made meanwhile is the
// turn's.
//
// A call is made in the context of the turn: its trial's tally and number
// (llm.WithTally, llm.WithTrial: the trial's models table, a cache that
// keeps trials apart), its scopes (faults counted by trial) and its trace
// (the call's span is the turn's child), and it ends when the turn or the
// agent's request does. Its usage, priced by the meter, is the reply's.
//
// The zero ModelCalls is ready to use; one serves one agent.
type ModelCalls struct {
	turnOnce sync.Once
	turn     chan struct{} // full while a session's message or event is answered

	mu  sync.Mutex
	cur *modelTurn // the turn in flight, nil between turns
}

// A modelTurn is what the calls of one turn spent.
type modelTurn struct {
	ctx context.Context

	mu     sync.Mutex
	calls  int
	usage  judge.Usage
	finish string
	faults []string
}

// turnKey is the context key of the turn a model call is credited to.
type turnKey struct{}

// ModelFaultInjected notes that the model call made with ctx suffered a
// fault Gavel injected on purpose, described by fault ("rate_limit (429,
// Retry-After 1s)"): the reply the call is credited to carries it
// (Reply.ModelFaults), for the transcript, the reports and the judges.
// Outside a model call served through ModelCalls it does nothing.
func ModelFaultInjected(ctx context.Context, fault string) {
	t, ok := ctx.Value(turnKey{}).(*modelTurn)
	if !ok {
		return
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	t.faults = append(t.faults, fault)
}

// noTurn is the reason a call made while no message is being answered
// is refused: it would be credited to no trial.
const noTurn = "no message of Gavel's is being answered: the model endpoint serves the agent's calls only while it answers one (they are credited to its reply)"

// Model returns m as the endpoint serves it: each call is made in the
// context of the turn in flight and credited to its reply. A call made
// between turns is refused with a 409 (an *llm.APIError that says why).
// The request's Model is dropped: m is the model, whatever
// the agent asks for.
func (c *ModelCalls) Model(m llm.Model) llm.Model {
	return llm.Func(func(ctx context.Context, req *llm.Request) (*llm.Response, error) {
		c.mu.Lock()
		t := c.cur
		c.mu.Unlock()
		if t == nil {
			return nil, &llm.APIError{Provider: "gavel", StatusCode: http.StatusConflict, Message: noTurn}
		}
		ctx, cancel := context.WithCancel(context.WithValue(valuesOf{Context: ctx, values: t.ctx}, turnKey{}, t))
		defer cancel()
		defer context.AfterFunc(t.ctx, cancel)()
		asked := *req
		asked.Model = ""
		resp, err := m.Generate(ctx, &asked)
		if resp != nil {
			t.add(resp)
		}
		return resp, err
	})
}

// valuesOf is a context with the deadline and cancellation of its
// Context and the values of values.
type valuesOf struct {
	context.Context
	values context.Context
}

func (v valuesOf) Value(key any) any { return v.values.Value(key) }

func (t *modelTurn) add(resp *llm.Response) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.calls++
	t.usage = t.usage.Add(judge.Usage(resp.Usage))
	if !(judge.Turn{FinishReason: t.finish}).AbnormalFinish() {
		t.finish = string(resp.FinishReason)
	}
}

// Credit returns a whose replies get the usage of the model calls made
// through c.Model while they were produced (every session taking its
// turn). When the endpoint served a turn, what its reply says it spent is
// replaced by what the endpoint counted and priced, the same calls
// measured instead of reported; a reply that says no finish reason gets
// the calls' (the last call's, unless one stopped abnormally: cut off by
// the token limit, say), and the faults injected into them
// (ModelFaultInjected). A turn that fails keeps its calls' usage and
// faults, in a partial reply returned with the error.
func Credit(a Agent, c *ModelCalls) Agent { return &creditedAgent{agent: a, calls: c} }

type creditedAgent struct {
	agent Agent
	calls *ModelCalls
}

// Revival is a's.
func (a *creditedAgent) Revival() (string, error) { return Revival(a.agent) }

// TakesEvents is a's.
func (a *creditedAgent) TakesEvents() error { return TakesEvents(a.agent) }

func (a *creditedAgent) Open(ctx context.Context, sessionID string) (Session, error) {
	s, err := a.agent.Open(ctx, sessionID)
	if err != nil {
		return nil, err
	}
	cs := &creditedSession{Session: s, calls: a.calls}
	if d, ok := s.(Dispatcher); ok {
		return &creditedDispatcher{cs, d}, nil
	}
	return cs, nil
}

type creditedSession struct {
	Session
	calls *ModelCalls
}

func (s *creditedSession) Send(ctx context.Context, msg Message) (*Reply, error) {
	return s.calls.answer(ctx, func() (*Reply, error) { return s.Session.Send(ctx, msg) })
}

type creditedDispatcher struct {
	*creditedSession
	d Dispatcher
}

func (s *creditedDispatcher) Dispatch(ctx context.Context, e Event) (*Reply, error) {
	return s.calls.answer(ctx, func() (*Reply, error) { return s.d.Dispatch(ctx, e) })
}

// answer runs one turn alone, with the model calls made meanwhile
// credited to it. Waiting for its turn ends with ctx.
func (c *ModelCalls) answer(ctx context.Context, turn func() (*Reply, error)) (*Reply, error) {
	c.turnOnce.Do(func() { c.turn = make(chan struct{}, 1) })
	select {
	case c.turn <- struct{}{}:
	case <-ctx.Done():
		return nil, fmt.Errorf("waiting for the agent's other sessions to answer: %w", context.Cause(ctx))
	}
	defer func() { <-c.turn }()
	t := &modelTurn{ctx: ctx}
	c.mu.Lock()
	c.cur = t
	c.mu.Unlock()
	reply, err := turn()
	c.mu.Lock()
	c.cur = nil
	c.mu.Unlock()

	t.mu.Lock()
	defer t.mu.Unlock()
	if t.calls == 0 && len(t.faults) == 0 {
		return reply, err
	}
	if reply == nil {
		if err == nil {
			return nil, nil
		}
		reply = &Reply{}
	}
	if t.calls > 0 {
		reply.Usage = t.usage
		if reply.FinishReason == "" {
			reply.FinishReason = t.finish
		}
	}
	reply.ModelFaults = append(reply.ModelFaults, t.faults...)
	return reply, err
}
