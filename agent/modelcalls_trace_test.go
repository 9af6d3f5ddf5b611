package agent_test

import (
	"context"
	"testing"

	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"

	"github.com/gavelhq/gavel/agent"
	"github.com/gavelhq/gavel/judge"
	"github.com/gavelhq/gavel/llm"
	"github.com/gavelhq/gavel/telemetry"
)

// With tracing on, a model call an agent makes through the endpoint,
// in a context of its own, is a chat span under the turn it is credited
// to, as a builtin agent's call is.
func TestModelCallsAreTheTurnsSpans(t *testing.T) {
	rec := tracetest.NewSpanRecorder()
	defer telemetry.Use(sdktrace.NewTracerProvider(sdktrace.WithSpanProcessor(rec)))()
	var calls agent.ModelCalls
	served := calls.Model(telemetry.Model(llm.Ref{Provider: "openai", Model: "gpt-5-mini"})(llm.Func(func(context.Context, *llm.Request) (*llm.Response, error) {
		return &llm.Response{Text: "shipped", Usage: llm.Usage{InputTokens: 12, OutputTokens: 3}}, nil
	})))
	a := agent.Credit(agent.Func(func(context.Context, string, agent.Message) (*agent.Reply, error) {
		resp, err := served.Generate(context.Background(), &llm.Request{Model: "gpt-4o", Messages: []llm.Message{{Role: llm.RoleUser, Content: "where is 12345?"}}})
		if err != nil {
			return nil, err
		}
		return &agent.Reply{Text: resp.Text}, nil
	}), &calls)
	s, err := a.Open(context.Background(), "s-1")
	if err != nil {
		t.Fatal(err)
	}
	ctx, end := telemetry.StartTurn(context.Background(), telemetry.Turn{SessionID: "s-1", Round: 1})
	if _, err := s.Send(ctx, agent.Message{Text: "where is 12345?"}); err != nil {
		t.Fatal(err)
	}
	end(judge.Usage{}, nil)

	var turn, chat sdktrace.ReadOnlySpan
	for _, s := range rec.Ended() {
		switch s.Name() {
		case "invoke_agent":
			turn = s
		case "chat gpt-5-mini":
			chat = s
		default:
			t.Errorf("span %q", s.Name())
		}
	}
	if turn == nil || chat == nil {
		t.Fatalf("turn %v, chat gpt-5-mini %v: want both (the served model, not the one the agent named)", turn != nil, chat != nil)
	}
	if chat.Parent().SpanID() != turn.SpanContext().SpanID() {
		t.Error("the model call is not the turn's child")
	}
}
