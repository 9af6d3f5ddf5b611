package telemetry

import (
	"context"
	"sync/atomic"
	"time"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/log"
)

// currentLogger is the logger event records are emitted with, nil while
// logs are off.
var currentLogger atomic.Pointer[log.Logger]

// UseLogs makes Gavel emit its event records (gen_ai.evaluation.result)
// through lp, until restore is called (which turns them off again).
// Setup calls it; so do tests, with an exporter of their own.
func UseLogs(lp log.LoggerProvider) (restore func()) {
	l := lp.Logger(scope)
	old := currentLogger.Swap(&l)
	return func() { currentLogger.Store(old) }
}

// emitEvent emits the event record name with attrs in ctx, whose span is
// the record's (its trace and span ids); nothing while logs are off.
func emitEvent(ctx context.Context, name string, attrs []attribute.KeyValue) {
	l := currentLogger.Load()
	if l == nil {
		return
	}
	var r log.Record
	r.SetEventName(name)
	r.SetSeverity(log.SeverityInfo)
	r.SetTimestamp(time.Now())
	r.AddAttributes(attrs...)
	(*l).Emit(ctx, r)
}
