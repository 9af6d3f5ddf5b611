package agent

import (
	"context"
	"time"
)

type nowKey struct{}

// WithNow returns ctx carrying a fixed time: the time it is for the agent,
// in the case that opens a session with ctx (a case's now: in a suite).
// The builtin agent reads it for {today} and {now}; an agent written in
// Go may read it with Now. Agents outside the process (http, exec) never
// see it.
func WithNow(ctx context.Context, t time.Time) context.Context {
	return context.WithValue(ctx, nowKey{}, t)
}

// Now returns the time ctx fixes (WithNow), and whether it fixes one.
func Now(ctx context.Context) (time.Time, bool) {
	t, ok := ctx.Value(nowKey{}).(time.Time)
	return t, ok
}
