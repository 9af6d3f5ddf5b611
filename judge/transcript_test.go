package judge_test

import (
	"bytes"
	"encoding/json"
	"path/filepath"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/gavelhq/gavel/judge"
)

// fullTranscript sets every field, so the round trip covers them all.
func fullTranscript() *judge.Transcript {
	start := time.Date(2026, 3, 9, 14, 30, 0, 123456789, time.UTC)
	return &judge.Transcript{
		CaseID: "case_005",
		Trial:  2,
		Goal:   "cancel my order 12345",
		Turns: []judge.Turn{
			{Role: judge.RoleSystem, Content: "You are a support agent.", Time: start},
			{Role: judge.RoleUser, Content: "cancel my order 12345", Time: start.Add(time.Second)},
			{
				Role:    judge.RoleAgent,
				Content: "Done: order 12345 is cancelled.",
				Time:    start.Add(3 * time.Second),
				Latency: 1500 * time.Millisecond,
				ToolCalls: []judge.ToolCall{
					{ID: "call_1", Name: "get_order_status", Arguments: json.RawMessage(`{"order_id":"12345"}`), Result: `{"status":"shipped"}`, Duration: 20 * time.Millisecond},
					{ID: "call_2", Name: "cancel_order", Arguments: json.RawMessage(`{"confirmation":true,"order_id":"12345"}`), Result: "order already shipped", IsError: true, Duration: 31 * time.Millisecond},
				},
				Usage: judge.Usage{InputTokens: 900, OutputTokens: 40, CachedTokens: 512, CostUSD: 0.0012},
			},
			{Role: judge.RoleEvent, Content: "reminder: meeting tomorrow", Time: start.Add(time.Hour)},
		},
		FinalResponse: "Done: order 12345 is cancelled.",
		SessionID:     "sess-42",
		Revivals:      []judge.Revival{{BeforeTurn: 3, Time: start.Add(2 * time.Second)}},
		Workspace:     "/tmp/ws",
		Status:        judge.ExecSuccess,
		Started:       start,
		Duration:      3*time.Second + 250*time.Millisecond,
		Usage:         judge.Usage{InputTokens: 900, OutputTokens: 40, CachedTokens: 512, CostUSD: 0.0012},
		Metadata:      map[string]string{"source": "trace_2026_03_09", "owner": "evals-team"},
	}
}

func TestTranscriptRoundTripsThroughJSON(t *testing.T) {
	want := fullTranscript()
	first, err := json.Marshal(want)
	if err != nil {
		t.Fatal(err)
	}
	var got judge.Transcript
	if err := json.Unmarshal(first, &got); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(want, &got); diff != "" {
		t.Errorf("transcript changed in the round trip (-want +got):\n%s", diff)
	}
	second, err := json.Marshal(&got)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(first, second) {
		t.Errorf("JSON changed in the round trip:\nfirst:  %s\nsecond: %s", first, second)
	}
}

func TestJudgmentRoundTripsThroughJSON(t *testing.T) {
	seven, _ := judge.Number(7, 1, 10)
	want := judge.Judgment{
		Name: "jury", Status: judge.StatusFail, Score: seven, Reasoning: "2 of 3 failed",
		Checks:    []judge.Check{{Name: "character", Passed: true, Message: "sounds like Ori"}},
		Findings:  []judge.Finding{{Judge: "bubbles", Message: "4 paragraphs, 3 allowed"}},
		Parts:     []judge.Judgment{judge.Verdict(false, "no"), judge.Errored("timeout")},
		DecidedBy: "majority",
		Usage:     judge.Usage{InputTokens: 10, OutputTokens: 5, CostUSD: 0.5},
		Duration:  time.Second,
	}
	data, err := json.Marshal(want)
	if err != nil {
		t.Fatal(err)
	}
	var got judge.Judgment
	if err := json.Unmarshal(data, &got); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("judgment changed in the round trip (-want +got):\n%s", diff)
	}
}

func TestTranscriptAccessors(t *testing.T) {
	tr := fullTranscript()
	if got := len(tr.ToolCalls()); got != 2 {
		t.Errorf("ToolCalls() has %d calls, want 2", got)
	}
	if got := len(tr.AgentTurns()); got != 1 {
		t.Errorf("AgentTurns() has %d turns, want 1", got)
	}

	tr.FinalResponse = ""
	if got, want := tr.Response(), "Done: order 12345 is cancelled."; got != want {
		t.Errorf("Response() without a final response = %q, want the last agent turn %q", got, want)
	}

	var none *judge.Transcript
	if !none.IsEmpty() || none.Response() != "" || none.ToolCalls() != nil {
		t.Error("a nil transcript must read as empty")
	}
	if !(&judge.Transcript{FinalResponse: "  \n"}).IsEmpty() {
		t.Error("a transcript whose only response is blank must read as empty")
	}
}

func TestWorkspacePath(t *testing.T) {
	ws := filepath.Join(string(filepath.Separator), "ws")
	abs := filepath.Join(string(filepath.Separator), "elsewhere", "f")
	tests := []struct {
		name   string
		t      *judge.Transcript
		path   string
		want   string
		wantOK bool
	}{
		{"relative", &judge.Transcript{Workspace: ws}, "out/a.txt", filepath.Join(ws, "out", "a.txt"), true},
		{"empty is the workspace", &judge.Transcript{Workspace: ws}, "", ws, true},
		{"absolute", &judge.Transcript{Workspace: ws}, abs, abs, true},
		{"absolute without workspace", nil, abs, abs, true},
		{"dot dot allowed", &judge.Transcript{Workspace: ws}, "../x", filepath.Join(string(filepath.Separator), "x"), true},
		{"relative without workspace", &judge.Transcript{}, "a.txt", "", false},
		{"nil transcript", nil, "a.txt", "", false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, ok := tc.t.WorkspacePath(tc.path)
			if got != tc.want || ok != tc.wantOK {
				t.Errorf("WorkspacePath(%q) = %q, %v; want %q, %v", tc.path, got, ok, tc.want, tc.wantOK)
			}
		})
	}
}
