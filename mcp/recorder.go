package mcp

import (
	"context"
	"sync"
	"time"

	"github.com/gavelhq/gavel/judge"
)

// A Recorder is told of every tool call a Proxy forwards. Record may be
// called from several goroutines at once (an agent may call tools in
// parallel), once per call, when the call has finished.
type Recorder interface {
	Record(call judge.ToolCall)
}

// RecorderFunc adapts an ordinary function to the Recorder interface.
type RecorderFunc func(call judge.ToolCall)

// Record calls f(call).
func (f RecorderFunc) Record(call judge.ToolCall) { f(call) }

// A Log is a Recorder that keeps the calls until they are taken, turn by
// turn. Its zero value is ready to use; it is safe for concurrent use.
type Log struct {
	mu    sync.Mutex
	calls []judge.ToolCall
	ended []time.Time // when each call was recorded
	turn  context.Context
}

// SetTurn tells the log that the calls it gets next are of the turn
// whose context is ctx (it carries the turn's trial), until SetTurn(nil)
// at the turn's end. agent.Recorded tells it, as it runs one turn at a
// time; what serves the calls over HTTP, whose requests do not say whose
// they are, asks Turn (a replay matches calls by their case).
func (l *Log) SetTurn(ctx context.Context) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.turn = ctx
}

// Turn returns the context of the turn under way (SetTurn), or nil
// between turns.
func (l *Log) Turn() context.Context {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.turn
}

// Record appends call to the log.
func (l *Log) Record(call judge.ToolCall) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.calls = append(l.calls, call)
	l.ended = append(l.ended, time.Now())
}

// Take returns the calls recorded since the last Take, in the order they
// finished, and empties the log. It returns nil when there were none.
func (l *Log) Take() []judge.ToolCall {
	calls, _ := l.TakeEnded()
	return calls
}

// TakeEnded is Take, and also says when each call was recorded: when it
// ended, for a Proxy (which records a call as it finishes), so that a
// trace shows it where it happened.
func (l *Log) TakeEnded() ([]judge.ToolCall, []time.Time) {
	l.mu.Lock()
	defer l.mu.Unlock()
	calls, ended := l.calls, l.ended
	l.calls, l.ended = nil, nil
	return calls, ended
}
