package llm_test

import (
	"context"
	"math"
	"testing"

	"github.com/gavelhq/gavel/llm"
)

func TestPricesCost(t *testing.T) {
	prices := llm.Prices{"gpt-5-mini": {Input: 0.25, Output: 2, CachedInput: 0.025}, "local": {}}
	tests := []struct {
		model      string
		usage      llm.Usage
		want       float64
		wantPriced bool
	}{
		{"gpt-5-mini", llm.Usage{InputTokens: 1_000_000, OutputTokens: 1_000_000}, 2.25, true},
		{"gpt-5-mini", llm.Usage{InputTokens: 1_000_000, CachedTokens: 800_000}, 0.2*0.25 + 0.8*0.025, true},
		{"gpt-5-mini-2025-08-07", llm.Usage{OutputTokens: 500_000}, 1, true},
		{"gpt-5-minix", llm.Usage{OutputTokens: 1}, 0, false},
		{"local", llm.Usage{InputTokens: 5}, 0, true},
		{"mystery", llm.Usage{InputTokens: 5}, 0, false},
	}
	for _, tt := range tests {
		got, priced := prices.Cost(tt.model, tt.usage)
		if math.Abs(got-tt.want) > 1e-12 || priced != tt.wantPriced {
			t.Errorf("Cost(%s, %+v) = %v, %v; want %v, %v", tt.model, tt.usage, got, priced, tt.want, tt.wantPriced)
		}
	}
}

func TestMeterCountsCallsTokensAndCost(t *testing.T) {
	meter := llm.NewMeter(llm.Prices{"gpt-5-mini": {Input: 0.25, Output: 2}})
	dir := t.TempDir()
	cache, err := llm.OpenCache(llm.CacheConfig{Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	defer cache.Close()
	model := llm.Chain(&counting{}, meter.Meter(), cache.Middleware("openai:gpt-5-mini"))

	first, _ := model.Generate(context.Background(), ask("a"))
	model.Generate(context.Background(), ask("b"))
	repeat, _ := model.Generate(context.Background(), ask("a")) // from the cache: free

	wantCost := (1000*0.25 + 100*2) / 1e6
	if math.Abs(first.Usage.CostUSD-wantCost) > 1e-12 {
		t.Errorf("first response's cost = %v, want %v", first.Usage.CostUSD, wantCost)
	}
	if repeat.Usage.CostUSD != 0 {
		t.Errorf("cached response's cost = %v, want 0", repeat.Usage.CostUSD)
	}
	if want := (llm.Usage{Calls: 1, CacheHits: 1}); repeat.Usage != want {
		t.Errorf("cached response's usage = %+v, want %+v", repeat.Usage, want)
	}
	line := meter.ByModel()["gpt-5-mini"]
	if line.Calls != 3 || line.CachedCalls != 1 || line.Usage.InputTokens != 2000 || line.Unpriced {
		t.Errorf("meter line = %+v, want 3 calls, 1 cached, 2000 input tokens, priced", line)
	}
	// The line's usage agrees with the responses': what a trial sums is
	// what the meter counts.
	if line.Usage.Calls != 3 || line.Usage.CacheHits != 1 {
		t.Errorf("meter line's usage = %+v, want 3 calls, 1 cache hit", line.Usage)
	}
	if total := meter.Total(); math.Abs(total.CostUSD-2*wantCost) > 1e-12 {
		t.Errorf("total cost = %v, want %v", total.CostUSD, 2*wantCost)
	}
}

func TestMeterMarksUnpricedModels(t *testing.T) {
	meter := llm.NewMeter(llm.Prices{})
	resp, _ := meter.Meter()(&counting{}).Generate(context.Background(), ask("a"))
	if resp.Usage.Calls != 1 {
		t.Errorf("response's usage = %+v, want 1 call counted", resp.Usage)
	}
	if line := meter.ByModel()["gpt-5-mini"]; !line.Unpriced {
		t.Errorf("meter line = %+v, want it marked unpriced", line)
	}
}

func TestDefaultPricesAreSane(t *testing.T) {
	for model, p := range llm.DefaultPrices() {
		if p.Input <= 0 || p.Output < p.Input || p.CachedInput > p.Input {
			t.Errorf("%s: %+v: want 0 < cached <= input <= output", model, p)
		}
	}
}

func TestPricesWith(t *testing.T) {
	defaults := llm.Prices{"a": {Input: 1, Output: 2}, "b": {Input: 3, Output: 4}}
	got := defaults.With(llm.Prices{"b": {Input: 0.5, Output: 1}, "c": {Input: 9, Output: 9}})
	if got["a"].Input != 1 || got["b"].Input != 0.5 || got["c"].Input != 9 {
		t.Errorf("merged prices = %+v", got)
	}
	if defaults["b"].Input != 3 {
		t.Error("With changed the defaults")
	}
}
