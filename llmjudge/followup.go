package llmjudge

import (
	"context"
	"fmt"
	"strings"

	"github.com/gavelhq/gavel/judge"
	"github.com/gavelhq/gavel/llm"
)

// FollowUpConfig configures a FollowUp detector. The zero value is the
// defaults. Samples and Aggregate must be left unset.
type FollowUpConfig struct {
	Options
}

// FollowUp detects an agent that asks the user for clarification instead
// of answering ("Which listing would you like the occupancy for?"), and
// writes a reasonable reply to give it, so that a runner can carry the
// conversation on to a real answer.
//
// As a judge, it passes when the agent answered rather than asked.
type FollowUp struct {
	model  llm.Model
	s      settings
	prompt *prompt
}

// FollowUpResult is the outcome of Detect.
type FollowUpResult struct {
	// NeedsFollowUp is true when the reply asks the user for
	// clarification instead of answering.
	NeedsFollowUp bool
	// Reply is what the user could answer, when NeedsFollowUp; else "".
	Reply string
	// Reasoning is the model's explanation, when it gave one.
	Reasoning string
	// Usage is what the call cost, re-asks included.
	Usage judge.Usage
}

var followUpSchema = verdictSchema("follow_up", objectSchema(
	property{"reasoning", `{"type":"string","description":"a brief explanation, written before the decision"}`},
	property{"needs_followup", `{"type":"boolean","description":"true when the reply asks the user for clarification instead of answering"}`},
	property{"reply", `{"type":"string","description":"when needs_followup, a reasonable reply giving the clarification; else empty"}`},
))

// NewFollowUp returns a FollowUp detector asking model. It is an error for
// the model to be nil or the configuration out of range.
func NewFollowUp(model llm.Model, c FollowUpConfig) (*FollowUp, error) {
	const kind = "follow-up"
	s, err := c.resolve(kind, defaultMaxTokens, false)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", kind, err)
	}
	if len(c.Examples) > 0 {
		return nil, fmt.Errorf("%s: examples: %s takes none (it detects questions, it does not judge)", s.name, kind)
	}
	if err := checkModel(model); err != nil {
		return nil, fmt.Errorf("%s: %w", s.name, err)
	}
	f := &FollowUp{model: model, s: s}
	f.prompt, err = newPrompt("followup", c.Prompt, nil, f.data(historyOf(sampleTranscript), "can you check my order?", "Sure! What is the order number?"))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", s.name, err)
	}
	return f, nil
}

func (f *FollowUp) data(history, request, reply string) PromptData {
	return PromptData{History: history, Goal: fence("original_request", request), Response: fence("agent_reply", reply)}
}

func (f *FollowUp) request(history, request, reply string) (llm.Request, error) {
	msgs, err := f.prompt.render(f.data(history, request, reply))
	if err != nil {
		return llm.Request{}, fmt.Errorf("render the prompt: %w", err)
	}
	return f.s.request(msgs, followUpSchema), nil
}

// parseFollowUp reads {"reasoning": "…", "needs_followup": bool, "reply":
// "…"}. A follow-up without a reply is malformed; the reasoning may be
// left out.
func parseFollowUp(answer string) (FollowUpResult, error) {
	return unambiguous(answer, followUpFormat, readFollowUp)
}

// followUpFormat is the answer of the follow-up detector.
var followUpFormat = format{shape: shape{"needs_followup": nil, "reply": nil, "reasoning": nil}, decisions: []string{"needs_followup"}, where: `"needs_followup"`}

// readFollowUp reads a follow-up answer's fields.
func readFollowUp(m map[string]any) (FollowUpResult, error) {
	needs, err := boolean(m, "needs_followup")
	if err != nil {
		return FollowUpResult{}, err
	}
	reply, err := text(m, "reply", needs)
	if err != nil {
		return FollowUpResult{}, fmt.Errorf("%w: a follow-up needs the reply to give", err)
	}
	reasoning, err := text(m, "reasoning", false)
	if err != nil {
		return FollowUpResult{}, err
	}
	if !needs {
		reply = ""
	}
	return FollowUpResult{NeedsFollowUp: needs, Reply: reply, Reasoning: reasoning}, nil
}

