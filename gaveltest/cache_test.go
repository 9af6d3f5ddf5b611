package gaveltest_test

import (
	"context"
	"os"
	"path/filepath"
	"sync/atomic"
	"testing"

	"github.com/gavelhq/gavel"
	"github.com/gavelhq/gavel/gaveltest"
	"github.com/gavelhq/gavel/llm"
	"github.com/gavelhq/gavel/llm/llmtest"
)

// twoCases is a suite of two cases judged by a hard rule alone, played by
// the agent model ${M}.
const twoCases = `name: cache-check
max_followups: -1
models:
  judge: script:judge.yaml
agent:
  builtin:
    model: ${M}
    system_prompt: Be brief.
cases:
  - id: one
    input: hello
    rules: [{contains: hello, ignore_case: true}]
  - id: two
    input: hi there
    rules: [{contains: hello, ignore_case: true}]
`

// writeSuite writes twoCases and the given files into a new directory and
// returns it.
func writeSuite(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	files["gavel.yaml"] = twoCases
	files["judge.yaml"] = "rules: [{text: '{\"reasoning\": \"ok\", \"score\": 1}'}]\n"
	for name, content := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// cacheHits returns how many of the run's agent calls the cache answered.
func cacheHits(run *gavel.Run) int64 { return run.Stats().Usage.Agent.CacheHits }

// The cache answers a repeated run and nothing else: 2 cases × 3 trials
// call the agent's model 6 times cold, 0 times warm, and 6 times again for
// another model.
func TestRunCacheKeepsTrialsAndModelsApart(t *testing.T) {
	var requests atomic.Int32
	srv := llmtest.NewOpenAIServer(llm.Func(func(context.Context, *llm.Request) (*llm.Response, error) {
		requests.Add(1)
		return &llm.Response{Text: "Hello!", FinishReason: llm.FinishStop, Usage: llm.Usage{InputTokens: 10, OutputTokens: 2}}, nil
	}))
	defer srv.Close()
	suite, cache := writeSuite(t, map[string]string{}), t.TempDir()
	model := "openai:agent-a"
	env := func(k string) string {
		return map[string]string{"M": model, "OPENAI_BASE_URL": srv.URL, "OPENAI_API_KEY": "sk-test"}[k]
	}
	for _, step := range []struct {
		name, model string
		requests    int32
		hits        int64
	}{
		{"cold", "openai:agent-a", 6, 0},
		{"warm", "openai:agent-a", 0, 6},
		{"another model", "openai:agent-b", 6, 0},
	} {
		model = step.model
		requests.Store(0)
		run := gaveltest.Run(t, suite, gaveltest.Config{Trials: 3, Concurrency: 1, CacheDir: cache, Getenv: env})
		if got := requests.Load(); got != step.requests {
			t.Errorf("%s run: %d requests, want %d", step.name, got, step.requests)
		}
		if got := cacheHits(run); got != step.hits {
			t.Errorf("%s run: %d agent calls answered from the cache, want %d", step.name, got, step.hits)
		}
	}
}

// Two script files are two models: the second never gets the first's
// answers, though their requests are the same.
func TestRunCacheKeepsScriptsApart(t *testing.T) {
	suite := writeSuite(t, map[string]string{
		"a.yaml": "rules: [{text: Hello from a}]\n",
		"b.yaml": "rules: [{text: Hello from b}]\n",
	})
	cache := t.TempDir()
	for _, script := range []string{"a", "b"} {
		env := func(k string) string { return map[string]string{"M": "script:" + script + ".yaml"}[k] }
		run := gaveltest.Run(t, suite, gaveltest.Config{IDs: []string{"one"}, CacheDir: cache, Getenv: env})
		if got, want := run.Cases[0].Trials[0].Transcript.Response(), "Hello from "+script; got != want {
			t.Errorf("script %s: the agent said %q, want %q", script, got, want)
		}
	}
}
