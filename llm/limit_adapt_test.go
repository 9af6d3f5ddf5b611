package llm_test

import (
	"context"
	"testing"

	"github.com/gavelhq/gavel/llm"
)

// gate is a model whose calls wait until the test answers them, so that a
// test decides exactly which requests are in flight and how each ends.
type gate struct{ calls chan chan error }

func (g *gate) Generate(_ context.Context, req *llm.Request) (*llm.Response, error) {
	reply := make(chan error)
	g.calls <- reply
	if err := <-reply; err != nil {
		return nil, err
	}
	return answer(req), nil
}

// gated drives a Limiter through a gate, one event at a time.
type gated struct {
	t       *testing.T
	limiter *llm.Limiter
	model   llm.Model
	gate    *gate
	pending []chan error // the calls in the gate, oldest first
	done    chan error
}

func newGated(t *testing.T, c llm.LimitConfig) *gated {
	l := llm.NewLimiter(c)
	g := &gate{calls: make(chan chan error)}
	return &gated{t: t, limiter: l, model: l.Limit()(g), gate: g, done: make(chan error)}
}

// take sends n requests and waits until each holds a slot and waits in
// the gate. The limit must leave room for them.
func (d *gated) take(n int) {
	for range n {
		go func() {
			_, err := d.model.Generate(context.Background(), ask("x"))
			d.done <- err
		}()
		d.pending = append(d.pending, <-d.gate.calls)
	}
}

// end answers the oldest request in flight with err (nil: a success) and
// waits until its slot is released.
func (d *gated) end(err error) {
	d.t.Helper()
	if len(d.pending) == 0 {
		d.t.Fatal("no request in flight to end")
	}
	d.pending[0] <- err
	d.pending = d.pending[1:]
	<-d.done
}

var rateLimited = &llm.APIError{Provider: "fake", StatusCode: 429}

// A step is one event and the limit expected after it.
type step struct {
	do   string // take, ok, 429, or refill (ok, then take one: the slots stay full)
	n    int    // how many times
	want int    // the limit after
}

func TestLimitAdapts(t *testing.T) {
	tests := []struct {
		name   string
		config llm.LimitConfig
		steps  []step
	}{{
		name: "the first 429 halves what was in flight; the rest of its wave does not cut again",
		steps: []step{
			{do: "take", n: 8, want: 0},
			{do: "429", n: 1, want: 4},
			{do: "429", n: 7, want: 4},
		},
	}, {
		name:   "a limit's worth of successes while the limit is reached raises it by one",
		config: llm.LimitConfig{MaxInFlight: 3},
		steps: []step{
			{do: "take", n: 3, want: 3},
			{do: "429", n: 1, want: 1},
			{do: "ok", n: 2, want: 1}, // started before the fall: they do not count
			{do: "take", n: 1, want: 1},
			{do: "refill", n: 1, want: 2},
			{do: "take", n: 1, want: 2},
			{do: "refill", n: 2, want: 3},
			{do: "take", n: 1, want: 3},
			{do: "refill", n: 10, want: 3}, // never above MaxInFlight
		},
	}, {
		name:   "successes while slots are free do not raise the limit",
		config: llm.LimitConfig{MaxInFlight: 8},
		steps: []step{
			{do: "take", n: 4, want: 8},
			{do: "429", n: 1, want: 2}, // half of the 4 in flight, not of the cap
			{do: "ok", n: 3, want: 2},
			{do: "take", n: 1, want: 2},
			{do: "ok", n: 1, want: 2},
			{do: "take", n: 1, want: 2},
			{do: "ok", n: 1, want: 2},
		},
	}, {
		name: "a failed probe falls back to the limit that worked, and the next probe waits longer",
		steps: []step{
			{do: "take", n: 4, want: 0},
			{do: "429", n: 4, want: 2},
			{do: "take", n: 2, want: 2},
			{do: "refill", n: 2, want: 3}, // 2 worked
			{do: "take", n: 1, want: 3},
			{do: "429", n: 1, want: 2}, // the probe at 3 failed: back to 2, not 1
			// The two requests started before the fall say nothing; then
			// the limit waits for twice as many successes (4) to rise.
			{do: "refill", n: 5, want: 2},
			{do: "refill", n: 1, want: 3},
			{do: "take", n: 1, want: 3},
			{do: "429", n: 1, want: 2},
			{do: "refill", n: 2 + 7, want: 2},
			{do: "refill", n: 1, want: 3}, // four times as many (8)
		},
	}, {
		name: "a 429 at a limit that worked means the vendor takes fewer: halve",
		steps: []step{
			{do: "take", n: 8, want: 0},
			{do: "429", n: 8, want: 4},
			{do: "take", n: 4, want: 4},
			{do: "refill", n: 4, want: 5}, // 4 worked
			{do: "ok", n: 4, want: 5},
			{do: "take", n: 4, want: 5},
			{do: "429", n: 1, want: 2}, // at 4 in flight, below the limit that worked
		},
	}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := newGated(t, tt.config)
			for i, s := range tt.steps {
				for range s.n {
					switch s.do {
					case "take":
						d.take(1)
					case "ok":
						d.end(nil)
					case "429":
						d.end(rateLimited)
					case "refill":
						d.end(nil)
						d.take(1)
					default:
						t.Fatalf("step %d: unknown event %q", i, s.do)
					}
				}
				if got := d.limiter.InFlightLimit(); got != s.want {
					t.Fatalf("step %d (%s ×%d): limit = %d, want %d", i, s.do, s.n, got, s.want)
				}
			}
			for range d.pending {
				d.end(nil)
			}
		})
	}
}
