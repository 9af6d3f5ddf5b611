package llm

import (
	"context"
	"maps"
	"sync"
)

// A Tally adds up, by model, what the calls made with a context spent: a
// Meter adds every call it counts to the Tally its context carries
// (WithTally). The runner gives each trial one, so that a trial knows
// what it spent on each model, and a run's table of models is the sum of
// its trials' (a resumed run's copied trials included). It is safe for
// concurrent use; the zero Tally is empty and ready.
type Tally struct {
	mu      sync.Mutex
	byModel map[string]Usage
}

// Add counts usage u of a call to model.
func (t *Tally) Add(model string, u Usage) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.byModel == nil {
		t.byModel = map[string]Usage{}
	}
	t.byModel[model] = t.byModel[model].Add(u)
}

// ByModel returns what the Tally counted, by model; nil when it counted
// nothing.
func (t *Tally) ByModel() map[string]Usage {
	t.mu.Lock()
	defer t.mu.Unlock()
	return maps.Clone(t.byModel)
}

// tallyKey is the context key of a Tally.
type tallyKey struct{}

// WithTally returns a copy of ctx that carries t: a Meter adds the calls
// made with it to t.
func WithTally(ctx context.Context, t *Tally) context.Context {
	return context.WithValue(ctx, tallyKey{}, t)
}

// TallyFrom returns the Tally ctx carries, or nil.
func TallyFrom(ctx context.Context) *Tally {
	t, _ := ctx.Value(tallyKey{}).(*Tally)
	return t
}
