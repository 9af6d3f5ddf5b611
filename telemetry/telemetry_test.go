package telemetry_test

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"go.opentelemetry.io/otel/attribute"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"

	"github.com/gavelhq/gavel/judge"
	"github.com/gavelhq/gavel/llm"
	"github.com/gavelhq/gavel/secret"
	"github.com/gavelhq/gavel/telemetry"
)

// record turns tracing on for the test, into a recorder it returns.
func record(t *testing.T) *tracetest.SpanRecorder {
	t.Helper()
	rec := tracetest.NewSpanRecorder()
	tp := sdktrace.NewTracerProvider(sdktrace.WithSpanProcessor(rec))
	restore := telemetry.Use(tp)
	t.Cleanup(func() { restore(); _ = tp.Shutdown(context.Background()) })
	return rec
}

// tree draws the ended spans as an indented tree, children in the order
// they started.
func tree(spans []sdktrace.ReadOnlySpan) string {
	children := map[string][]sdktrace.ReadOnlySpan{}
	for _, s := range spans {
		parent := ""
		if s.Parent().IsValid() {
			parent = s.Parent().SpanID().String()
		}
		children[parent] = append(children[parent], s)
	}
	var b strings.Builder
	var draw func(parent string, depth int)
	draw = func(parent string, depth int) {
		kids := children[parent]
		slices.SortStableFunc(kids, func(a, b sdktrace.ReadOnlySpan) int { return a.StartTime().Compare(b.StartTime()) })
		for _, s := range kids {
			fmt.Fprintf(&b, "%s%s\n", strings.Repeat("  ", depth), s.Name())
			draw(s.SpanContext().SpanID().String(), depth+1)
		}
	}
	draw("", 0)
	return b.String()
}

// attrs returns the span's attributes as strings, by key.
func attrs(s sdktrace.ReadOnlySpan) map[string]string {
	m := map[string]string{}
	for _, kv := range s.Attributes() {
		m[string(kv.Key)] = kv.Value.Emit()
	}
	return m
}

func find(t *testing.T, spans []sdktrace.ReadOnlySpan, name string) sdktrace.ReadOnlySpan {
	t.Helper()
	for _, s := range spans {
		if s.Name() == name {
			return s
		}
	}
	t.Fatalf("no span %q in\n%s", name, tree(spans))
	return nil
}

// fakeModel answers every request with a fixed reply and usage.
var fakeModel = llm.Func(func(ctx context.Context, req *llm.Request) (*llm.Response, error) {
	return &llm.Response{Text: "SCORE: 5", Model: "judge-1-2026", ID: "chatcmpl-42", FinishReason: llm.FinishStop,
		Usage: llm.Usage{InputTokens: 120, OutputTokens: 7}}, nil
})

