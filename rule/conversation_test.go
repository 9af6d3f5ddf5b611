package rule_test

import (
	"encoding/json"

	"github.com/gavelhq/gavel/judge"
)

// conversation returns a transcript in which the user asks "hi" and the
// agent answers with each of replies in turn.
func conversation(replies ...string) *judge.Transcript {
	t := &judge.Transcript{Goal: "hi"}
	for _, r := range replies {
		t.Turns = append(t.Turns, judge.Turn{Role: judge.RoleUser, Content: "hi"}, judge.Turn{Role: judge.RoleAgent, Content: r})
	}
	return t
}

// withCalls returns a one-turn transcript whose agent turn made calls,
// each given as a name and its JSON arguments.
func withCalls(calls ...string) *judge.Transcript {
	turn := judge.Turn{Role: judge.RoleAgent, Content: "done"}
	for i := 0; i+1 < len(calls); i += 2 {
		turn.ToolCalls = append(turn.ToolCalls, judge.ToolCall{Name: calls[i], Arguments: json.RawMessage(calls[i+1])})
	}
	return &judge.Transcript{Turns: []judge.Turn{{Role: judge.RoleUser, Content: "go"}, turn}}
}
