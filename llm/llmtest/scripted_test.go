package llmtest_test

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/gavelhq/gavel/llm"
	"github.com/gavelhq/gavel/llm/llmtest"
)

func TestScripted(t *testing.T) {
	refused := errors.New("refused")
	m := &llmtest.Scripted{Rules: []llmtest.Rule{
		{Match: "cancel my order", ToolCalls: []llm.ToolCall{{Name: "cancel_order", Arguments: json.RawMessage(`{"order_id":"12345"}`)}}},
		{Match: `"cancelled":true`, Text: "Done: order 12345 is cancelled."},
		{Match: "forbidden", Err: refused},
		{When: func(r *llm.Request) bool { return len(r.Tools) > 0 }, Text: "I see tools."},
	}}
	ctx := context.Background()
	user := func(s string) *llm.Request {
		return &llm.Request{Messages: []llm.Message{{Role: llm.RoleUser, Content: s}}}
	}

	first, err := m.Generate(ctx, user("please cancel my order 12345"))
	if err != nil || len(first.ToolCalls) != 1 || first.ToolCalls[0].ID == "" || first.FinishReason != llm.FinishToolCalls {
		t.Fatalf("tool call turn: %+v, %v", first, err)
	}
	second, err := m.Generate(ctx, &llm.Request{Messages: []llm.Message{
		{Role: llm.RoleUser, Content: "please cancel my order 12345"},
		{Role: llm.RoleAssistant, ToolCalls: first.ToolCalls},
		{Role: llm.RoleTool, ToolCallID: first.ToolCalls[0].ID, Content: `{"cancelled":true}`},
	}})
	if err != nil || second.Text != "Done: order 12345 is cancelled." || second.Usage.InputTokens == 0 {
		t.Errorf("answer turn: %+v, %v", second, err)
	}
	if _, err := m.Generate(ctx, user("forbidden")); !errors.Is(err, refused) {
		t.Errorf("scripted error: %v, want %v", err, refused)
	}
	withTools := user("hello")
	withTools.Tools = []llm.Tool{{Name: "t"}}
	if resp, _ := m.Generate(ctx, withTools); resp == nil || resp.Text != "I see tools." {
		t.Errorf("When rule: %+v", resp)
	}
	if _, err := m.Generate(ctx, user("what is the weather?")); err == nil || !strings.Contains(err.Error(), `"what is the weather?"`) {
		t.Errorf("unscripted request: error = %v, want one quoting the message", err)
	}
	if got := len(m.Calls()); got != 5 {
		t.Errorf("recorded %d calls, want 5", got)
	}
}
