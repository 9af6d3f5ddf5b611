package llm_test

import (
	"context"
	"testing"

	"github.com/gavelhq/gavel/llm"
)

// BenchmarkMiddleware measures what the middleware stack adds to a call
// of an in-process model that answers at once. The figures are in the
// package documentation.
func BenchmarkMiddleware(b *testing.B) {
	instant := llm.Func(func(_ context.Context, req *llm.Request) (*llm.Response, error) {
		return &llm.Response{Text: "ok", Model: "gpt-5-mini", Usage: llm.Usage{InputTokens: 1000, OutputTokens: 100}}, nil
	})
	stack := func(b *testing.B, withCache bool) llm.Model {
		mws := []llm.Middleware{llm.NewMeter(llm.DefaultPrices()).Meter()}
		if withCache {
			cache, err := llm.OpenCache(llm.CacheConfig{Dir: b.TempDir()})
			if err != nil {
				b.Fatal(err)
			}
			b.Cleanup(func() { cache.Close() })
			mws = append(mws, cache.Middleware("openai:gpt-5-mini"))
		}
		mws = append(mws, llm.Retry(llm.RetryConfig{}), llm.NewLimiter(llm.LimitConfig{MaxInFlight: 64}).Limit())
		return llm.Chain(instant, mws...)
	}
	req := func(trial int) *llm.Request {
		r := ask("Evaluate the following AI assistant response against the criteria.")
		r.Trial = trial
		return r
	}
	run := func(b *testing.B, m llm.Model, trial func(i int) int) {
		b.ReportAllocs()
		ctx := context.Background()
		for i := 0; b.Loop(); i++ {
			if _, err := m.Generate(ctx, req(trial(i))); err != nil {
				b.Fatal(err)
			}
		}
	}
	same := func(int) int { return 0 }
	fresh := func(i int) int { return i }

	b.Run("bare", func(b *testing.B) { run(b, instant, same) })
	b.Run("meter+retry+limit", func(b *testing.B) { run(b, stack(b, false), same) })
	b.Run("full stack, cache miss", func(b *testing.B) { run(b, stack(b, true), fresh) })
	b.Run("full stack, cache hit", func(b *testing.B) { run(b, stack(b, true), same) })
}
