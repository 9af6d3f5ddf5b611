package agent_test

import (
	"context"
	"testing"
	"time"

	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"

	"github.com/gavelhq/gavel/agent"
	"github.com/gavelhq/gavel/judge"
	"github.com/gavelhq/gavel/mcp"
	"github.com/gavelhq/gavel/telemetry"
)

// With tracing on, each call a recording proxy saw during a turn is an
// execute_tool span under the turn's span, ending when the proxy
// recorded it and lasting as long as the call took.
func TestRecordedCallsAreSpans(t *testing.T) {
	rec := tracetest.NewSpanRecorder()
	defer telemetry.Use(sdktrace.NewTracerProvider(sdktrace.WithSpanProcessor(rec)))()
	log := &mcp.Log{}
	a := agent.Recorded(agent.Func(func(context.Context, string, agent.Message) (*agent.Reply, error) {
		time.Sleep(20 * time.Millisecond)
		log.Record(judge.ToolCall{ID: "c1", Name: "get_order_status", Duration: 10 * time.Millisecond})
		log.Record(judge.ToolCall{ID: "c2", Name: "cancel_order", IsError: true, Result: "shipped"})
		return &agent.Reply{Text: "done"}, nil
	}), log)
	s, err := a.Open(context.Background(), "s-1")
	if err != nil {
		t.Fatal(err)
	}
	ctx, end := telemetry.StartTurn(context.Background(), telemetry.Turn{SessionID: "s-1", Round: 1})
	if _, err := s.Send(ctx, agent.Message{Text: "cancel 12345"}); err != nil {
		t.Fatal(err)
	}
	end(judge.Usage{}, nil)

	spans := rec.Ended()
	var turn sdktrace.ReadOnlySpan
	tools := map[string]sdktrace.ReadOnlySpan{}
	for _, s := range spans {
		if s.Name() == "invoke_agent" {
			turn = s
		} else {
			tools[s.Name()] = s
		}
	}
	if turn == nil || len(tools) != 2 {
		t.Fatalf("spans: turn %v, others %v; want the turn and two tool calls", turn != nil, len(tools))
	}
	for _, name := range []string{"execute_tool get_order_status", "execute_tool cancel_order"} {
		s, ok := tools[name]
		if !ok {
			t.Errorf("no span %q", name)
			continue
		}
		if s.Parent().SpanID() != turn.SpanContext().SpanID() {
			t.Errorf("%s is not the turn's child", name)
		}
		if s.StartTime().Before(turn.StartTime()) || s.EndTime().After(turn.EndTime()) {
			t.Errorf("%s ran %v to %v, outside its turn (%v to %v)", name, s.StartTime(), s.EndTime(), turn.StartTime(), turn.EndTime())
		}
	}
	if d := tools["execute_tool get_order_status"]; d != nil && d.EndTime().Sub(d.StartTime()) != 10*time.Millisecond {
		t.Errorf("get_order_status lasted %v, want the 10ms the proxy measured", d.EndTime().Sub(d.StartTime()))
	}
}
