package llm

import "context"

// trialKey is the context key of the trial number.
type trialKey struct{}

// WithTrial returns a copy of ctx that carries the trial number n (from 1):
// every model call made with it belongs to trial n of its case. A Cache
// keeps the answers of different trials apart by it, so that the agent,
// the simulated user, the follow-up detector and the judges of trial 2
// never get trial 1's answers, though none of them knows which trial it
// is in. The runner sets it for a trial's conversation and its judging.
func WithTrial(ctx context.Context, n int) context.Context {
	return context.WithValue(ctx, trialKey{}, n)
}

// TrialFrom returns the trial number ctx carries, or 0 when it carries
// none.
func TrialFrom(ctx context.Context) int {
	n, _ := ctx.Value(trialKey{}).(int)
	return n
}
