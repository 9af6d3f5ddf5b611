package judge

import "context"

// An Observer is told of every judge Run runs with a context that carries
// it (WithObserver): the parts of composites too, since composites run
// their parts through Run. StartJudge is called before the judge, and
// returns the context the judge runs with (so that what the judge does,
// its model calls, can be seen as its own) and a function Run calls with
// the judgment it returns, an error or a panic turned into an ERROR
// included. Package telemetry observes judges as OpenTelemetry spans.
type Observer interface {
	StartJudge(ctx context.Context) (context.Context, func(Judgment))
}

// ObserverFunc adapts an ordinary function to the Observer interface.
type ObserverFunc func(ctx context.Context) (context.Context, func(Judgment))

// StartJudge calls f(ctx).
func (f ObserverFunc) StartJudge(ctx context.Context) (context.Context, func(Judgment)) {
	return f(ctx)
}

type observerKey struct{}

// WithObserver returns a context in which Run tells o of every judge it
// runs.
func WithObserver(ctx context.Context, o Observer) context.Context {
	return context.WithValue(ctx, observerKey{}, o)
}

// observerFrom returns the Observer of ctx, or nil.
func observerFrom(ctx context.Context) Observer {
	o, _ := ctx.Value(observerKey{}).(Observer)
	return o
}
