package agentjudge_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/gavelhq/gavel/agent"
	"github.com/gavelhq/gavel/agentjudge"
	"github.com/gavelhq/gavel/judge"
	"github.com/gavelhq/gavel/judge/judgetest"
	"github.com/gavelhq/gavel/llm"
	"github.com/gavelhq/gavel/llm/anthropic"
	"github.com/gavelhq/gavel/llm/llmtest"
	"github.com/gavelhq/gavel/llm/openai"
)

// The judge's tool calls through each provider and its fake server, which
// validates every request as the real API would: the tools offered, the
// assistant message that calls one and the tool's answer sent back must
// be requests the vendor accepts, and the verdict must come back parsed,
// in two calls (the read, then the answer).
func TestJudgeThroughTheVendorsWireFormats(t *testing.T) {
	vendors := []struct {
		name string
		open func(t *testing.T, backend llm.Model) (llm.Model, *llmtest.Fake)
	}{
		{"openai", func(t *testing.T, backend llm.Model) (llm.Model, *llmtest.Fake) {
			srv := llmtest.NewOpenAIServer(backend)
			t.Cleanup(srv.Close)
			m, err := openai.New(openai.Config{APIKey: "sk-test", BaseURL: srv.URL, Model: "gpt-5-mini"})
			if err != nil {
				t.Fatal(err)
			}
			return m, &srv.Fake
		}},
		{"anthropic", func(t *testing.T, backend llm.Model) (llm.Model, *llmtest.Fake) {
			srv := llmtest.NewAnthropicServer(backend)
			t.Cleanup(srv.Close)
			m, err := anthropic.New(anthropic.Config{APIKey: "sk-ant-test", BaseURL: srv.URL, Model: "claude-opus-4-5"})
			if err != nil {
				t.Fatal(err)
			}
			return m, &srv.Fake
		}},
	}
	for _, v := range vendors {
		t.Run(v.name, func(t *testing.T) {
			backend := readThenAnswer("notes.md", `{"reasoning": "notes.md lists the three action items.", "score": 0.9}`)
			model, fake := v.open(t, backend)
			box := &files{content: goodNotes}
			j, err := agentjudge.New(model, []agent.Toolbox{box}, agentjudge.Config{Criteria: notesCriteria})
			if err != nil {
				t.Fatal(err)
			}
			got := judgetest.Run(t, j, notesTranscript("/ws"))
			judgetest.Check(t, got, judge.StatusPass, []string{"score 0.9 ≥ 0.7: notes.md lists the three action items."}, nil)
			if n := fake.Requests(); n != 2 {
				t.Errorf("%d requests reached the vendor, want 2 (a rejected or re-asked request means the wire format is off)", n)
			}
			if len(got.ToolCalls) != 1 || got.ToolCalls[0].Name != "read_file" || got.ToolCalls[0].ID == "" || got.ToolCalls[0].Result != goodNotes["notes.md"] {
				t.Errorf("tool calls = %+v, want the read of notes.md with the vendor's call id", got.ToolCalls)
			}
			if got.Usage.InputTokens == 0 || got.Usage.OutputTokens == 0 {
				t.Errorf("usage = %+v, want the tokens the vendor reported", got.Usage)
			}
			// The backend saw, through the wire, the call and its result
			// sent back under the same id.
			calls := backend.Calls()
			if len(calls) != 2 {
				t.Fatalf("the backend got %d requests, want 2", len(calls))
			}
			msgs := calls[1].Messages
			var called, answered string
			for _, m := range msgs {
				if m.Role == llm.RoleAssistant && len(m.ToolCalls) == 1 && m.ToolCalls[0].Name == "read_file" {
					called = m.ToolCalls[0].ID
					var args map[string]string
					if err := json.Unmarshal(m.ToolCalls[0].Arguments, &args); err != nil || args["path"] != "notes.md" {
						t.Errorf("the call's arguments came through as %s", m.ToolCalls[0].Arguments)
					}
				}
				if m.Role == llm.RoleTool && strings.Contains(m.Content, "call the bank") {
					answered = m.ToolCallID
				}
			}
			if called == "" || called != answered || called != got.ToolCalls[0].ID {
				t.Errorf("call id %q, answered under %q, recorded as %q: want one id throughout", called, answered, got.ToolCalls[0].ID)
			}
		})
	}
}
