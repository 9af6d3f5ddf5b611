package main

import (
	"context"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/gavelhq/gavel"
	"github.com/gavelhq/gavel/eval"
	"github.com/gavelhq/gavel/judge"
	"github.com/gavelhq/gavel/llm"
	"github.com/gavelhq/gavel/llm/llmtest"
	"github.com/gavelhq/gavel/report"
)

// fakeVendor is a fake OpenAI server whose answers depend on the model a
// request names, counting the requests each model received.
type fakeVendor struct {
	*llmtest.OpenAIServer

	mu    sync.Mutex
	calls map[string]int
}

// newFakeVendor starts the server and points the environment's
// OPENAI_BASE_URL at it. The agent's models ("agent-…") greet, the
// simulated user ("user-m") asks one question and is done, the judge
// ("judge-m") scores 0.9 and the follow-up detector ("followup-m") sees
// nothing to ask.
func newFakeVendor(t *testing.T) *fakeVendor {
	t.Helper()
	v := &fakeVendor{calls: map[string]int{}}
	v.OpenAIServer = llmtest.NewOpenAIServer(llm.Func(func(_ context.Context, req *llm.Request) (*llm.Response, error) {
		v.mu.Lock()
		v.calls[req.Model]++
		v.mu.Unlock()
		text := "Hello! How can I help?"
		switch req.Model {
		case "user-m":
			text = "where is my order? <<DONE>>"
		case "judge-m":
			text = `{"reasoning": "Greets the user.", "score": 0.9}`
		case "followup-m":
			text = `{"reasoning": "Nothing to clarify.", "needs_followup": false, "reply": ""}`
		}
		return &llm.Response{Text: text, FinishReason: llm.FinishStop, Usage: llm.Usage{InputTokens: 100, OutputTokens: 10}}, nil
	}))
	t.Cleanup(v.Close)
	t.Setenv("OPENAI_BASE_URL", v.URL)
	t.Setenv("OPENAI_API_KEY", "sk-test")
	return v
}

// taken returns the requests counted since the last call, by model.
func (v *fakeVendor) taken() map[string]int {
	v.mu.Lock()
	defer v.mu.Unlock()
	out := v.calls
	v.calls = map[string]int{}
	return out
}

// cacheSuite is two cases judged by a hard rule alone, played by the agent
// model ${M}: only the agent calls a model.
const cacheSuite = `name: cache-check
max_followups: -1
models:
  judge: openai:judge-m
agent:
  builtin:
    model: openai:${M}
    system_prompt: Be brief.
cases:
  - id: one
    input: hello
    rules: [{contains: hello, ignore_case: true}]
  - id: two
    input: hi there
    rules: [{contains: hello, ignore_case: true}]
`

// gavelIn runs gavel in the working directory the test set (its cache is
// .gavel/cache there) and fails the test unless it exits with want.
func gavelIn(t *testing.T, want int, args ...string) string {
	t.Helper()
	var stdout, stderr strings.Builder
	if code := run(args, stdio{strings.NewReader(""), &stdout, &stderr}); code != want {
		t.Fatalf("gavel %s: exit %d, want %d\n%s\n%s", strings.Join(args, " "), code, want, stdout.String(), stderr.String())
	}
	return stdout.String()
}

// The cache answers a repeated run and nothing else: 2 cases × 3 trials
// call the agent's model 6 times cold (each trial its own answers), 0
// times warm, and 6 times again when the model's name changes.
func TestCacheKeepsTrialsAndModelsApart(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	suite := filepath.Join(dir, "gavel.yaml")
	if err := os.WriteFile(suite, []byte(cacheSuite), 0o644); err != nil {
		t.Fatal(err)
	}
	vendor := newFakeVendor(t)
	args := []string{"run", "--quiet", "--concurrency", "1", "--trials", "3", suite}

	// Each run's report says what the cache answered, in the totals and
	// the per-model table alike, and its JSON agrees.
	steps := []struct {
		name, model string
		want        map[string]int
		report      []string
		usage       judge.Usage // the agent's, and the model's
	}{
		{"cold", "agent-a", map[string]int{"agent-a": 6},
			[]string{"Tokens: 660 (agent 660; 6 calls)", "agent-a | 6     | 660"},
			judge.Usage{InputTokens: 600, OutputTokens: 60, Calls: 6, Unpriced: true}}, // the fake models have no price
		{"warm", "agent-a", map[string]int{},
			[]string{"Tokens: 0 (agent 0; 6 calls, all answered from the cache)", "agent-a | 6 (6 from the cache) | 0"},
			judge.Usage{Calls: 6, CacheHits: 6}},
		{"another model", "agent-b", map[string]int{"agent-b": 6},
			[]string{"Tokens: 660 (agent 660; 6 calls)", "agent-b | 6     | 660"},
			judge.Usage{InputTokens: 600, OutputTokens: 60, Calls: 6, Unpriced: true}}, // the fake models have no price
		{"the first model again", "agent-a", map[string]int{},
			[]string{"Tokens: 0 (agent 0; 6 calls, all answered from the cache)"},
			judge.Usage{Calls: 6, CacheHits: 6}},
	}
	for _, s := range steps {
		t.Setenv("M", s.model)
		out := gavelIn(t, eval.ExitPassed, args...)
		if diff := cmp.Diff(s.want, vendor.taken()); diff != "" {
			t.Errorf("%s run (%s): requests by model (-want +got):\n%s", s.name, s.model, diff)
		}
		for _, want := range s.report {
			if !strings.Contains(out, want) {
				t.Errorf("%s run: the report lacks %q:\n%s", s.name, want, out)
			}
		}
		stats := latestStats(t)
		if diff := cmp.Diff(s.usage, stats.Usage.Agent); diff != "" {
			t.Errorf("%s run: the agent's usage in latest.json (-want +got):\n%s", s.name, diff)
		}
		if diff := cmp.Diff(map[string]judge.Usage{s.model: s.usage}, stats.Models); diff != "" {
			t.Errorf("%s run: usage by model in latest.json (-want +got):\n%s", s.name, diff)
		}
	}
}