// TestTrialSpans traces a trial as the runner, the conversation, the
// builtin agent and the judges do, and checks the span tree and the
// attributes of each span.
func TestTrialSpans(t *testing.T) {
	rec := record(t)
	agentModel := llm.Chain(fakeModel, telemetry.Model(llm.Ref{Provider: "openai", Model: "gpt-5-mini", BaseURL: "http://127.0.0.1:8123/v1"}))
	judgeModel := llm.Chain(fakeModel, telemetry.Model(llm.Ref{Provider: "anthropic", Model: "claude-opus-4-5"}))

	ctx, endRun := telemetry.StartRun(context.Background(), telemetry.Run{Suite: "desk", ID: "r1"})
	ctx, endTrial := telemetry.StartTrial(ctx, "case_005", 2)
	traceID := telemetry.TraceID(ctx)

	turnCtx, endTurn := telemetry.StartTurn(ctx, telemetry.Turn{SessionID: "s-1", Round: 1, Provider: "openai"})
	if _, err := agentModel.Generate(turnCtx, &llm.Request{MaxTokens: 256}); err != nil {
		t.Fatal(err)
	}
	_, endTool := telemetry.StartTool(turnCtx, "cancel_order", "call_1")
	endTool(judge.ToolCall{Name: "cancel_order", Result: "order has shipped", IsError: true})
	endTurn(judge.Usage{InputTokens: 120, OutputTokens: 7}, nil)

	rubric := judge.Func(func(ctx context.Context, tr *judge.Transcript) (judge.Judgment, error) {
		if _, err := judgeModel.Generate(ctx, &llm.Request{}); err != nil {
			return judge.Judgment{}, err
		}
		s, _ := judge.Number(5, 1, 5)
		return judge.Judgment{Name: "rubric", Status: judge.StatusPass, Score: s, Reasoning: "asks first"}, nil
	})
	noCancel := judge.Func(func(context.Context, *judge.Transcript) (judge.Judgment, error) {
		return judge.Judgment{Name: "forbidden_tools cancel_order", Status: judge.StatusFail, Reasoning: "called cancel_order"}, nil
	})
	v := judge.Run(ctx, judge.Tiered(noCancel, rubric), &judge.Transcript{Status: judge.ExecSuccess})
	endTrial(v, &judge.Transcript{Status: judge.ExecSuccess})
	endRun(true, false)

	spans := rec.Ended()
	want := `gavel run
  gavel trial
    invoke_agent
      chat gpt-5-mini
      execute_tool cancel_order
    judge tiered
      judge forbidden_tools cancel_order
`
	if diff := cmp.Diff(want, tree(spans)); diff != "" {
		t.Errorf("span tree (-want +got):\n%s", diff)
	}
	for _, s := range spans {
		if got := s.SpanContext().TraceID().String(); got != traceID {
			t.Errorf("span %q is in trace %s, want %s (the trial's)", s.Name(), got, traceID)
		}
	}
	checks := []struct {
		span string
		want map[string]string
	}{
		{"gavel run", map[string]string{"gavel.suite": "desk", "gavel.run.id": "r1", "gavel.run.complete": "true", "gavel.run.passed": "false"}},
		{"gavel trial", map[string]string{"gavel.case.id": "case_005", "gavel.trial": "2", "gavel.verdict": "FAIL", "gavel.exec_status": "SUCCESS"}},
		{"invoke_agent", map[string]string{"gen_ai.operation.name": "invoke_agent", "gen_ai.conversation.id": "s-1", "gavel.round": "1",
			"gen_ai.provider.name":      "openai",
			"gen_ai.usage.input_tokens": "120", "gen_ai.usage.output_tokens": "7"}},
		{"chat gpt-5-mini", map[string]string{"gen_ai.operation.name": "chat", "gen_ai.provider.name": "openai",
			"gen_ai.request.model": "gpt-5-mini", "gen_ai.response.model": "judge-1-2026", "gen_ai.request.max_tokens": "256",
			"gen_ai.usage.input_tokens": "120", "gen_ai.usage.output_tokens": "7", "gen_ai.response.finish_reasons": `["stop"]`,
			"gen_ai.response.id": "chatcmpl-42",
			"server.address":     "127.0.0.1", "server.port": "8123"}},
		{"execute_tool cancel_order", map[string]string{"gen_ai.operation.name": "execute_tool", "gen_ai.tool.name": "cancel_order",
			"gen_ai.tool.call.id": "call_1", "gen_ai.tool.type": "extension", "error.type": "tool_error", "gavel.tool.is_error": "true"}},
		{"judge forbidden_tools cancel_order", map[string]string{"gavel.judge.name": "forbidden_tools cancel_order", "gavel.verdict": "FAIL",
			"gavel.reasoning": "called cancel_order"}},
	}
	for _, c := range checks {
		got := attrs(find(t, spans, c.span))
		for k, v := range c.want {
			if got[k] != v {
				t.Errorf("span %q: %s = %q, want %q", c.span, k, got[k], v)
			}
		}
	}
	events := find(t, spans, "judge forbidden_tools cancel_order").Events()
	if len(events) != 1 || events[0].Name != "gen_ai.evaluation.result" ||
		!slices.Contains(events[0].Attributes, attribute.String("gen_ai.evaluation.score.label", "fail")) {
		t.Errorf("judge span events = %+v, want one gen_ai.evaluation.result labelled fail", events)
	}
}

