package telemetry

import (
	"context"
	"strings"
	"time"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/trace"

	"github.com/gavelhq/gavel/judge"
	"github.com/gavelhq/gavel/secret"
)

// TraceID returns the id of the trace ctx's span is part of, as 32
// hexadecimal digits, or "" when tracing is off.
func TraceID(ctx context.Context) string {
	if sc := trace.SpanContextFromContext(ctx); sc.HasTraceID() {
		return sc.TraceID().String()
	}
	return ""
}

// A Run describes a run of a suite for its span.
type Run struct {
	Suite string
	// ID is the run's id in the store, if it has one.
	ID string
	// Rejudges is the id of the run whose transcripts this run judges
	// again (gavel rejudge), if any.
	Rejudges string
}

// StartRun starts the span of a run, the root of its trace: the trials
// started with the context it returns are its children. end ends it, with
// whether the run was complete and passed.
func StartRun(ctx context.Context, r Run) (_ context.Context, end func(complete, passed bool)) {
	t := tracer()
	if t == nil {
		return ctx, func(bool, bool) {}
	}
	attrs := []attribute.KeyValue{attribute.String(attrSuite, r.Suite)}
	if r.ID != "" {
		attrs = append(attrs, attribute.String(attrRunID, r.ID))
	}
	if r.Rejudges != "" {
		attrs = append(attrs, attribute.String(attrRejudges, r.Rejudges))
	}
	name := "gavel run"
	if r.Rejudges != "" {
		name = "gavel rejudge"
	}
	ctx, span := t.Start(ctx, name, trace.WithAttributes(attrs...))
	return ctx, func(complete, passed bool) {
		span.SetAttributes(attribute.Bool(attrComplete, complete), attribute.Bool(attrRunPassed, passed))
		span.End()
	}
}

// StartTrial starts the span of trial n of a case: its conversation's
// turns, and its judges, are its children. The context it returns also
// carries a judge.Observer, so that every judge judge.Run runs with it
// has a span. end ends the span with the trial's verdict.
func StartTrial(ctx context.Context, caseID string, n int) (_ context.Context, end func(verdict judge.Judgment, t *judge.Transcript)) {
	t := tracer()
	if t == nil {
		return ctx, func(judge.Judgment, *judge.Transcript) {}
	}
	ctx, span := t.Start(ctx, "gavel trial", trace.WithAttributes(
		attribute.String(attrCaseID, caseID), attribute.Int(attrTrial, n)))
	ctx = judge.WithObserver(ctx, judge.ObserverFunc(startJudge))
	return ctx, func(v judge.Judgment, tr *judge.Transcript) {
		if tr != nil {
			span.SetAttributes(attribute.String(attrExecStatus, string(tr.Status)))
		}
		span.SetAttributes(verdictAttributes(v)...)
		if v.Status == judge.StatusError {
			span.SetAttributes(attribute.String(attrErrorType, causeType(v.Cause)))
			span.SetStatus(codes.Error, excerpt(ctx, v.Reasoning))
		}
		span.End()
	}
}

// verdictAttributes are the gavel.verdict and gavel.score of a judgment.
func verdictAttributes(v judge.Judgment) []attribute.KeyValue {
	attrs := []attribute.KeyValue{attribute.String(attrVerdict, string(v.Status))}
	if score, ok := v.Normalized(); ok {
		attrs = append(attrs, attribute.Float64(attrScore, score))
	}
	if v.DecidedBy != "" {
		attrs = append(attrs, attribute.String(attrDecidedBy, v.DecidedBy))
	}
	return attrs
}

// startJudge starts the span of a judge, as judge.Run calls it through
// the trial's judge.Observer. The judge's name is known only from its
// judgment: the span is named when it ends ("judge NAME"), and carries
// the verdict and score (gavel.*) and a gen_ai.evaluation.result event.
func startJudge(ctx context.Context) (context.Context, func(judge.Judgment)) {
	t := tracer()
	if t == nil {
		return ctx, func(judge.Judgment) {}
	}
	ctx, span := t.Start(ctx, "judge")
	return ctx, func(j judge.Judgment) {
		name := secret.FromContext(ctx).Redact(j.Name)
		if name != "" {
			span.SetName("judge " + name)
			span.SetAttributes(attribute.String(attrJudge, name))
		}
		span.SetAttributes(verdictAttributes(j)...)
		if j.Reasoning != "" {
			span.SetAttributes(attribute.String(attrReasoning, excerpt(ctx, j.Reasoning)))
		}
		event := []attribute.KeyValue{
			attribute.String(attrEvaluationName, name),
			attribute.String(attrEvaluationLabel, strings.ToLower(string(j.Status))),
		}
		if score, ok := j.Normalized(); ok {
			event = append(event, attribute.Float64(attrEvaluationScore, score))
		}
		if j.Reasoning != "" {
			event = append(event, attribute.String(attrEvaluationExplain, excerpt(ctx, j.Reasoning)))
		}
		// The conventions make the result an event record (a log record
		// with an event name) in the judge's span's context; span events
		// are on their way out, and tracing UIs without logs (Jaeger)
		// still show this one.
		emitEvent(ctx, eventEvaluation, event)
		span.AddEvent(eventEvaluation, trace.WithAttributes(event...))
		if j.Status == judge.StatusError {
			span.SetAttributes(attribute.String(attrErrorType, causeType(j.Cause)))
			span.SetStatus(codes.Error, excerpt(ctx, j.Reasoning))
		}
		span.End()
	}
}

