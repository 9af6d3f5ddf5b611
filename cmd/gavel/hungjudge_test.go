package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gavelhq/gavel/eval"
	"github.com/gavelhq/gavel/llm/llmtest"
)

// A judge whose model never answers is an ERROR that names the judge, and
// the tiers that ran before it keep their results: the rule that passed is
// still in the verdict. Both were lost to "ERROR tiered: context deadline
// exceeded".
func TestHungJudgeIsNamed(t *testing.T) {
	judgeServer := llmtest.NewOpenAIServer(&llmtest.Scripted{Rules: []llmtest.Rule{{Text: `{"reasoning": "fine", "score": 0.9}`}}})
	defer judgeServer.Close()
	for range 10 { // every attempt the retries make
		judgeServer.HangNext()
	}
	t.Setenv("OPENAI_BASE_URL", judgeServer.URL)
	t.Setenv("OPENAI_API_KEY", "sk-test")
	dir := t.TempDir()
	suite := filepath.Join(dir, "gavel.yaml")
	os.WriteFile(filepath.Join(dir, "agent.yaml"), []byte("name: greeter\nrules:\n  - text: hello, how can I help?\n"), 0o644)
	os.WriteFile(suite, []byte(`name: hung
agent:
  builtin: {model: 'script:agent.yaml'}
models: {judge: 'openai:gpt-5'}
max_followups: -1
cases:
  - id: a
    input: hello there
    rules: [{contains: hello}]
    judge_prompt: The reply is polite.
`), 0o644)
	code, out, errs := gavelCmd(t, "run", "--no-cache", "--verbose", "--timeout", "2s", "--db", filepath.Join(dir, "runs.db"), "--out", filepath.Join(dir, "r.json"), suite)
	if code != eval.ExitInfra {
		t.Errorf("exit %d, want 3 (the judge's model could not be reached)\n%s%s", code, out, errs)
	}
	for _, want := range []string{
		"Verdict:  ERROR: could not be judged by judge_prompt: ",
		`PASS contains "hello": final response does contain "hello"`,
		"ERROR judge_prompt: judge_prompt: ask the model: openai: context deadline exceeded",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("the report lacks %q:\n%s", want, out)
		}
	}
}
