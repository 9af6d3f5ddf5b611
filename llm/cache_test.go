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

// cached wraps next in a cache opened with c, closed when the test ends.
func cached(t *testing.T, c llm.CacheConfig, next llm.Model) llm.Model {
	t.Helper()
	cache, err := llm.OpenCache(c)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cache.Close() })
	return cache.Middleware()(next)
}

func TestCacheAnswersRepeatedRequests(t *testing.T) {
	dir := t.TempDir()
	model := &counting{}
	m := cached(t, llm.CacheConfig{Dir: dir, Namespace: "openai:gpt-5-mini"}, model)
	ctx := context.Background()

	first, err := m.Generate(ctx, ask("where is my order?"))
	if err != nil || first.Cached {
		t.Fatalf("first call: %+v, %v; want a fresh answer", first, err)
	}
	again, err := m.Generate(ctx, ask("where is my order?"))
	if err != nil || !again.Cached || again.Text != first.Text || again.Usage != first.Usage {
		t.Errorf("second call: %+v, %v; want the first answer, marked cached", again, err)
	}
	if model.calls != 1 {
		t.Errorf("model called %d times, want 1", model.calls)
	}

	// A new Cache over the same directory (the next run) answers too.
	next := &counting{}
	if resp, _ := cached(t, llm.CacheConfig{Dir: dir, Namespace: "openai:gpt-5-mini"}, next).Generate(ctx, ask("where is my order?")); !resp.Cached || next.calls != 0 {
		t.Errorf("next run: cached=%v, %d model calls; want it answered from disk", resp.Cached, next.calls)
	}
}

func TestCacheKeysTellRequestsApart(t *testing.T) {
	temp := 0.0
	base := ask("hi")
	variants := map[string]func(r *llm.Request){
		"another trial": func(r *llm.Request) { r.Trial = 2 },
		"another model": func(r *llm.Request) { r.Model = "gpt-5" },
		"a temperature": func(r *llm.Request) { r.Temperature = &temp },
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

	t.Run("another namespace", func(t *testing.T) {
		dir, model := t.TempDir(), &counting{}
		cached(t, llm.CacheConfig{Dir: dir, Namespace: "openai:gpt-5-mini"}, model).Generate(context.Background(), base)
		cached(t, llm.CacheConfig{Dir: dir, Namespace: "ollama:gpt-5-mini"}, model).Generate(context.Background(), base)
		if model.calls != 2 {
			t.Errorf("model called %d times, want 2: namespaces differ", model.calls)
		}
	})

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
