package spec_test

import (
	"strings"
	"testing"

	"github.com/gavelhq/gavel/agent"
	"github.com/gavelhq/gavel/llm"
	"github.com/gavelhq/gavel/llm/llmtest"
	"github.com/gavelhq/gavel/spec"
)

// The builtin agent's max_tokens reaches every model call; a negative one
// is a problem of the suite.
func TestBuiltinMaxTokens(t *testing.T) {
	model := &llmtest.Scripted{Rules: []llmtest.Rule{{Text: "ok"}}}
	env := testEnv()
	env.Registry["seen"] = func(llm.Ref, func(string) string) (llm.Model, error) { return model, nil }
	suite := func(maxTokens string) string {
		return "agent:\n  builtin: {model: 'seen:agent', max_tokens: " + maxTokens + "}\nmodels: {judge: 'fake:judge'}\ncases:\n  - {id: a, input: hi, judge_prompt: be nice}\n"
	}
	b, err := spec.Open(suiteDir(t, map[string]string{"gavel.yaml": suite("300")}), env)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	s, err := b.Suite.Agent.Open(t.Context(), "s")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.Send(t.Context(), agent.Message{Text: "hi"}); err != nil {
		t.Fatal(err)
	}
	if calls := model.Calls(); len(calls) != 1 || calls[0].MaxTokens != 300 {
		t.Errorf("the model got %d calls, the first with max tokens %d; want 1 with 300", len(calls), calls[0].MaxTokens)
	}
	if _, err := spec.Open(suiteDir(t, map[string]string{"gavel.yaml": suite("-1")}), env); err == nil || !strings.Contains(err.Error(), "agent.builtin: builtin agent: max_tokens is -1") {
		t.Errorf("got %v, want a problem with max_tokens", err)
	}
}
