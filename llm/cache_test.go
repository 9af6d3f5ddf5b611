package llm_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/gavelhq/gavel/llm"
)

// counting answers every request and counts them.
type counting struct{ calls int }

func (c *counting) Generate(_ context.Context, req *llm.Request) (*llm.Response, error) {
	c.calls++
	return answer(req), nil
}

// cached wraps next in a cache opened with c, for the model
// "openai:gpt-5-mini"; the cache is closed when the test ends.
func cached(t *testing.T, c llm.CacheConfig, next llm.Model) llm.Model {
	t.Helper()
	return cachedAs(t, c, "openai:gpt-5-mini", next)
}

// cachedAs wraps next in a cache opened with c, for the model namespace
// names.
func cachedAs(t *testing.T, c llm.CacheConfig, namespace string, next llm.Model) llm.Model {
	t.Helper()
	cache, err := llm.OpenCache(c)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cache.Close() })
	return cache.Middleware(namespace)(next)
}

func TestCacheAnswersRepeatedRequests(t *testing.T) {
	dir := t.TempDir()
	model := &counting{}
	m := cached(t, llm.CacheConfig{Dir: dir}, model)
	ctx := context.Background()

	first, err := m.Generate(ctx, ask("where is my order?"))
	if err != nil || first.Cached {
		t.Fatalf("first call: %+v, %v; want a fresh answer", first, err)
	}
	if want := (llm.Usage{InputTokens: 1000, OutputTokens: 100, Calls: 1}); first.Usage != want {
		t.Errorf("first call's usage %+v, want %+v", first.Usage, want)
	}
	again, err := m.Generate(ctx, ask("where is my order?"))
	if err != nil || !again.Cached || again.Text != first.Text {
		t.Errorf("second call: %+v, %v; want the first answer, marked cached", again, err)
	}
	// A cached answer cost nothing this time: one call, one hit, no tokens.
	if want := (llm.Usage{Calls: 1, CacheHits: 1}); again.Usage != want {
		t.Errorf("second call's usage %+v, want %+v", again.Usage, want)
	}
	if model.calls != 1 {
		t.Errorf("model called %d times, want 1", model.calls)
	}

	// A new Cache over the same directory (the next run) answers too.
	next := &counting{}
	if resp, _ := cached(t, llm.CacheConfig{Dir: dir}, next).Generate(ctx, ask("where is my order?")); !resp.Cached || next.calls != 0 {
		t.Errorf("next run: cached=%v, %d model calls; want it answered from disk", resp.Cached, next.calls)
	}
}

func TestCacheKeysTellRequestsApart(t *testing.T) {
	temp := 0.0
	base := ask("hi")
	variants := map[string]func(r *llm.Request){
		"another sample": func(r *llm.Request) { r.Trial = 2 },
		"another model":  func(r *llm.Request) { r.Model = "gpt-5" },
		"a temperature":  func(r *llm.Request) { r.Temperature = &temp },
		"another message": func(r *llm.Request) {
			r.Messages = append(r.Messages, llm.Message{Role: llm.RoleUser, Content: "more"})
		},
		"a tool": func(r *llm.Request) {
			r.Tools = []llm.Tool{{Name: "t", Parameters: json.RawMessage(`{"type":"object"}`)}}
		},
		"a schema": func(r *llm.Request) { r.ResponseSchema = &llm.Schema{Name: "v", Schema: json.RawMessage(`{}`)} },
	}
	for name, change := range variants {
		t.Run(name, func(t *testing.T) {
			model := &counting{}
			m := cached(t, llm.CacheConfig{Dir: t.TempDir()}, model)
			m.Generate(context.Background(), base)
			other := *base
			change(&other)
			m.Generate(context.Background(), &other)
			if model.calls != 2 {
				t.Errorf("model called %d times, want 2: the requests differ", model.calls)
			}
		})
	}

	t.Run("white space in a schema does not matter", func(t *testing.T) {
		model := &counting{}
		m := cached(t, llm.CacheConfig{Dir: t.TempDir()}, model)
		a, b := *base, *base
		a.ResponseSchema = &llm.Schema{Name: "v", Schema: json.RawMessage(`{"type": "object"}`)}
		b.ResponseSchema = &llm.Schema{Name: "v", Schema: json.RawMessage("{\n  \"type\":\"object\"\n}")}
		m.Generate(context.Background(), &a)
		m.Generate(context.Background(), &b)
		if model.calls != 1 {
			t.Errorf("model called %d times, want 1", model.calls)
		}
	})
}

