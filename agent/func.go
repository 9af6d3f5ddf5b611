package agent

import (
	"context"
	"errors"
	"time"
)

// Func adapts a Go function to an Agent: an agent written in Go, run in
// process. The function gets the session id with every message and keeps
// whatever state it needs by that id, so a revived session (Open with the
// same id) finds its conversation again. A function that fails part-way
// may return its partial reply with the error (see Session.Send).
type Func func(ctx context.Context, sessionID string, msg Message) (*Reply, error)

// Open returns a session that calls f with id.
func (f Func) Open(_ context.Context, sessionID string) (Session, error) {
	return funcSession{f: f, id: sessionID}, nil
}

type funcSession struct {
	f  Func
	id string
}

func (s funcSession) Send(ctx context.Context, msg Message) (*Reply, error) {
	start := time.Now()
	reply, err := s.f(ctx, s.id, msg)
	return finish(reply, err, start)
}

func (s funcSession) Close(context.Context) error { return nil }

// finish checks what an adapter got from an agent and fills in the
// latency the agent did not report. A partial reply returned with an error
// is kept.
func finish(reply *Reply, err error, start time.Time) (*Reply, error) {
	if reply == nil && err == nil {
		return nil, errors.New("the agent returned no reply and no error")
	}
	if reply != nil && reply.Latency == 0 {
		reply.Latency = time.Since(start)
	}
	return reply, err
}
