package runner_test

import (
	"context"
	"testing"

	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"

	"github.com/gavelhq/gavel"
	"github.com/gavelhq/gavel/runner"
	"github.com/gavelhq/gavel/telemetry"
)

// TestTrialTraces checks that, with tracing on, each trial is a span
// whose trace id the trial keeps, with its conversation's turns and its
// judges as children (a trial conversed and judged in two goroutines
// included), and that a rejudged trial gets a trace of its own; and that
// with tracing off, trials have no trace id.
func TestTrialTraces(t *testing.T) {
	s := &gavel.Suite{Agent: echo, Cases: []*gavel.Case{
		prompt("a", "hello", says("hello", nil)),
		prompt("b", "hello", says("bye", nil)),
	}}
	run := runner.Run(context.Background(), s, runner.Config{Concurrency: 2})
	for _, cr := range run.Cases {
		for _, tr := range cr.Trials {
			if tr.TraceID != "" {
				t.Errorf("%s#%d has trace id %q with tracing off", tr.CaseID, tr.N, tr.TraceID)
			}
		}
	}

	rec := tracetest.NewSpanRecorder()
	tp := sdktrace.NewTracerProvider(sdktrace.WithSpanProcessor(rec))
	defer telemetry.Use(tp)()
	for _, c := range []struct {
		name string
		c    runner.Config
	}{
		{"pipelined", runner.Config{Concurrency: 2, Trials: 2}},
		{"sequential", runner.Config{Concurrency: 1}},
		{"rejudged", runner.Config{Replay: func(caseID string) ([]gavel.Trial, string) {
			if caseID != "a" {
				return nil, "not in the stored run"
			}
			return run.Cases[0].Trials, ""
		}}},
	} {
		t.Run(c.name, func(t *testing.T) {
			rec.Reset()
			run := runner.Run(context.Background(), s, c.c)
			byTrace := map[string][]string{}
			for _, sp := range rec.Ended() {
				id := sp.SpanContext().TraceID().String()
				byTrace[id] = append(byTrace[id], sp.Name())
			}
			trials := 0
			for _, cr := range run.Cases {
				for _, tr := range cr.Trials {
					trials++
					names := byTrace[tr.TraceID]
					if tr.TraceID == "" || len(names) == 0 {
						t.Errorf("%s#%d: trace id %q, no spans in it (traces: %v)", tr.CaseID, tr.N, tr.TraceID, byTrace)
						continue
					}
					want := map[string]bool{"gavel trial": true, "judge says " + map[string]string{"a": "hello", "b": "bye"}[tr.CaseID]: true}
					if c.name != "rejudged" {
						want["invoke_agent"] = true
					}
					for _, n := range names {
						delete(want, n)
					}
					if len(want) > 0 {
						t.Errorf("%s#%d: trace has %v, missing %v", tr.CaseID, tr.N, names, want)
					}
				}
			}
			if len(byTrace) != trials {
				t.Errorf("%d traces for %d trials: %v", len(byTrace), trials, byTrace)
			}
		})
	}
}

// TestRunTrialTraces checks that a trial run alone (gavel worker) is
// traced as Run traces each: its span, its turns and its judges in one
// trace, whose id the trial keeps.
func TestRunTrialTraces(t *testing.T) {
	s := &gavel.Suite{Agent: echo, Cases: []*gavel.Case{prompt("a", "hello", says("hello", nil))}}
	rec := tracetest.NewSpanRecorder()
	tp := sdktrace.NewTracerProvider(sdktrace.WithSpanProcessor(rec))
	defer telemetry.Use(tp)()
	tr := runner.RunTrial(context.Background(), s, s.Cases[0], 1, runner.Config{})
	want := map[string]bool{"gavel trial": true, "invoke_agent": true, "judge says hello": true}
	var names []string
	for _, sp := range rec.Ended() {
		if sp.SpanContext().TraceID().String() == tr.TraceID {
			names = append(names, sp.Name())
			delete(want, sp.Name())
		}
	}
	if tr.TraceID == "" || len(want) > 0 {
		t.Errorf("trace id %q has spans %v, missing %v", tr.TraceID, names, want)
	}
}