// TestJudgeModelCall checks that a judge's model call is a child of the
// judge's span, which carries the score.
func TestJudgeModelCall(t *testing.T) {
	rec := record(t)
	judgeModel := llm.Chain(fakeModel, telemetry.Model(llm.Ref{Provider: "anthropic", Model: "claude-opus-4-5"}))
	ctx, endTrial := telemetry.StartTrial(context.Background(), "c", 1)
	rubric := judge.Func(func(ctx context.Context, tr *judge.Transcript) (judge.Judgment, error) {
		if _, err := judgeModel.Generate(ctx, &llm.Request{}); err != nil {
			return judge.Judgment{}, err
		}
		s, _ := judge.Number(4, 1, 5)
		return judge.Judgment{Name: "rubric", Status: judge.StatusPass, Score: s}, nil
	})
	v := judge.Run(ctx, rubric, &judge.Transcript{})
	endTrial(v, nil)
	want := "gavel trial\n  judge rubric\n    chat claude-opus-4-5\n"
	if diff := cmp.Diff(want, tree(rec.Ended())); diff != "" {
		t.Errorf("span tree (-want +got):\n%s", diff)
	}
	got := attrs(find(t, rec.Ended(), "judge rubric"))
	if got["gavel.verdict"] != "PASS" || got["gavel.score"] != "0.75" {
		t.Errorf("judge span: verdict %q score %q, want PASS 0.75", got["gavel.verdict"], got["gavel.score"])
	}
}

// TestModelError checks error.type on a failed model call.
func TestModelError(t *testing.T) {
	rec := record(t)
	for _, c := range []struct {
		err  error
		want string
	}{
		{&llm.APIError{Provider: "openai", StatusCode: 429}, "429"},
		{fmt.Errorf("calling: %w", context.DeadlineExceeded), "timeout"},
		{errors.New("something odd"), "_OTHER"},
	} {
		failing := llm.Func(func(context.Context, *llm.Request) (*llm.Response, error) { return nil, c.err })
		m := llm.Chain(failing, telemetry.Model(llm.Ref{Provider: "openai", Model: "gpt-5-mini"}))
		if _, err := m.Generate(context.Background(), &llm.Request{}); err != c.err {
			t.Errorf("error %v, want %v handed on", err, c.err)
		}
		spans := rec.Ended()
		if got := attrs(spans[len(spans)-1])["error.type"]; got != c.want {
			t.Errorf("%v: error.type %q, want %q", c.err, got, c.want)
		}
	}
}

// The spans under a context carrying a Set hide its secrets: a model's
// name and error, a failed tool call's result, a turn's error, a judge's
// name and reasoning.
func TestSpansHideSecrets(t *testing.T) {
	rec := record(t)
	var secrets secret.Set
	secrets.Add("s3cr3t-token", "${TOKEN}")
	ctx, end := telemetry.StartTrial(secret.NewContext(context.Background(), &secrets), "c", 1)
	failing := llm.Func(func(context.Context, *llm.Request) (*llm.Response, error) {
		return nil, errors.New("POST http://host/s3cr3t-token/v1: refused")
	})
	m := llm.Chain(failing, telemetry.Model(llm.Ref{Provider: "openai", Model: "m-s3cr3t-token"}))
	_, _ = m.Generate(ctx, &llm.Request{})
	turn, endTurn := telemetry.StartTurn(ctx, telemetry.Turn{SessionID: "session", Round: 1})
	_, endTool := telemetry.StartTool(turn, "lookup", "call_1")
	endTool(judge.ToolCall{Name: "lookup", Result: "no key s3cr3t-token", IsError: true})
	endTurn(judge.Usage{}, errors.New("401 for s3cr3t-token"))
	_ = judge.Run(ctx, judge.Named("judge s3cr3t-token", judge.Func(func(context.Context, *judge.Transcript) (judge.Judgment, error) {
		return judge.Judgment{Status: judge.StatusError, Reasoning: "quoting s3cr3t-token"}, nil
	})), &judge.Transcript{})
	end(judge.Judgment{Status: judge.StatusError, Reasoning: "s3cr3t-token"}, nil)
	for _, sp := range rec.Ended() {
		text := fmt.Sprintf("%s %v %v %v", sp.Name(), sp.Attributes(), sp.Events(), sp.Status())
		if strings.Contains(text, "s3cr3t-token") || !strings.Contains(text, "${TOKEN}") {
			t.Errorf("span %s holds the secret, or no marker: %s", sp.Name(), text)
		}
	}
}

