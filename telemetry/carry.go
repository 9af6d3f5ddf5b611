package telemetry

import (
	"context"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/propagation"
	"go.opentelemetry.io/otel/trace"
)

// A trace crosses processes as a W3C trace context (traceparent,
// tracestate): a queued run's span is carried in its trials' jobs, so
// that the trials gavel worker processes run join the run's trace.

// Carrier returns the trace context of ctx's span, to carry into another
// process; nil when tracing is off or ctx has no span.
func Carrier(ctx context.Context) map[string]string {
	if tracer() == nil || !trace.SpanContextFromContext(ctx).IsValid() {
		return nil
	}
	c := propagation.MapCarrier{}
	propagation.TraceContext{}.Inject(ctx, c)
	return c
}

// FromCarrier returns ctx with the span whose trace context c carries
// (Carrier) as the parent of the spans started with it; ctx itself when
// tracing is off or c carries none.
func FromCarrier(ctx context.Context, c map[string]string) context.Context {
	if tracer() == nil || len(c) == 0 {
		return ctx
	}
	return propagation.TraceContext{}.Extract(ctx, propagation.MapCarrier(c))
}

// SetRunID names the run of the run span ctx carries (StartRun), for a
// run whose id is made after its span started (a queued run's, made with
// its jobs).
func SetRunID(ctx context.Context, id string) {
	if tracer() == nil {
		return
	}
	trace.SpanFromContext(ctx).SetAttributes(attribute.String(attrRunID, id))
}
