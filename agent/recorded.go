package agent

import (
	"context"
	"fmt"
	"time"

	"github.com/gavelhq/gavel/judge"
	"github.com/gavelhq/gavel/telemetry"
)

// A ToolLog hands over the tool calls a recording MCP proxy saw since it
// was last asked. *mcp.Log is one.
type ToolLog interface {
	Take() []judge.ToolCall
}

// Recorded returns a for an agent that does not report its tool calls,
// whose MCP servers Gavel reaches through a recording proxy that writes
// to log: every reply without tool calls of its own gets the calls the
// log received while the agent produced it.
//
// The proxy cannot tell which session made a call, so the sessions of a
// recorded agent take turns: one message or event at a time across all
// sessions, and the calls logged meanwhile belong to it. Calls logged
// between two messages (a late call, or one the agent made on its own)
// are dropped, not given to the next reply. Trials still run
// concurrently; only the agent's turns are serialized.
func Recorded(a Agent, log ToolLog) Agent {
	return &recordedAgent{agent: a, log: log, turn: make(chan struct{}, 1)}
}

type recordedAgent struct {
	agent Agent
	log   ToolLog
	turn  chan struct{} // full while a session's message or event is answered
}

func (r *recordedAgent) Open(ctx context.Context, sessionID string) (Session, error) {
	s, err := r.agent.Open(ctx, sessionID)
	if err != nil {
		return nil, err
	}
	rs := &recordedSession{Session: s, r: r}
	if d, ok := s.(Dispatcher); ok {
		return &recordedDispatcher{rs, d}, nil
	}
	return rs, nil
}

type recordedSession struct {
	Session
	r *recordedAgent
}

func (s *recordedSession) Send(ctx context.Context, msg Message) (*Reply, error) {
	return s.r.answer(ctx, func() (*Reply, error) { return s.Session.Send(ctx, msg) })
}

type recordedDispatcher struct {
	*recordedSession
	d Dispatcher
}

func (s *recordedDispatcher) Dispatch(ctx context.Context, e Event) (*Reply, error) {
	return s.r.answer(ctx, func() (*Reply, error) { return s.d.Dispatch(ctx, e) })
}

// answer runs one turn of the agent alone and gives its reply the calls
// logged meanwhile; a turn that fails keeps them too, in a partial reply
// returned with the error. Waiting for its turn ends with ctx.
func (r *recordedAgent) answer(ctx context.Context, turn func() (*Reply, error)) (*Reply, error) {
	select {
	case r.turn <- struct{}{}:
	case <-ctx.Done():
		return nil, fmt.Errorf("waiting for the agent's other sessions to answer: %w", context.Cause(ctx))
	}
	defer func() { <-r.turn }()
	r.log.Take() // calls made before this turn are not its reply's
	if tl, ok := r.log.(turnLog); ok {
		tl.SetTurn(ctx)
		defer tl.SetTurn(nil)
	}
	reply, err := turn()
	calls := r.take(ctx)
	if reply == nil && err != nil && len(calls) > 0 {
		reply = &Reply{}
	}
	if reply != nil && len(reply.ToolCalls) == 0 {
		reply.ToolCalls = calls
	}
	return reply, err
}

// A turnLog is a ToolLog told the context of each turn as it starts,
// and nil as it ends, as *mcp.Log is: what serves the calls can then
// tell whose trial they are of.
type turnLog interface {
	SetTurn(ctx context.Context)
}

// An endedLog is a ToolLog that also says when each call ended, as
// *mcp.Log does.
type endedLog interface {
	TakeEnded() ([]judge.ToolCall, []time.Time)
}

// take takes the calls the log received during a turn; when the log says
// when they ended, each is traced as a tool call of the turn (ctx's).
func (r *recordedAgent) take(ctx context.Context) []judge.ToolCall {
	log, ok := r.log.(endedLog)
	if !ok {
		return r.log.Take()
	}
	calls, ended := log.TakeEnded()
	for i, c := range calls {
		if i < len(ended) {
			telemetry.ToolCallEnded(ctx, c, ended[i])
		}
	}
	return calls
}
