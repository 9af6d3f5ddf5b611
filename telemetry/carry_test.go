package telemetry_test

import (
	"context"
	"testing"

	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"

	"github.com/gavelhq/gavel/telemetry"
)

// A run's span carried into another process (a queued trial's job) is
// the parent of the trial started there: one trace, run above trial.
func TestCarriedRunIsTheTrialsParent(t *testing.T) {
	if c := telemetry.Carrier(context.Background()); c != nil {
		t.Errorf("tracing off: carrier %v, want none", c)
	}
	rec := tracetest.NewSpanRecorder()
	defer telemetry.Use(sdktrace.NewTracerProvider(sdktrace.WithSpanProcessor(rec)))()

	ctx, endRun := telemetry.StartRun(context.Background(), telemetry.Run{Suite: "queued"})
	telemetry.SetRunID(ctx, "run-1")
	carried := telemetry.Carrier(ctx)
	endRun(false, false)
	if carried["traceparent"] == "" {
		t.Fatalf("carrier %v has no traceparent", carried)
	}

	// Elsewhere, from the carrier alone.
	tctx, _ := telemetry.StartTrial(telemetry.FromCarrier(context.Background(), carried), "c1", 1)
	trial := telemetry.TraceID(tctx)
	var run sdktrace.ReadOnlySpan
	for _, s := range rec.Ended() {
		if s.Name() == "gavel run" {
			run = s
		}
	}
	if run == nil {
		t.Fatal("no run span")
	}
	if trial != run.SpanContext().TraceID().String() {
		t.Errorf("the trial's trace %s is not the run's %s", trial, run.SpanContext().TraceID())
	}
	found := false
	for _, a := range run.Attributes() {
		found = found || (string(a.Key) == "gavel.run.id" && a.Value.AsString() == "run-1")
	}
	if !found {
		t.Errorf("run span attributes %v lack gavel.run.id run-1", run.Attributes())
	}
}
