package telemetry

import (
	"context"
	"errors"
	"strconv"

	"github.com/gavelhq/gavel/judge"
	"github.com/gavelhq/gavel/llm"
	"github.com/gavelhq/gavel/secret"
)

// The attributes of the OpenTelemetry semantic conventions for generative
// AI (spans: inference, execute tool, invoke agent; the event
// gen_ai.evaluation.result), named as the conventions name them, and
// Gavel's own, under gavel.*. docs/decisions/0015-opentelemetry-traces.md
// says which span carries which.
const (
	attrOperation     = "gen_ai.operation.name"
	attrProvider      = "gen_ai.provider.name"
	attrRequestModel  = "gen_ai.request.model"
	attrResponseModel = "gen_ai.response.model"
	attrRequestID     = "gavel.request_id" // the vendor's id of the request (a header), not of the response
	attrResponseID    = "gen_ai.response.id"
	attrFinishReasons = "gen_ai.response.finish_reasons"
	attrMaxTokens     = "gen_ai.request.max_tokens"
	attrTemperature   = "gen_ai.request.temperature"
	attrSeed          = "gen_ai.request.seed"
	attrOutputType    = "gen_ai.output.type"
	attrInputTokens   = "gen_ai.usage.input_tokens"
	attrOutputTokens  = "gen_ai.usage.output_tokens"
	attrCacheRead     = "gen_ai.usage.cache_read.input_tokens"
	attrConversation  = "gen_ai.conversation.id"
	attrToolName      = "gen_ai.tool.name"
	attrToolCallID    = "gen_ai.tool.call.id"
	attrToolType      = "gen_ai.tool.type"
	attrServerAddress = "server.address"
	attrServerPort    = "server.port"
	attrErrorType     = "error.type"

	eventEvaluation       = "gen_ai.evaluation.result"
	attrEvaluationName    = "gen_ai.evaluation.name"
	attrEvaluationScore   = "gen_ai.evaluation.score.value"
	attrEvaluationLabel   = "gen_ai.evaluation.score.label"
	attrEvaluationExplain = "gen_ai.evaluation.explanation"

	attrSuite      = "gavel.suite"
	attrRunID      = "gavel.run.id"
	attrRejudges   = "gavel.run.rejudges"
	attrRunPassed  = "gavel.run.passed"
	attrComplete   = "gavel.run.complete"
	attrCaseID     = "gavel.case.id"
	attrTrial      = "gavel.trial"
	attrRound      = "gavel.round"
	attrJudge      = "gavel.judge.name"
	attrVerdict    = "gavel.verdict"
	attrScore      = "gavel.score"
	attrDecidedBy  = "gavel.decided_by"
	attrReasoning  = "gavel.reasoning"
	attrExecStatus = "gavel.exec_status"
	attrCacheHit   = "gavel.cache.hit"
	attrToolError  = "gavel.tool.is_error"
)

// The operations of gen_ai.operation.name that Gavel's spans are.
const (
	opChat        = "chat"
	opExecuteTool = "execute_tool"
	opInvokeAgent = "invoke_agent"
)

// errorOther is error.type's value when nothing more precise is known,
// as the conventions name it.
const errorOther = "_OTHER"

// errorType is error.type for err: a vendor's HTTP status, "timeout" or
// "cancelled" for a context that ended, "unreachable" for a service that
// could not be reached, else _OTHER.
func errorType(err error) string {
	var api *llm.APIError
	switch {
	case errors.As(err, &api) && api.StatusCode != 0:
		return strconv.Itoa(api.StatusCode)
	case errors.Is(err, context.DeadlineExceeded):
		return "timeout"
	case errors.Is(err, context.Canceled):
		return "cancelled"
	}
	return causeType(judge.CauseOf(err))
}

// causeType is error.type for a judgment's or transcript's cause.
func causeType(c judge.Cause) string {
	if c == "" {
		return errorOther
	}
	return string(c)
}

// maxText caps the text Gavel puts in an attribute (a judge's reasoning):
// backends limit attribute sizes, and the whole text is in the store.
const maxText = 1024

// excerpt is the start of s, for an attribute, with the secrets of ctx's
// Set hidden (secret.FromContext: the runner puts the suite's in each
// trial's context).
func excerpt(ctx context.Context, s string) string {
	s = secret.FromContext(ctx).Redact(s)
	if len(s) <= maxText {
		return s
	}
	cut := maxText
	for cut > 0 && s[cut]&0xC0 == 0x80 { // not in the middle of a UTF-8 sequence
		cut--
	}
	return s[:cut] + "…"
}
