package providers_test

import (
	"context"
	"fmt"
	"slices"
	"testing"

	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"

	"github.com/gavelhq/gavel/llm"
	"github.com/gavelhq/gavel/llm/llmtest"
	"github.com/gavelhq/gavel/llm/providers"
	"github.com/gavelhq/gavel/telemetry"
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

// With tracing on, every call of a wrapped model is a chat span, an
// answer from the cache included (marked as such).
func TestWrapTraces(t *testing.T) {
	rec := tracetest.NewSpanRecorder()
	defer telemetry.Use(sdktrace.NewTracerProvider(sdktrace.WithSpanProcessor(rec)))()
	cache, err := llm.OpenCache(llm.CacheConfig{Dir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	defer cache.Close()
	ref := llm.Ref{Provider: "openai", Model: "gpt-5-mini"}
	m := providers.Wrap(&llmtest.Scripted{Rules: []llmtest.Rule{{Text: "hi"}}}, ref, func(string) string { return "" }, nil, cache)
	for range 2 {
		if _, err := m.Generate(context.Background(), &llm.Request{Model: "gpt-5-mini", Messages: []llm.Message{{Role: llm.RoleUser, Content: "hello"}}}); err != nil {
			t.Fatal(err)
		}
	}
	var got []string
	for _, s := range rec.Ended() {
		hit := false
		for _, kv := range s.Attributes() {
			hit = hit || (kv.Key == "gavel.cache.hit" && kv.Value.AsBool())
		}
		got = append(got, fmt.Sprintf("%s cached=%v", s.Name(), hit))
	}
	if want := []string{"chat gpt-5-mini cached=false", "chat gpt-5-mini cached=true"}; !slices.Equal(got, want) {
		t.Errorf("spans %q, want %q", got, want)
	}
}
