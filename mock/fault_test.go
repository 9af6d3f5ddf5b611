package mock_test

import (
	"context"
	"encoding/json"
	"testing"
	"time"

	"github.com/gavelhq/gavel/agent"
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