// questionMarks are the question marks of the scripts agents write in:
// Latin, full-width (CJK), Spanish opening, Arabic, Greek.
const questionMarks = "?？¿؟\u037e"

// AsksNothing is the follow-up detector's pre-check: it reports, with the
// reason, whether reply plainly asks the user nothing, so that no model
// need be asked whether it asks for clarification. A blank reply asks
// nothing; nor does one without a question mark, such as the reply of an
// agent that acted (made toolCalls tool calls) and reported what it did.
// A reply with a question mark may ask something: the model decides.
func AsksNothing(reply string, toolCalls int) (reason string, ok bool) {
	switch {
	case strings.TrimSpace(reply) == "":
		return "the reply is blank", true
	case strings.ContainsAny(reply, questionMarks):
		return "", false
	case toolCalls > 0:
		return fmt.Sprintf("the agent made %d tool call(s) and its reply has no question mark", toolCalls), true
	}
	return "no question mark in the reply", true
}

// Detect reports whether reply, the agent's answer to request, asks for
// clarification instead of answering, and if so a reply to give. A reply
// that asks nothing (see AsksNothing) needs no follow-up and costs no
// call. Detect returns an error when it could not tell: the model failed,
// or its answer was still malformed after the re-asks.
func (f *FollowUp) Detect(ctx context.Context, request, reply string) (FollowUpResult, error) {
	return f.detect(ctx, "", request, reply, 0)
}

// DetectIn is Detect on a transcript: it examines t's response to its
// goal, and shows the model t's Context, so that a question about
// something said in an earlier round is understood. A conversation driver
// calls it on the round in progress (judge.Transcript.Round).
func (f *FollowUp) DetectIn(ctx context.Context, t *judge.Transcript) (FollowUpResult, error) {
	return f.detect(ctx, historyOf(t), goalOf(t), t.Response(), lastToolCalls(t))
}

// lastToolCalls counts the tool calls of t's last agent turn.
func lastToolCalls(t *judge.Transcript) int {
	for i := len(t.Turns) - 1; i >= 0; i-- {
		if t.Turns[i].Role == judge.RoleAgent {
			return len(t.Turns[i].ToolCalls)
		}
	}
	return 0
}

func (f *FollowUp) detect(ctx context.Context, history, request, reply string, toolCalls int) (FollowUpResult, error) {
	if why, ok := AsksNothing(reply, toolCalls); ok {
		return FollowUpResult{Reasoning: why}, nil
	}
	req, err := f.request(history, request, reply)
	if err != nil {
		return FollowUpResult{}, fmt.Errorf("%s: %w", f.s.name, err)
	}
	res, usage, err := ask(ctx, f.model, req, f.s.retries, parseFollowUp)
	res.Usage = judgeUsage(usage)
	if err != nil {
		return res, fmt.Errorf("%s: %w", f.s.name, err)
	}
	return res, nil
}

// Judge passes when t's response answers the user's request rather than
// asking for clarification; a blank response fails.
func (f *FollowUp) Judge(ctx context.Context, t *judge.Transcript) (judge.Judgment, error) {
	out := judge.Judgment{Name: f.s.name, Prompt: f.prompt.version}
	if why := noResponse(t); why != "" {
		out.Status, out.Reasoning = judge.StatusFail, why
		return out, nil
	}
	res, err := f.DetectIn(ctx, t)
	out.Usage = res.Usage
	if err != nil {
		return out, err
	}
	if res.NeedsFollowUp {
		out.Status, out.Score = judge.StatusFail, judge.Bool(false)
		out.Reasoning = "the agent asks for clarification instead of answering"
	} else {
		out.Status, out.Score = judge.StatusPass, judge.Bool(true)
		out.Reasoning = "the agent answers instead of asking for clarification"
	}
	if res.Reasoning != "" {
		out.Reasoning += ": " + res.Reasoning
	}
	return out, nil
}
