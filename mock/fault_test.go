package mock_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/gavelhq/gavel/agent"
	"github.com/gavelhq/gavel/llm"
	"github.com/gavelhq/gavel/mcp"
	"github.com/gavelhq/gavel/mock"
)

// Faults on purpose: the first call of a trial fails, the others pass
// through, and every trial starts counting afresh; results can be emptied,
// cut, delayed, or refused at the protocol level; every injected call is
// marked.
func TestInject(t *testing.T) {
	box, err := mock.New([]mock.Tool{{Name: "get_order_status", Results: []mock.Result{{Text: "order 12345 has shipped"}}}})
	if err != nil {
		t.Fatal(err)
	}
	trial := func(key string) context.Context {
		return agent.WithScopes(context.Background(), agent.NewScope(key), agent.NewScope("c"))
	}
	for _, tc := range []struct {
		fault           mcp.Fault
		first, second   string // results of the first and second calls of a trial
		injected        string
		firstErr, isErr bool
	}{
		{mcp.Fault{Kind: mcp.FaultError, Message: "the order database is down"}, "the order database is down", "order 12345 has shipped", "error", false, true},
		{mcp.Fault{Kind: mcp.FaultEmpty}, "", "order 12345 has shipped", "empty", false, false},
		{mcp.Fault{Kind: mcp.FaultTruncate}, "order 12345", "order 12345 has shipped", "truncated", false, false},
		{mcp.Fault{Kind: mcp.FaultDelay, Delay: 10 * time.Millisecond}, "order 12345 has shipped", "order 12345 has shipped", "delay 10ms", false, false},
		{mcp.Fault{Kind: mcp.FaultProtocolError}, "the server refused the call (a fault injected by Gavel)", "order 12345 has shipped", "protocol_error", true, true},
	} {
		in, err := mock.NewInjector([]mock.FaultRule{{Tool: "get_order_status", OnCall: 1, Fault: tc.fault}})
		if err != nil {
			t.Fatal(err)
		}
		faulty := mock.Inject(box, in)
		for _, key := range []string{"c#1", "c#2"} {
			ctx := trial(key)
			first, err := faulty.Call(ctx, "get_order_status", json.RawMessage(`{}`))
			if first.Result != tc.first || first.Injected != tc.injected || first.IsError != tc.isErr || (err != nil) != tc.firstErr {
				t.Errorf("%s, %s, first call: %+v, %v", tc.fault.Kind, key, first, err)
			}
			second, err := faulty.Call(ctx, "get_order_status", json.RawMessage(`{}`))
			if second.Result != tc.second || second.Injected != "" || err != nil {
				t.Errorf("%s, %s, second call: %+v, %v", tc.fault.Kind, key, second, err)
			}
		}
	}
	// At a rate, with a seed: the same calls fail from run to run.
	pattern := func() []bool {
		in, _ := mock.NewInjector([]mock.FaultRule{{Rate: 0.3, Seed: 7, Fault: mcp.Fault{Kind: mcp.FaultError}}})
		var out []bool
		for range 20 {
			_, hit := in.Fault(context.Background(), "get_order_status")
			out = append(out, hit)
		}
		return out
	}
	a, b := pattern(), pattern()
	hits := 0
	for i := range a {
		if a[i] != b[i] {
			t.Fatal("the same seed injected into other calls")
		}
		if a[i] {
			hits++
		}
	}
	if hits == 0 || hits == 20 {
		t.Errorf("%d of 20 calls failed at a rate of 0.3", hits)
	}
	if _, err := mock.NewInjector([]mock.FaultRule{{Fault: mcp.Fault{Kind: mcp.FaultError}}}); err == nil {
		t.Error("a fault of no call")
	}
	if _, err := mock.NewInjector([]mock.FaultRule{{OnCall: 1, Fault: mcp.Fault{Kind: "explode"}}}); err == nil {
		t.Error("an unknown kind")
	}
}

// Faults on an agent's model calls: the second call of each trial is
// rate limited, with its Retry-After, the third fails, the fourth is cut
// off by the token limit (the model spent it); the others pass through.
func TestModelFaults(t *testing.T) {
	faults, err := mock.ModelFaults([]mock.ModelFaultRule{
		{OnCall: 2, Kind: mock.ModelRateLimit, RetryAfter: 20 * time.Millisecond},
		{OnCall: 3, Kind: mock.ModelServerError},
		{OnCall: 4, Kind: mock.ModelTruncate},
	})
	if err != nil {
		t.Fatal(err)
	}
	called := 0
	m := faults(llm.Func(func(context.Context, *llm.Request) (*llm.Response, error) {
		called++
		return &llm.Response{Text: "Your order has shipped.", FinishReason: llm.FinishStop}, nil
	}))
	for _, key := range []string{"c#1", "c#2"} {
		ctx := agent.WithScopes(context.Background(), agent.NewScope(key), agent.NewScope("c"))
		var got []string
		for range 5 {
			resp, err := m.Generate(ctx, &llm.Request{})
			var api *llm.APIError
			switch {
			case errors.As(err, &api):
				got = append(got, fmt.Sprintf("%d %v %s", api.StatusCode, api.RetryAfter, api.Message))
			case err != nil:
				t.Fatal(err)
			default:
				got = append(got, fmt.Sprintf("%s %q", resp.FinishReason, resp.Text))
			}
		}
		want := []string{
			`stop "Your order has shipped."`,
			"429 20ms Rate limit reached for requests (a fault injected by Gavel). Please try again later.",
			"500 0s The server had an error while processing your request (a fault injected by Gavel).",
			`length "Your order "`,
			`stop "Your order has shipped."`,
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("%s (-want +got):\n%s", key, diff)
		}
	}
	if called != 6 {
		t.Errorf("the model was called %d times, want 6: not for a 429 or a 500", called)
	}
	// At a rate, with a seed: the same calls fail from run to run.
	pattern := func() []bool {
		faults, _ := mock.ModelFaults([]mock.ModelFaultRule{{Rate: 0.3, Seed: 7, Kind: mock.ModelServerError}})
		m := faults(llm.Func(func(context.Context, *llm.Request) (*llm.Response, error) { return &llm.Response{}, nil }))
		var out []bool
		for range 20 {
			_, err := m.Generate(context.Background(), &llm.Request{})
			out = append(out, err != nil)
		}
		return out
	}
	a, b := pattern(), pattern()
	hits := 0
	for i := range a {
		if a[i] != b[i] {
			t.Fatal("the same seed failed other calls")
		}
		if a[i] {
			hits++
		}
	}
	if hits == 0 || hits == 20 {
		t.Errorf("%d of 20 calls failed at a rate of 0.3", hits)
	}
	for _, bad := range []mock.ModelFaultRule{{Kind: mock.ModelTruncate}, {OnCall: 1, Kind: "explode"}} {
		if _, err := mock.ModelFaults([]mock.ModelFaultRule{bad}); err == nil {
			t.Errorf("%+v was taken", bad)
		}
	}
}