// TestOff checks that nothing is traced, and no trace id given, while
// tracing is off.
func TestOff(t *testing.T) {
	ctx, end := telemetry.StartTrial(context.Background(), "c", 1)
	if id := telemetry.TraceID(ctx); id != "" {
		t.Errorf("trace id %q while off, want none", id)
	}
	end(judge.Judgment{}, nil)
	m := llm.Chain(fakeModel, telemetry.Model(llm.Ref{Provider: "openai", Model: "m"}))
	if resp, err := m.Generate(ctx, &llm.Request{}); err != nil || resp.Text != "SCORE: 5" {
		t.Errorf("Generate while off = %v, %v", resp, err)
	}
}

func TestEnabled(t *testing.T) {
	for _, c := range []struct {
		env  map[string]string
		want bool
	}{
		{map[string]string{}, false},
		{map[string]string{"OTEL_EXPORTER_OTLP_ENDPOINT": "http://127.0.0.1:4318"}, true},
		{map[string]string{"OTEL_EXPORTER_OTLP_TRACES_ENDPOINT": "http://127.0.0.1:4318/v1/traces"}, true},
		{map[string]string{"OTEL_EXPORTER_OTLP_ENDPOINT": "http://127.0.0.1:4318", "OTEL_SDK_DISABLED": "true"}, false},
		{map[string]string{"OTEL_EXPORTER_OTLP_ENDPOINT": "http://127.0.0.1:4318", "OTEL_TRACES_EXPORTER": "none"}, false},
	} {
		if got := telemetry.Enabled(func(k string) string { return c.env[k] }); got != c.want {
			t.Errorf("Enabled(%v) = %v, want %v", c.env, got, c.want)
		}
	}
}

func TestSetupRefusesUnknownProtocol(t *testing.T) {
	env := map[string]string{"OTEL_EXPORTER_OTLP_ENDPOINT": "http://127.0.0.1:4318", "OTEL_EXPORTER_OTLP_PROTOCOL": "http/json"}
	_, err := telemetry.Setup(context.Background(), func(k string) string { return env[k] }, "test")
	if err == nil || !strings.Contains(err.Error(), "http/protobuf (the default) or grpc") {
		t.Errorf("Setup with http/json: %v, want an error naming the protocols Gavel sends", err)
	}
}

func TestSetupNamesTheProtocolVariableSet(t *testing.T) {
	env := map[string]string{"OTEL_EXPORTER_OTLP_ENDPOINT": "http://127.0.0.1:4318", "OTEL_EXPORTER_OTLP_TRACES_PROTOCOL": "http/json"}
	_, err := telemetry.Setup(context.Background(), func(k string) string { return env[k] }, "test")
	if err == nil || !strings.Contains(err.Error(), "OTEL_EXPORTER_OTLP_TRACES_PROTOCOL=http/json") {
		t.Errorf("Setup with OTEL_EXPORTER_OTLP_TRACES_PROTOCOL=http/json: %v, want an error naming that variable", err)
	}
}

// TestOffAllocatesNothing holds "no cost when off" to what can be counted
// without a clock: with tracing off, the spans of a trial, its turn, a
// tool call, a judge and a model call allocate nothing.
func TestOffAllocatesNothing(t *testing.T) {
	resp := &llm.Response{Text: "hi"}
	model := llm.Chain(llm.Func(func(context.Context, *llm.Request) (*llm.Response, error) { return resp, nil }),
		telemetry.Model(llm.Ref{Provider: "openai", Model: "gpt-5-mini"}))
	req := &llm.Request{}
	verdict := judge.Judgment{Name: "j", Status: judge.StatusPass}
	j := judge.Func(func(context.Context, *judge.Transcript) (judge.Judgment, error) { return verdict, nil })
	tr := &judge.Transcript{}
	ctx := context.Background()
	allocs := testing.AllocsPerRun(100, func() {
		ctx, endTrial := telemetry.StartTrial(ctx, "case_001", 1)
		turn, endTurn := telemetry.StartTurn(ctx, telemetry.Turn{SessionID: "s", Round: 1})
		model.Generate(turn, req)
		_, endTool := telemetry.StartTool(turn, "lookup", "c1")
		endTool(judge.ToolCall{})
		endTurn(judge.Usage{}, nil)
		endTrial(judge.Run(ctx, j, tr), tr)
	})
	if allocs != 0 {
		t.Errorf("a trial's spans allocate %v times with tracing off, want 0", allocs)
	}
}
