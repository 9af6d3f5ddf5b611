package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gavelhq/gavel/eval"
	"github.com/gavelhq/gavel/llm"
	"github.com/gavelhq/gavel/llm/llmtest"
)

// The llama.cpp case, end to end: the agent's model answers a tool call
// cut off by the token limit. Gavel does not run it, sends nothing more to
// the server, and the case is an ERROR that says why and what to change,
// with the turn marked in the turn-by-turn report.
func TestRunDoesNotActOnATruncatedReply(t *testing.T) {
	backend := &llmtest.Scripted{Rules: []llmtest.Rule{{ToolCalls: []llm.ToolCall{
		{Name: "get_order_status", Arguments: json.RawMessage(`{ "order_id" : "12345" }`)},
	}}}}
	srv := llmtest.NewOpenAIServer(backend)
	defer srv.Close()
	srv.TruncateNext()
	t.Setenv("OPENAI_BASE_URL", srv.URL)
	t.Setenv("OPENAI_API_KEY", "sk-test")

	dir := t.TempDir()
	suite := filepath.Join(dir, "gavel.yaml")
	os.WriteFile(suite, []byte(`name: truncated
agent:
  builtin: {model: "openai:agent", max_tokens: 64}
models: {judge: "openai:judge"}
cases:
  - id: lookup
    input: where's my order 12345?
    expected_tools: [get_order_status]
`), 0o644)
	code, out, errs := gavelCmd(t, "run", "--no-cache", "--verbose", suite)
	if code == eval.ExitPassed {
		t.Errorf("exit %d, want a failing exit code", code)
	}
	for _, want := range []string{
		"Failure detail (lookup, ERROR)",
		"the model's reply was cut off by the token limit (finish_reason length) while calling get_order_status: the calls were not run; raise the agent's max_tokens (now 64)",
		"agent (cut off by the token limit: finish_reason length)",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("the report lacks %q:\n%s\n%s", want, out, errs)
		}
	}
	if srv.Requests() != 1 {
		t.Errorf("the server got %d requests, want 1: nothing after the cut reply", srv.Requests())
	}
}
