package telemetry_test

import (
	"context"
	"sync"
	"testing"

	"go.opentelemetry.io/otel/attribute"
	sdklog "go.opentelemetry.io/otel/sdk/log"

	"github.com/gavelhq/gavel/judge"
	"github.com/gavelhq/gavel/telemetry"
)

// memoryLogs keeps the records exported to it.
type memoryLogs struct {
	mu      sync.Mutex
	records []sdklog.Record
}

func (m *memoryLogs) Export(_ context.Context, rs []sdklog.Record) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	for _, r := range rs {
		m.records = append(m.records, r.Clone())
	}
	return nil
}
func (m *memoryLogs) Shutdown(context.Context) error   { return nil }
func (m *memoryLogs) ForceFlush(context.Context) error { return nil }

// A judge's verdict is a gen_ai.evaluation.result event record, as the
// GenAI conventions now have events (log records with an event name), in
// the judge's span: its trace and span ids are the span's.
func TestEvaluationIsAnEventRecord(t *testing.T) {
	rec := record(t)
	logs := &memoryLogs{}
	lp := sdklog.NewLoggerProvider(sdklog.WithProcessor(sdklog.NewSimpleProcessor(logs)))
	restore := telemetry.UseLogs(lp)
	defer restore()

	ctx, endTrial := telemetry.StartTrial(context.Background(), "c", 1)
	s, _ := judge.Number(4, 1, 5)
	rubric := judge.Func(func(context.Context, *judge.Transcript) (judge.Judgment, error) {
		return judge.Judgment{Name: "rubric", Status: judge.StatusPass, Score: s, Reasoning: "asks first"}, nil
	})
	v := judge.Run(ctx, rubric, &judge.Transcript{})
	endTrial(v, nil)

	span := find(t, rec.Ended(), "judge rubric")
	if len(logs.records) != 1 {
		t.Fatalf("%d records, want 1", len(logs.records))
	}
	r := logs.records[0]
	got := map[string]string{}
	r.WalkAttributes(func(kv attribute.KeyValue) bool { got[string(kv.Key)] = kv.Value.Emit(); return true })
	want := map[string]string{"gen_ai.evaluation.name": "rubric", "gen_ai.evaluation.score.label": "pass",
		"gen_ai.evaluation.score.value": "0.75", "gen_ai.evaluation.explanation": "asks first"}
	for k, w := range want {
		if got[k] != w {
			t.Errorf("%s = %q, want %q", k, got[k], w)
		}
	}
	if r.EventName() != "gen_ai.evaluation.result" || r.TraceID() != span.SpanContext().TraceID() || r.SpanID() != span.SpanContext().SpanID() {
		t.Errorf("record %q in span %s/%s, want gen_ai.evaluation.result in the judge's span %s/%s",
			r.EventName(), r.TraceID(), r.SpanID(), span.SpanContext().TraceID(), span.SpanContext().SpanID())
	}
}