// A Turn describes one turn of a conversation with the agent under test,
// for its span.
type Turn struct {
	// SessionID is the session's id (gen_ai.conversation.id), Round the
	// round of the case's script.
	SessionID string
	Round     int
	// Provider is the provider of the agent's model
	// (gen_ai.provider.name: the builtin agent's model's, or what a
	// suite's models.agent names for an http or exec agent); "" when
	// unknown, and the attribute is left out.
	Provider string
}

// StartTurn starts the span of one turn of the conversation with the
// agent under test (a message or an event sent, the reply received):
// invoke_agent. The model and tool calls the agent makes meanwhile, when
// Gavel sees them, are its children. end ends it with what the agent said
// it spent and its error.
func StartTurn(ctx context.Context, turn Turn) (_ context.Context, end func(u judge.Usage, err error)) {
	t := tracer()
	if t == nil {
		return ctx, func(judge.Usage, error) {}
	}
	attrs := []attribute.KeyValue{attribute.String(attrOperation, opInvokeAgent), attribute.Int(attrRound, turn.Round)}
	if turn.SessionID != "" {
		attrs = append(attrs, attribute.String(attrConversation, turn.SessionID))
	}
	if turn.Provider != "" {
		attrs = append(attrs, attribute.String(attrProvider, turn.Provider))
	}
	ctx, span := t.Start(ctx, opInvokeAgent, trace.WithSpanKind(trace.SpanKindClient), trace.WithAttributes(attrs...))
	return ctx, func(u judge.Usage, err error) {
		if u.InputTokens != 0 || u.OutputTokens != 0 {
			span.SetAttributes(attribute.Int64(attrInputTokens, u.InputTokens), attribute.Int64(attrOutputTokens, u.OutputTokens))
		}
		endWithError(ctx, span, err)
	}
}

// StartTool starts the span of a tool call, execute_tool NAME, with the
// call's id. end ends it with the call as made: a call the tool reported
// failed (judge.ToolCall.IsError) is an error of type tool_error.
func StartTool(ctx context.Context, name, callID string) (_ context.Context, end func(judge.ToolCall)) {
	if tracer() == nil {
		return ctx, func(judge.ToolCall) {} // not a closure over startTool's: nothing allocated
	}
	ctx, endAt := startTool(ctx, name, callID)
	return ctx, func(call judge.ToolCall) { endAt(call) }
}

// startTool is StartTool, with options for the start and the end of the
// span (their times).
func startTool(ctx context.Context, name, callID string, opts ...trace.SpanStartOption) (context.Context, func(judge.ToolCall, ...trace.SpanEndOption)) {
	t := tracer()
	if t == nil {
		return ctx, func(judge.ToolCall, ...trace.SpanEndOption) {}
	}
	// The agent's tools are MCP servers' or a mock's: tools the agent
	// calls on its side to reach systems outside it, which the
	// conventions call extensions.
	attrs := []attribute.KeyValue{attribute.String(attrOperation, opExecuteTool), attribute.String(attrToolName, name),
		attribute.String(attrToolType, "extension")}
	if callID != "" {
		attrs = append(attrs, attribute.String(attrToolCallID, callID))
	}
	opts = append(opts, trace.WithSpanKind(trace.SpanKindInternal), trace.WithAttributes(attrs...))
	ctx, span := t.Start(ctx, opExecuteTool+" "+name, opts...)
	return ctx, func(call judge.ToolCall, opts ...trace.SpanEndOption) {
		if call.IsError {
			span.SetAttributes(attribute.Bool(attrToolError, true), attribute.String(attrErrorType, "tool_error"))
			span.SetStatus(codes.Error, excerpt(ctx, call.Result))
		}
		span.End(opts...)
	}
}

// ToolCallEnded records a tool call that ended at ended, and took
// call.Duration, as an execute_tool span of ctx's span, as StartTool and
// its end function would have: for the calls a recording MCP proxy saw,
// which reach Gavel once the agent's turn is over.
func ToolCallEnded(ctx context.Context, call judge.ToolCall, ended time.Time) {
	if tracer() == nil {
		return
	}
	_, end := startTool(ctx, call.Name, call.ID, trace.WithTimestamp(ended.Add(-call.Duration)))
	end(call, trace.WithTimestamp(ended))
}

// endWithError ends span, as failed with err when err is not nil (its
// message hidden as excerpt hides it).
func endWithError(ctx context.Context, span trace.Span, err error) {
	if err != nil {
		span.SetAttributes(attribute.String(attrErrorType, errorType(err)))
		span.SetStatus(codes.Error, excerpt(ctx, err.Error()))
	}
	span.End()
}