// latestStats reads the run's numbers from reports/latest.json.
func latestStats(t *testing.T) gavel.Stats {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("reports", "latest.json"))
	if err != nil {
		t.Fatal(err)
	}
	var r report.JSONReport
	if err := json.Unmarshal(data, &r); err != nil {
		t.Fatalf("reports/latest.json: %v", err)
	}
	return r.Stats
}

// personaSuite has a simulated user, the follow-up detector and an LLM
// judge, each on a model of its own: the chat case talks with the
// simulated user, the ask case's reply goes to the follow-up detector.
const personaSuite = `name: roles
models:
  judge: openai:judge-m
  user: openai:user-m
  followup: openai:followup-m
agent:
  builtin:
    model: openai:agent-a
    system_prompt: Be brief.
cases:
  - id: chat
    persona:
      name: Dana
      goal: find out where order 12345 is
    judge_prompt: The agent greets the user.
  - id: ask
    input: hello
    judge_prompt: The agent greets the user.
`

// Every role gets answers of its own in every trial: 3 trials of a
// conversation with a simulated user and of a prompt (which the follow-up
// detector reads) ask every model once per trial and case, cold, and none
// of them warm.
func TestCacheKeepsEveryRolesTrialsApart(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	suite := filepath.Join(dir, "gavel.yaml")
	if err := os.WriteFile(suite, []byte(personaSuite), 0o644); err != nil {
		t.Fatal(err)
	}
	vendor := newFakeVendor(t)
	args := []string{"run", "--quiet", "--concurrency", "1", "--trials", "3", suite}

	gavelIn(t, eval.ExitPassed, args...)
	want := map[string]int{"user-m": 3, "agent-a": 6, "followup-m": 3, "judge-m": 6}
	if diff := cmp.Diff(want, vendor.taken()); diff != "" {
		t.Errorf("cold run: requests by model (-want +got):\n%s", diff)
	}
	gavelIn(t, eval.ExitPassed, args...)
	if diff := cmp.Diff(map[string]int{}, vendor.taken()); diff != "" {
		t.Errorf("warm run: requests by model (-want +got):\n%s", diff)
	}
}

// --retry-errors asks the models again: a trial that ended in ERROR
// because a judge's answers were malformed would, from the cache, get the
// same answers and end the same way.
func TestRetryErrorsAsksTheModelsAgain(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	var broken atomic.Bool
	broken.Store(true)
	srv := llmtest.NewOpenAIServer(llm.Func(func(_ context.Context, req *llm.Request) (*llm.Response, error) {
		text := "Hello! How can I help?"
		if req.Model == "judge-m" {
			text = `{"reasoning": "Greets the user.", "score": 0.9}`
			if broken.Load() {
				text = "I would rather not say."
			}
		}
		return &llm.Response{Text: text, FinishReason: llm.FinishStop, Usage: llm.Usage{InputTokens: 100, OutputTokens: 10}}, nil
	}))
	t.Cleanup(srv.Close)
	t.Setenv("OPENAI_BASE_URL", srv.URL)
	t.Setenv("OPENAI_API_KEY", "sk-test")
	suite := filepath.Join(dir, "gavel.yaml")
	if err := os.WriteFile(suite, []byte(`name: retry-check
max_followups: -1
models: {judge: openai:judge-m}
agent:
  builtin: {model: openai:agent-m, system_prompt: Greet the user.}
cases:
  - {id: greeting, input: hello, judge_prompt: The reply greets the user.}
`), 0o644); err != nil {
		t.Fatal(err)
	}
	db := filepath.Join(dir, "runs.db")
	var stderr strings.Builder
	if code := run([]string{"run", "--quiet", "--db", db, suite}, stdio{strings.NewReader(""), io.Discard, &stderr}); code == eval.ExitPassed {
		t.Fatalf("the first run passed with a judge that answers nonsense:\n%s", stderr.String())
	}
	first := runID.FindStringSubmatch(stderr.String())[1]

	broken.Store(false) // the judge's provider is fixed
	out := gavelIn(t, eval.ExitPassed, "run", "--db", db, "--retry-errors", first, suite)
	if !strings.Contains(out, "greeting | -     | PASS") {
		t.Errorf("the retried trial did not pass:\n%s", out)
	}
}

