package rule_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

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

// verdictCase is one row of a table test of a rule.
type verdictCase struct {
	name          string
	build         func() (judge.Judge, error)
	transcript    *judge.Transcript
	wantStatus    judge.Status
	wantReasoning string // a substring of the reasoning
}

func runVerdictCases(t *testing.T, cases []verdictCase) {
	t.Helper()
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			j, err := tc.build()
			if err != nil {
				t.Fatalf("building the rule: %v", err)
			}
			got := judge.Run(context.Background(), j, tc.transcript)
			if got.Status != tc.wantStatus || !strings.Contains(got.Reasoning, tc.wantReasoning) {
				t.Errorf("got %s %q\nwant %s containing %q", got.Status, got.Reasoning, tc.wantStatus, tc.wantReasoning)
			}
		})
	}
}

// buildErrorCase is one row of a table test of a rule's configuration
// errors.
type buildErrorCase struct {
	name    string
	build   func() (judge.Judge, error)
	wantErr string
}

func runBuildErrorCases(t *testing.T, cases []buildErrorCase) {
	t.Helper()
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, err := tc.build()
			if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
				t.Errorf("error = %v, want one containing %q", err, tc.wantErr)
			}
		})
	}
}