func TestCacheNeverStoresErrors(t *testing.T) {
	model := &flaky{errs: []error{&llm.APIError{StatusCode: 500}}}
	m := cached(t, llm.CacheConfig{Dir: t.TempDir()}, model)
	if _, err := m.Generate(context.Background(), ask("hi")); err == nil {
		t.Fatal("first call: no error, want the 500")
	}
	resp, err := m.Generate(context.Background(), ask("hi"))
	if err != nil || resp.Cached || model.calls != 2 {
		t.Errorf("after an error: %+v, %v, %d calls; want a fresh answer", resp, err, model.calls)
	}
}

func TestCacheTTLAndBypass(t *testing.T) {
	dir := t.TempDir()
	model := &counting{}
	cached(t, llm.CacheConfig{Dir: dir}, model).Generate(context.Background(), ask("hi"))

	cached(t, llm.CacheConfig{Dir: dir, Bypass: true}, model).Generate(context.Background(), ask("hi"))
	if model.calls != 2 {
		t.Errorf("with Bypass, model called %d times, want 2", model.calls)
	}
	time.Sleep(20 * time.Millisecond)
	cached(t, llm.CacheConfig{Dir: dir, TTL: 10 * time.Millisecond}, model).Generate(context.Background(), ask("hi"))
	if model.calls != 3 {
		t.Errorf("with an expired entry, model called %d times, want 3", model.calls)
	}
	resp, _ := cached(t, llm.CacheConfig{Dir: dir, TTL: time.Hour}, model).Generate(context.Background(), ask("hi"))
	if !resp.Cached {
		t.Error("with a live entry: not cached")
	}
}

func TestCacheSkipsTornAndCorruptLines(t *testing.T) {
	dir := t.TempDir()
	model := &counting{}
	cached(t, llm.CacheConfig{Dir: dir}, model).Generate(context.Background(), ask("kept"))
	cached(t, llm.CacheConfig{Dir: dir}, model).Generate(context.Background(), ask("torn"))
	logs, _ := filepath.Glob(filepath.Join(dir, "*.log"))
	if len(logs) != 2 {
		t.Fatalf("found %d logs, want one a cache", len(logs))
	}
	// Tear the last line of one log (a run killed mid-write), and add a
	// line of garbage to the other.
	for i, name := range logs {
		data, _ := os.ReadFile(name)
		if i == 0 {
			data = data[:len(data)-10]
		} else {
			data = append(data, "not an entry\n"...)
		}
		os.WriteFile(name, data, 0o644)
	}
	m := cached(t, llm.CacheConfig{Dir: dir}, model)
	hits := 0
	for _, q := range []string{"kept", "torn"} {
		resp, err := m.Generate(context.Background(), ask(q))
		if err != nil {
			t.Fatal(err)
		}
		if resp.Cached {
			hits++
		}
	}
	if hits != 1 || model.calls != 3 {
		t.Errorf("%d hits and %d model calls; want the intact entry served and the torn one asked again", hits, model.calls)
	}
}

func TestCacheConcurrentWritersAndReaders(t *testing.T) {
	dir := t.TempDir()
	model := &counting{}
	m := cached(t, llm.CacheConfig{Dir: dir}, llm.Func(func(ctx context.Context, req *llm.Request) (*llm.Response, error) {
		return answer(req), nil
	}))
	done := make(chan struct{})
	for g := range 8 {
		go func() {
			defer func() { done <- struct{}{} }()
			for i := range 50 {
				q := ask(string(rune('a' + (g*50+i)%40)))
				if resp, err := m.Generate(context.Background(), q); err != nil || resp.Text != "echo: "+q.Messages[0].Content {
					t.Errorf("got %+v, %v", resp, err)
					return
				}
			}
		}()
	}
	for range 8 {
		<-done
	}
	// Every distinct request is now answered from a fresh cache.
	for i := range 40 {
		resp, _ := cached(t, llm.CacheConfig{Dir: dir}, model).Generate(context.Background(), ask(string(rune('a'+i))))
		if !resp.Cached {
			t.Errorf("request %d: not cached", i)
		}
	}
	if model.calls != 0 {
		t.Errorf("model called %d times, want 0", model.calls)
	}
}