// A resumed run's numbers add up: its table of models is the sum of its
// trials', the copied ones included, as its role totals are; and a run
// read back from the store still counts its calls and cache hits.
func TestResumedRunUsageAddsUp(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	newFakeVendor(t)
	suite := filepath.Join(dir, "gavel.yaml")
	if err := os.WriteFile(suite, []byte(`name: resume-check
max_followups: -1
models: {judge: openai:judge-m}
agent:
  builtin: {model: openai:agent-m, system_prompt: Greet the user.}
cases:
  - {id: a, input: hello, rules: [{contains: goodbye}]}
  - {id: b, input: hello, judge_prompt: The reply greets the user.}
`), 0o644); err != nil {
		t.Fatal(err)
	}
	db := filepath.Join(dir, "runs.db")
	var stderr strings.Builder
	// a fails, so fail-fast never starts b.
	run([]string{"run", "--quiet", "--fail-fast", "--concurrency", "1", "--db", db, suite}, stdio{strings.NewReader(""), io.Discard, &stderr})
	first := runID.FindStringSubmatch(stderr.String())[1]
	stderr.Reset()
	if code := run([]string{"run", "--quiet", "--db", db, "--resume", first, suite}, stdio{strings.NewReader(""), io.Discard, &stderr}); code != eval.ExitFailed {
		t.Fatalf("resume: exit %d, want 1 (a still fails)\n%s", code, stderr.String())
	}
	resumed := runID.FindStringSubmatch(stderr.String())[1]

	stats := latestStats(t)
	var byModel judge.Usage
	for _, u := range stats.Models {
		byModel = byModel.Add(u)
	}
	total := stats.Usage.Total()
	if total.Tokens() == 0 || byModel.Tokens() != total.Tokens() || byModel.Calls != total.Calls || byModel.Calls != 3 {
		t.Errorf("the resumed run: roles %+v, models %+v (%v); want the same tokens and 3 calls", total, byModel, stats.Models)
	}
	out := gavelIn(t, eval.ExitPassed, "show", "--db", db, resumed)
	if !strings.Contains(out, "3 calls") {
		t.Errorf("the stored run does not count its calls:\n%s", out)
	}
}

// scriptSuite is the starter's shape: a builtin agent played by the
// script models/agent.yaml, judged by a hard rule.
const scriptSuite = `name: script-edit
max_followups: -1
models:
  judge: script:models/agent.yaml
agent:
  builtin:
    model: script:models/agent.yaml
    system_prompt: Be brief.
cases:
  - id: greeting
    input: hello
    rules: [{contains: hello, ignore_case: true}]
`

// An edited script answers with its new text, the cache on: the cache
// keys a script model by the file's content, not by its path, so the
// first run's answers are not replayed for a script that no longer gives
// them (and come back when the script does again).
func TestCacheReadsTheEditedScript(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	suite := filepath.Join(dir, "gavel.yaml")
	script := filepath.Join(dir, "models", "agent.yaml")
	if err := os.MkdirAll(filepath.Dir(script), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(suite, []byte(scriptSuite), 0o644); err != nil {
		t.Fatal(err)
	}
	say := func(text string) {
		t.Helper()
		if err := os.WriteFile(script, []byte("rules:\n  - text: "+text+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	args := []string{"run", "--quiet", suite}
	for _, step := range []struct {
		name, text string
		exit       int
		cached     bool
	}{
		{"first run", "Hello there!", eval.ExitPassed, false},
		{"the script edited", "Goodbye.", eval.ExitFailed, false},
		{"the first script back", "Hello there!", eval.ExitPassed, true},
	} {
		say(step.text)
		out := gavelIn(t, step.exit, args...)
		if cached := strings.Contains(out, "answered from the cache"); cached != step.cached {
			t.Errorf("%s: answered from the cache = %v, want %v:\n%s", step.name, cached, step.cached, out)
		}
	}
}
