package llmtest_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gavelhq/gavel/llm"
	"github.com/gavelhq/gavel/llm/llmtest"
)

const orderScript = `
name: support-agent
rules:
  - when: {user: 'cancel .*?(?P<id>\d{5})', last: user}
    tool_calls:
      - name: get_order_status
        arguments: {order_id: '${id}'}
  - when: {user: 'cancel .*?(?P<id>\d{5})', last: 'tool:get_order_status'}
    text: 'Order ${id} is cancelled.'
  - when: {history: 'order (?P<first>\d{5})', user: 'the same one'}
    text: 'You asked about ${first}.'
  - when: {system: 'evaluator', text: 'refund'}
    error: 'scripted outage'
  - when: {user: 'say (?P<what>.+)'}
    tool_calls:
      - name: echo
        arguments: {text: '${what}', unknown: '${nope}'}
  - text: 'I can help with orders.'
`

func ask(t *testing.T, m llm.Model, msgs ...llm.Message) *llm.Response {
	t.Helper()
	resp, err := m.Generate(context.Background(), &llm.Request{Messages: msgs})
	if err != nil {
		t.Fatal(err)
	}
	return resp
}

func TestScript(t *testing.T) {
	m, err := llmtest.ParseScript([]byte(orderScript))
	if err != nil {
		t.Fatal(err)
	}
	user := llm.Message{Role: llm.RoleUser, Content: "please cancel order 12345 now"}

	first := ask(t, m, user)
	if len(first.ToolCalls) != 1 || string(first.ToolCalls[0].Arguments) != `{"order_id":"12345"}` || first.Model != "support-agent" {
		t.Fatalf("first answer: %+v", first)
	}
	call := first.ToolCalls[0]
	second := ask(t, m, user,
		llm.Message{Role: llm.RoleAssistant, ToolCalls: []llm.ToolCall{call}},
		llm.Message{Role: llm.RoleTool, ToolCallID: call.ID, Content: `{"status":"processing"}`})
	if second.Text != "Order 12345 is cancelled." {
		t.Errorf("after the tool result: %q", second.Text)
	}

	third := ask(t, m, llm.Message{Role: llm.RoleUser, Content: "where's order 67890?"},
		llm.Message{Role: llm.RoleAssistant, Content: "Shipped."},
		llm.Message{Role: llm.RoleUser, Content: "and the same one again?"})
	if third.Text != "You asked about 67890." {
		t.Errorf("history: %q", third.Text)
	}

	_, err = m.Generate(context.Background(), &llm.Request{Messages: []llm.Message{
		{Role: llm.RoleSystem, Content: "You are an evaluator."}, {Role: llm.RoleUser, Content: "a refund?"},
	}})
	if err == nil || err.Error() != "scripted outage" {
		t.Errorf("error rule: %v", err)
	}

	echo := ask(t, m, llm.Message{Role: llm.RoleUser, Content: `say "hi"\`})
	if got := string(echo.ToolCalls[0].Arguments); got != `{"text":"\"hi\"\\","unknown":"${nope}"}` {
		t.Errorf("a capture must be escaped inside JSON, an unknown name kept: %s", got)
	}

	if got := ask(t, m, llm.Message{Role: llm.RoleUser, Content: "hello"}).Text; got != "I can help with orders." {
		t.Errorf("fallback: %q", got)
	}
}

func TestScriptErrors(t *testing.T) {
	for _, tc := range []struct{ name, script, want string }{
		{"unknown field, with its line", "rules:\n  - when: {usr: x}\n    text: y\n", "line 2: field usr not found"},
		{"bad expression", "rules:\n  - when: {user: '('}\n    text: y\n", "rule 1: when.user: error parsing regexp"},
		{"bad last", "rules:\n  - when: {last: tools}\n    text: y\n", `rule 1: when.last "tools"`},
		{"no rules", "name: x\n", "no rules"},
		{"text and error", "rules:\n  - {text: a, error: b}\n", "not both"},
		{"nameless tool call", "rules:\n  - tool_calls: [{arguments: {}}]\n", "tool call 1 has no name"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := llmtest.ParseScript([]byte(tc.script))
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("ParseScript error = %v, want one containing %q", err, tc.want)
			}
		})
	}
}

func TestOpenScript(t *testing.T) {
	path := filepath.Join(t.TempDir(), "agent.yaml")
	if err := os.WriteFile(path, []byte(orderScript), 0o644); err != nil {
		t.Fatal(err)
	}
	reg := llm.Registry{"script": llmtest.OpenScript}
	m, err := reg.Open("script:"+path, os.Getenv)
	if err != nil {
		t.Fatal(err)
	}
	if got := ask(t, m, llm.Message{Role: llm.RoleUser, Content: "hi"}).Text; got != "I can help with orders." {
		t.Errorf("got %q", got)
	}
	if _, err := reg.Open("script:"+filepath.Join(t.TempDir(), "missing.yaml"), os.Getenv); err == nil || !strings.Contains(err.Error(), "missing.yaml") {
		t.Errorf("a missing script: %v", err)
	}
}
