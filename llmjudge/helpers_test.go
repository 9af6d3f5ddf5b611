package llmjudge

import (
	"encoding/json"
	"strings"

	"github.com/gavelhq/gavel/judge"
	"github.com/gavelhq/gavel/llm"
	"github.com/gavelhq/gavel/llm/llmtest"
)

// answers returns a scripted model that gives texts in order, one per
// call, and the last one to every call after.
func answers(texts ...string) *llmtest.Scripted {
	s := &llmtest.Scripted{Name: "judge-model"}
	for i, text := range texts {
		if i == len(texts)-1 {
			s.Rules = append(s.Rules, llmtest.Rule{Text: text})
			break
		}
		s.Rules = append(s.Rules, llmtest.Rule{Text: text, When: func(*llm.Request) bool { return len(s.Calls()) == i+1 }})
	}
	return s
}

// orderTranscript is the seeds' happy-path lookup.
func orderTranscript() *judge.Transcript {
	return &judge.Transcript{
		CaseID: "case_001",
		Goal:   "where's my order #12345?",
		Turns: []judge.Turn{
			{Role: judge.RoleUser, Content: "where's my order #12345?"},
			{Role: judge.RoleAgent, Content: "Your order 12345 shipped on March 10 and should arrive on 2026-03-15.", ToolCalls: []judge.ToolCall{
				{Name: "get_order_status", Arguments: json.RawMessage(`{"order_id":"12345"}`), Result: `{"status":"shipped","shipped":"2026-03-10","eta":"2026-03-15"}`},
			}},
		},
	}
}

// reply returns a one-exchange transcript.
func reply(goal, response string) *judge.Transcript {
	return &judge.Transcript{Goal: goal, Turns: []judge.Turn{
		{Role: judge.RoleUser, Content: goal},
		{Role: judge.RoleAgent, Content: response},
	}}
}

// seedAxes are the four criteria of the seeds' conversational judge.
var seedAxes = []Axis{
	{Name: "character", Description: "Does it sound like Ori: calm, warm and measured, never suddenly enthusiastic?"},
	{Name: "guidance", Description: "Does it follow the current stage's objective, without jumping ahead (no matches before profiling is done)?"},
	{Name: "conversation", Description: "Does it react to what the user actually said, without asking the same question twice?"},
	{Name: "style", Description: "Does it respect the formatting rules: lowercase, short bubbles, no em-dashes, no placeholders?"},
}

// must returns v, or panics with err: for setup that cannot fail unless
// the test itself is wrong.
func must[V any](v V, err error) V {
	if err != nil {
		panic(err)
	}
	return v
}

// lastUser returns the content of the last user message of req.
func lastUser(req *llm.Request) string {
	for i := len(req.Messages) - 1; i >= 0; i-- {
		if req.Messages[i].Role == llm.RoleUser {
			return req.Messages[i].Content
		}
	}
	return ""
}

// asJudge returns j as a judge.Judge, or a nil judge.Judge when j is nil
// (not an interface holding a nil pointer).
func asJudge[J judge.Judge](j J, err error) (judge.Judge, error) {
	if err != nil {
		return nil, err
	}
	return j, nil
}

func contains(haystack string, needles ...string) bool {
	for _, n := range needles {
		if !strings.Contains(haystack, n) {
			return false
		}
	}
	return true
}
