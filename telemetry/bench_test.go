package telemetry_test

import (
	"context"
	"testing"

	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"

	"github.com/gavelhq/gavel/judge"
	"github.com/gavelhq/gavel/llm"
	"github.com/gavelhq/gavel/telemetry"
)

// BenchmarkOff measures what tracing costs a model call and a trial's
// spans: bare (no telemetry code at all), off (the code in place, no SDK
// set up: what every run pays by default) and on (the SDK, sampling
// everything, its batching processor handing spans to an exporter that
// drops them). Figures in bench/README.md.
func BenchmarkOff(b *testing.B) {
	ref := llm.Ref{Provider: "openai", Model: "gpt-5-mini"}
	req := &llm.Request{Messages: []llm.Message{{Role: llm.RoleUser, Content: "hello"}}}
	j := judge.Func(func(ctx context.Context, t *judge.Transcript) (judge.Judgment, error) {
		return judge.Verdict(true, "fine"), nil
	})
	tr := &judge.Transcript{Status: judge.ExecSuccess}
	// trial makes the spans of one trial: a turn with two model calls
	// and a tool call, and a judge.
	trial := func(ctx context.Context, model llm.Model) {
		ctx, endTrial := telemetry.StartTrial(ctx, "case_001", 1)
		turn, endTurn := telemetry.StartTurn(ctx, telemetry.Turn{SessionID: "session", Round: 1})
		model.Generate(turn, req)
		_, endTool := telemetry.StartTool(turn, "get_order_status", "call_1")
		endTool(judge.ToolCall{Name: "get_order_status"})
		model.Generate(turn, req)
		endTurn(judge.Usage{}, nil)
		endTrial(judge.Run(ctx, j, tr), tr)
	}
	on := func(b *testing.B) {
		tp := sdktrace.NewTracerProvider(sdktrace.WithBatcher(tracetest.NewNoopExporter()))
		restore := telemetry.Use(tp)
		b.Cleanup(func() { restore(); tp.Shutdown(context.Background()) })
	}
	wrapped := llm.Chain(fakeModel, telemetry.Model(ref))
	ctx := context.Background()

	b.Run("model-call/bare", func(b *testing.B) {
		for b.Loop() {
			fakeModel.Generate(ctx, req)
		}
	})
	b.Run("model-call/off", func(b *testing.B) {
		for b.Loop() {
			wrapped.Generate(ctx, req)
		}
	})
	b.Run("model-call/on", func(b *testing.B) {
		on(b)
		for b.Loop() {
			wrapped.Generate(ctx, req)
		}
	})
	b.Run("trial/bare", func(b *testing.B) {
		for b.Loop() {
			fakeModel.Generate(ctx, req)
			fakeModel.Generate(ctx, req)
			judge.Run(ctx, j, tr)
		}
	})
	b.Run("trial/off", func(b *testing.B) {
		for b.Loop() {
			trial(ctx, wrapped)
		}
	})
	b.Run("trial/on", func(b *testing.B) {
		on(b)
		for b.Loop() {
			trial(ctx, wrapped)
		}
	})
}
