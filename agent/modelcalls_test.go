package agent_test

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gavelhq/gavel/agent"
	"github.com/gavelhq/gavel/judge"
	"github.com/gavelhq/gavel/llm"
)

// An agent whose model calls come through the endpoint, with no context
// of the trial (as an exec agent's come over HTTP), has them credited to
// the reply it is producing and counted in its trial's tally, however
// many trials run at once; a call made between messages is refused.
func TestModelCallsAreCreditedToTheirReply(t *testing.T) {
	var calls agent.ModelCalls
	meter := llm.NewMeter(llm.Prices{"served": {Input: 1, Output: 2}})
	served := calls.Model(meter.Meter()(llm.Func(func(_ context.Context, req *llm.Request) (*llm.Response, error) {
		if req.Model != "" {
			return nil, fmt.Errorf("the agent's model %q reached the model", req.Model)
		}
		text := req.Messages[0].Content
		return &llm.Response{Model: "served", Text: text, FinishReason: llm.FinishStop,
			Usage: llm.Usage{InputTokens: int64(len(text)) * 1000, OutputTokens: 1000}}, nil
	})))
	// The agent asks the model once per word of the message, in a context
	// of its own, taking its time (so that unserialized turns would
	// overlap).
	var inFlight, most atomic.Int32
	a := agent.Credit(agent.Func(func(_ context.Context, _ string, msg agent.Message) (*agent.Reply, error) {
		n := inFlight.Add(1)
		defer inFlight.Add(-1)
		if n > most.Load() {
			most.Store(n)
		}
		words := strings.Fields(msg.Text)
		for _, w := range words {
			time.Sleep(time.Millisecond)
			if _, err := served.Generate(context.Background(), &llm.Request{Model: "gpt-4o", Messages: []llm.Message{{Role: llm.RoleUser, Content: w}}}); err != nil {
				return nil, err
			}
		}
		return &agent.Reply{Text: fmt.Sprintf("%d calls", len(words)), Usage: judge.Usage{InputTokens: 1}}, nil
	}), &calls)

	messages := []string{"a bb", "ccc", "dddd e f", "gg"}
	replies := make([]*agent.Reply, len(messages))
	tallies := make([]*llm.Tally, len(messages))
	var wg sync.WaitGroup
	for i, m := range messages {
		tallies[i] = &llm.Tally{}
		wg.Add(1)
		go func() {
			defer wg.Done()
			ctx := llm.WithTally(t.Context(), tallies[i])
			s, err := a.Open(ctx, fmt.Sprint("s", i))
			if err != nil {
				t.Error(err)
				return
			}
			if replies[i], err = s.Send(ctx, agent.Message{Text: m}); err != nil {
				t.Error(err)
			}
		}()
	}
	wg.Wait()
	if most.Load() != 1 {
		t.Errorf("%d messages were answered at once, want one at a time", most.Load())
	}
	for i, m := range messages {
		words := strings.Fields(m)
		var want judge.Usage
		for _, w := range words {
			in := int64(len(w)) * 1000
			want = want.Add(judge.Usage{InputTokens: in, OutputTokens: 1000, Calls: 1, CostUSD: float64(in)/1e6 + 2000/1e6})
		}
		if r := replies[i]; r == nil || r.Usage != want || r.FinishReason != "stop" {
			t.Errorf("%q: reply %+v, want the usage of its %d calls, %+v, replacing what the agent said, and finish stop", m, r, len(words), want)
		}
		if got := tallies[i].ByModel()["served"]; judge.Usage(got) != want {
			t.Errorf("%q: its trial's tally has %+v, want %+v", m, got, want)
		}
	}

	_, err := served.Generate(t.Context(), &llm.Request{Messages: []llm.Message{{Role: llm.RoleUser, Content: "late"}}})
	var api *llm.APIError
	if !errors.As(err, &api) || api.StatusCode != 409 || !strings.Contains(api.Message, "only while it answers one") {
		t.Errorf("a call between messages: %v, want a 409 that says why", err)
	}
}

// A turn that fails keeps what its calls spent; one cut off by the token
// limit says so, whatever the last call's finish; the faults injected
// into its calls are the reply's.
func TestModelCallsOfAFailedTurn(t *testing.T) {
	var calls agent.ModelCalls
	finishes := []llm.FinishReason{llm.FinishLength, llm.FinishStop}
	n := 0
	var mu sync.Mutex
	served := calls.Model(llm.Func(func(ctx context.Context, _ *llm.Request) (*llm.Response, error) {
		mu.Lock()
		defer mu.Unlock()
		f := finishes[n%2]
		n++
		if f == llm.FinishLength {
			agent.ModelFaultInjected(ctx, "truncate")
		}
		return &llm.Response{FinishReason: f, Usage: llm.Usage{OutputTokens: 7, Calls: 1}}, nil
	}))
	a := agent.Credit(agent.Func(func(_ context.Context, _ string, msg agent.Message) (*agent.Reply, error) {
		served.Generate(context.Background(), &llm.Request{})
		served.Generate(context.Background(), &llm.Request{})
		if msg.Text == "fail" {
			return nil, errors.New("the agent gave up")
		}
		return &agent.Reply{Text: "ok"}, nil
	}), &calls)
	s, _ := a.Open(t.Context(), "s")
	r, err := s.Send(t.Context(), agent.Message{Text: "fail"})
	if err == nil || r == nil || r.Usage.OutputTokens != 14 || r.Usage.Calls != 2 || len(r.ModelFaults) != 1 {
		t.Errorf("failed turn: %+v, %v: want a partial reply with the 2 calls' 14 tokens, the fault injected, and the error", r, err)
	}
	r, err = s.Send(t.Context(), agent.Message{Text: "go"})
	if err != nil || r.FinishReason != "length" || !slices.Equal(r.ModelFaults, []string{"truncate"}) {
		t.Errorf("turn: %+v, %v: want finish length (its first call was cut off) and the fault injected into it", r, err)
	}
}
