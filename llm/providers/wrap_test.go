package providers_test

import (
	"context"
	"testing"

	"github.com/gavelhq/gavel/llm"
	"github.com/gavelhq/gavel/llm/llmtest"
	"github.com/gavelhq/gavel/llm/providers"
)

// A wrapped model's second answer to the same request comes from the
// cache, which the meter counts as a call that cost nothing; the same
// model at another server is asked again.
func TestWrap(t *testing.T) {
	cache, err := llm.OpenCache(llm.CacheConfig{Dir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	defer cache.Close()
	meter := llm.NewMeter(llm.Prices{"gpt-5-mini": {Input: 1, Output: 1}})
	ref := llm.Ref{Provider: "openai", Model: "gpt-5-mini"}
	model := &llmtest.Scripted{Rules: []llmtest.Rule{{Text: "hi"}}}
	ask := func(server string) {
		t.Helper()
		getenv := func(string) string { return server }
		m := providers.Wrap(model, ref, getenv, meter, cache)
		if _, err := m.Generate(context.Background(), &llm.Request{Model: "gpt-5-mini", Messages: []llm.Message{{Role: llm.RoleUser, Content: "hello"}}}); err != nil {
			t.Fatal(err)
		}
	}
	ask("http://a")
	ask("http://a")
	ask("http://b")
	line := meter.ByModel()["gpt-5-mini"]
	if line.Calls != 3 || line.CachedCalls != 1 {
		t.Errorf("the meter counted %d calls, %d from the cache; want 3, 1", line.Calls, line.CachedCalls)
	}
}
