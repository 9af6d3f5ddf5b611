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
		Context: []judge.Turn{
			{Role: judge.RoleUser, Content: "hi", Round: 1},
		},
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
				Usage:        judge.Usage{InputTokens: 900, OutputTokens: 40, CachedTokens: 512, CostUSD: 0.0012},
				FinishReason: "stop",
			},
			{Role: judge.RoleUser, Content: "yes, cancel it", Round: 2, Origin: judge.OriginFollowUp},
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
		ToolCalls: []judge.ToolCall{
			{ID: "call_1", Name: "read_text_file", Arguments: json.RawMessage(`{"path":"/ws/notes.md"}`), Result: "# Notes", Duration: 3 * time.Millisecond},
			{ID: "call_2", Name: "read_text_file", Arguments: json.RawMessage(`{"path":"/etc/passwd"}`), Result: "access denied", IsError: true},
		},
		Usage:    judge.Usage{InputTokens: 10, OutputTokens: 5, CostUSD: 0.5},
		Duration: time.Second,
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

func TestRound(t *testing.T) {
	tr := &judge.Transcript{
		Goal:   "help with my order",
		Status: judge.ExecTimeout,
		Error:  "no answer within 2m",
		Turns: []judge.Turn{
			{Role: judge.RoleUser, Content: "where's order 12345?", Round: 1},
			{Role: judge.RoleAgent, Content: "Shipped.", Round: 1, Usage: judge.Usage{InputTokens: 10},
				ToolCalls: []judge.ToolCall{{Name: "get_order_status"}}},
			{Role: judge.RoleUser, Content: "cancel it", Round: 2},
			{Role: judge.RoleAgent, Content: "Which order?", Round: 2, Usage: judge.Usage{InputTokens: 20}},
			{Role: judge.RoleUser, Content: "12345", Round: 2, Origin: judge.OriginFollowUp},
			{Role: judge.RoleAgent, Content: "It has shipped; I can't.", Round: 2, Usage: judge.Usage{InputTokens: 30}},
			{Role: judge.RoleUser, Content: "ok", Round: 3},
		},
		Revivals: []judge.Revival{{BeforeTurn: 2}},
	}
	if got := tr.RoundCount(); got != 3 {
		t.Errorf("RoundCount() = %d, want 3", got)
	}

	second := tr.Round(2)
	want := &judge.Transcript{
		Goal:     "cancel it",
		Status:   judge.ExecSuccess,
		Context:  tr.Turns[:2],
		Turns:    tr.Turns[2:6],
		Revivals: []judge.Revival{{BeforeTurn: 0}},
		Usage:    judge.Usage{InputTokens: 50},
	}
	if diff := cmp.Diff(want, second); diff != "" {
		t.Errorf("Round(2) (-want +got):\n%s", diff)
	}
	if got := second.Response(); got != "It has shipped; I can't." {
		t.Errorf("Round(2).Response() = %q, want the round's last agent turn", got)
	}
	if got := len(second.ToolCalls()); got != 0 {
		t.Errorf("Round(2) has %d tool calls; round 1's must not count", got)
	}

	last := tr.Round(3)
	if last.Status != judge.ExecTimeout || last.Error == "" {
		t.Errorf("the round where the execution ended keeps its status: got %s %q", last.Status, last.Error)
	}
	if got := tr.Round(4); got.Turns != nil || len(got.Context) != len(tr.Turns) {
		t.Errorf("a round that never started has no turns and the whole conversation as context: %+v", got)
	}

	// Appending to a round's context must not write into the transcript.
	ctx := tr.Round(2).Context
	_ = append(ctx, judge.Turn{Content: "x"})
	if tr.Turns[2].Content != "cancel it" {
		t.Error("Round shares its context's spare capacity with the transcript")
	}
}

func TestAbnormalFinish(t *testing.T) {
	for reason, want := range map[string]bool{"": false, "stop": false, "tool_calls": false, "length": true, "filtered": true, "pause_turn": true} {
		if got := (judge.Turn{FinishReason: reason}).AbnormalFinish(); got != want {
			t.Errorf("AbnormalFinish with %q = %v, want %v", reason, got, want)
		}
	}
}
