package judge_test

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/gavelhq/gavel/judge"
)

func TestRunAlwaysReturnsAJudgment(t *testing.T) {
	tests := []struct {
		name          string
		judge         judge.Judge
		wantStatus    judge.Status
		wantReasoning string
	}{
		{"error becomes ERROR", failing("provider"), judge.StatusError, "provider is unreachable"},
		{"panic becomes ERROR", judge.Func(func(context.Context, *judge.Transcript) (judge.Judgment, error) {
			panic("index out of range")
		}), judge.StatusError, "judge panicked: index out of range"},
		{"empty status becomes ERROR", judge.Func(func(context.Context, *judge.Transcript) (judge.Judgment, error) {
			return judge.Judgment{Name: "sloppy"}, nil
		}), judge.StatusError, `judge "sloppy" returned an invalid judgment: status ""`},
		{"invalid score becomes ERROR", judge.Func(func(context.Context, *judge.Transcript) (judge.Judgment, error) {
			return judge.Judgment{Status: judge.StatusPass, Score: judge.Score{Kind: judge.Numerical, Value: 11, Max: 10}}, nil
		}), judge.StatusError, "outside its bounds"},
		{"nil judge becomes ERROR", nil, judge.StatusError, "no judge given"},
		{"valid judgment passes through", pass, judge.StatusPass, "p says PASS"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := judge.Run(context.Background(), tt.judge, &judge.Transcript{})
			if got.Status != tt.wantStatus || !strings.Contains(got.Reasoning, tt.wantReasoning) {
				t.Errorf("got %s %q, want %s containing %q", got.Status, got.Reasoning, tt.wantStatus, tt.wantReasoning)
			}
			if got.Duration <= 0 {
				t.Errorf("duration = %v, want the measured time", got.Duration)
			}
		})
	}
}

func TestStatusRefusesUnknownValues(t *testing.T) {
	var j judge.Judgment
	err := json.Unmarshal([]byte(`{"status":"MAYBE"}`), &j)
	if err == nil || !strings.Contains(err.Error(), `"MAYBE"`) {
		t.Errorf("error = %v, want one naming MAYBE", err)
	}
}

func TestCompositeReasoningKeepsPanicStacksInTheirPart(t *testing.T) {
	panicky := judge.Named("custom", judge.Func(func(context.Context, *judge.Transcript) (judge.Judgment, error) {
		panic("boom")
	}))
	got := judge.Run(context.Background(), judge.All(pass, panicky), &judge.Transcript{})
	if strings.Contains(got.Reasoning, "goroutine") || !strings.Contains(got.Reasoning, "judge panicked: boom") {
		t.Errorf("reasoning = %q, want the panic's first line without its stack", got.Reasoning)
	}
	if !strings.Contains(got.Parts[1].Reasoning, "goroutine") {
		t.Errorf("part reasoning = %q, want the stack kept in the part", got.Parts[1].Reasoning)
	}
}

func TestSummary(t *testing.T) {
	tests := []struct {
		j    judge.Judgment
		want string
	}{
		{judge.Judgment{Name: "tone", Reasoning: "too curt\nstack..."}, "tone: too curt"},
		{judge.Judgment{Reasoning: "too curt"}, "too curt"},
		{judge.Judgment{Name: "tone"}, "tone"},
	}
	for _, tt := range tests {
		if got := tt.j.Summary(); got != tt.want {
			t.Errorf("Summary() = %q, want %q", got, tt.want)
		}
	}
}

// A judge that could not judge may still have spent tokens (an LLM judge
// whose answers stayed malformed) and called tools (an agent judge): Run
// reports it as an ERROR that keeps its name, usage, tool calls and
// duration, so that every token paid for is counted.
// A judgment returned together with an error is an ERROR too, whatever
// its status: the error says it cannot be trusted.
func TestRunKeepsTheUsageOfAJudgeThatErred(t *testing.T) {
	spent := judge.Usage{InputTokens: 900, OutputTokens: 120, CostUSD: 0.002}
	calls := []judge.ToolCall{{ID: "call_1", Name: "read_text_file", Arguments: json.RawMessage(`{"path":"notes.md"}`), Result: "# Notes"}}
	tests := []struct {
		name          string
		status        judge.Status
		err           error
		wantReasoning string
	}{
		{"error without a status", "", errors.New("the model's answer could not be used"), "the model's answer could not be used"},
		{"PASS with an error", judge.StatusPass, errors.New("sample 2 of 3: timeout"), "sample 2 of 3: timeout"},
		{"FAIL with an error", judge.StatusFail, errors.New("sample 2 of 3: timeout"), "sample 2 of 3: timeout"},
		{"invalid status", "MAYBE", nil, `judge "rubric" returned an invalid judgment: status "MAYBE" is not one of PASS, FAIL, ABSTAIN, ERROR`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			erring := judge.Func(func(context.Context, *judge.Transcript) (judge.Judgment, error) {
				return judge.Judgment{Name: "rubric", Status: tt.status, Score: judge.Bool(true), ToolCalls: calls, Usage: spent, Duration: 3 * time.Second}, tt.err
			})
			got := judge.Run(context.Background(), erring, &judge.Transcript{})
			want := judge.Judgment{Name: "rubric", Status: judge.StatusError, Reasoning: tt.wantReasoning, ToolCalls: calls, Usage: spent, Duration: 3 * time.Second}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("Run (-want +got):\n%s", diff)
			}
		})
	}
}