func TestCacheNeedsADirectory(t *testing.T) {
	if _, err := llm.OpenCache(llm.CacheConfig{}); err == nil {
		t.Error("no directory: no error")
	}
	file := filepath.Join(t.TempDir(), "file")
	os.WriteFile(file, nil, 0o644)
	if _, err := llm.OpenCache(llm.CacheConfig{Dir: filepath.Join(file, "sub")}); err == nil {
		t.Error("a directory below a file: no error")
	}
}

// A key holds the model's whole reference, as the namespace: two models,
// providers, servers or script files never share answers, though the
// requests are the same (a provider fills in its model's name below the
// cache, so the request does not tell them apart).
func TestCacheKeysTellModelsApart(t *testing.T) {
	namespaces := []string{
		"openai:gpt-model-a",
		"openai:gpt-model-b",
		"ollama:gpt-model-a",
		"openai:gpt-model-a@http://127.0.0.1:8000/v1",
		"openai:gpt-model-a@http://127.0.0.1:8001/v1",
		"openai:gpt-model-a OPENAI_BASE_URL=http://127.0.0.1:8000/v1",
		"script:/suite-a/models/agent.yaml",
		"script:/suite-b/models/agent.yaml",
	}
	dir, model := t.TempDir(), &counting{}
	req := &llm.Request{Messages: []llm.Message{{Role: llm.RoleUser, Content: "hi"}}} // no model: as the CLI's cache sees it
	for _, ns := range namespaces {
		if resp, _ := cachedAs(t, llm.CacheConfig{Dir: dir}, ns, model).Generate(context.Background(), req); resp.Cached {
			t.Errorf("%s: answered from the cache, with another model's answer", ns)
		}
	}
	for _, ns := range namespaces {
		if resp, _ := cachedAs(t, llm.CacheConfig{Dir: dir}, ns, model).Generate(context.Background(), req); !resp.Cached {
			t.Errorf("%s, again: not answered from the cache", ns)
		}
	}
	if model.calls != len(namespaces) {
		t.Errorf("model called %d times, want %d", model.calls, len(namespaces))
	}
}

// A key holds the trial the context carries: trial 2 never gets trial 1's
// answer, whoever asks (the agent and the simulated user set no trial of
// their own), and each trial's answer is there for the next run.
func TestCacheKeysTellTrialsApart(t *testing.T) {
	dir, model := t.TempDir(), &counting{}
	ctx := context.Background()
	for round := range 2 {
		m := cached(t, llm.CacheConfig{Dir: dir}, model)
		for _, trial := range []int{0, 1, 2, 3} {
			resp, err := m.Generate(llm.WithTrial(ctx, trial), ask("hi"))
			if err != nil {
				t.Fatal(err)
			}
			if resp.Cached != (round == 1) {
				t.Errorf("run %d, trial %d: cached %v, want %v", round+1, trial, resp.Cached, round == 1)
			}
		}
	}
	if model.calls != 4 {
		t.Errorf("model called %d times, want 4: one per trial", model.calls)
	}

	// A judge's samples (Request.Trial) stay apart within each trial.
	m := cached(t, llm.CacheConfig{Dir: dir}, model)
	sample := ask("hi")
	sample.Trial = 1
	m.Generate(llm.WithTrial(ctx, 2), sample)
	if model.calls != 5 {
		t.Errorf("sample 1 of trial 2: model called %d times in all, want 5", model.calls)
	}
}

func TestTrialFromContext(t *testing.T) {
	ctx := context.Background()
	if n := llm.TrialFrom(ctx); n != 0 {
		t.Errorf("no trial: TrialFrom = %d, want 0", n)
	}
	if n := llm.TrialFrom(llm.WithTrial(ctx, 3)); n != 3 {
		t.Errorf("trial 3: TrialFrom = %d, want 3", n)
	}
}
