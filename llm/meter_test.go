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
	if line.Calls != 3 || line.CachedCalls != 1 || line.Usage.InputTokens != 2000 || line.Usage.Unpriced {
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

// A Meter adds each call to the Tally of the call's context: what the
// calls of one trial spent, by model, agrees with the meter.
func TestMeterAddsToTheContextsTally(t *testing.T) {
	meter := llm.NewMeter(llm.Prices{"gpt-5-mini": {Input: 0.25, Output: 2}})
	model := llm.Chain(&counting{}, meter.Meter())
	var trial1, trial2 llm.Tally
	model.Generate(llm.WithTally(context.Background(), &trial1), ask("a"))
	model.Generate(llm.WithTally(context.Background(), &trial1), ask("b"))
	model.Generate(llm.WithTally(context.Background(), &trial2), ask("c"))
	model.Generate(context.Background(), ask("d")) // no tally: the meter alone counts it

	one := trial1.ByModel()["gpt-5-mini"]
	if one.Calls != 2 || one.InputTokens != 2000 || one.CostUSD == 0 {
		t.Errorf("trial 1's tally = %+v, want 2 calls, 2000 input tokens, priced", one)
	}
	if two := trial2.ByModel()["gpt-5-mini"]; two.Calls != 1 || two.CostUSD*2 != one.CostUSD {
		t.Errorf("trial 2's tally = %+v, want 1 call costing half of trial 1's", two)
	}
	if line := meter.ByModel()["gpt-5-mini"]; line.Usage.Calls != 4 {
		t.Errorf("meter line = %+v, want 4 calls", line)
	}
}

// A model without a price is unpriced, not free: its responses, its
// meter line and the meter's total say so, and stay so when added to
// priced usage. A cached answer and a local model's cost nothing, priced
// or not.
func TestMeterMarksUnpricedModels(t *testing.T) {
	meter := llm.NewMeter(llm.Prices{"gpt-5-mini": {Input: 0.25, Output: 2}})
	unknown := llm.Func(func(ctx context.Context, req *llm.Request) (*llm.Response, error) {
		resp := answer(req)
		resp.Model = "my-finetune"
		return resp, nil
	})
	resp, err := meter.Meter()(unknown).Generate(context.Background(), ask("a"))
	if err != nil {
		t.Fatal(err)
	}
	if !resp.Usage.Unpriced || resp.Usage.CostUSD != 0 || resp.Usage.Calls != 1 {
		t.Errorf("response usage = %+v, want 1 call, unpriced", resp.Usage)
	}
	meter.Meter()(&counting{}).Generate(context.Background(), ask("a"))
	if line := meter.ByModel()["my-finetune"]; !line.Usage.Unpriced || line.Usage.InputTokens != 1000 {
		t.Errorf("meter line = %+v, want 1000 input tokens, unpriced", line)
	}
	if line := meter.ByModel()["gpt-5-mini"]; line.Usage.Unpriced {
		t.Errorf("meter line = %+v, want priced", line)
	}
	if total := meter.Total(); !total.Unpriced || total.CostUSD == 0 {
		t.Errorf("total = %+v, want the priced cost, marked unpriced", total)
	}

	local := llm.Local(func(llm.Ref, func(string) string) (llm.Model, error) { return unknown, nil })
	m, err := local(llm.Ref{Provider: "ollama", Model: "llama3.2"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	resp, _ = llm.NewMeter(llm.Prices{}).Meter()(m).Generate(context.Background(), ask("a"))
	if !resp.Local || resp.Usage.Unpriced || resp.Usage.CostUSD != 0 {
		t.Errorf("a local model's response: local %v, usage %+v; want local, free and priced", resp.Local, resp.Usage)
	}
}

func TestUsageAddKeepsUnpriced(t *testing.T) {
	priced := llm.Usage{InputTokens: 10, CostUSD: 0.5}
	unpriced := llm.Usage{InputTokens: 5, Unpriced: true}
	if got := priced.Add(unpriced); !got.Unpriced || got.InputTokens != 15 || got.CostUSD != 0.5 {
		t.Errorf("priced + unpriced = %+v, want 15 tokens, $0.5, unpriced", got)
	}
	if got := unpriced.Add(priced); !got.Unpriced {
		t.Errorf("unpriced + priced = %+v, want unpriced", got)
	}
	if got := priced.Add(priced); got.Unpriced {
		t.Errorf("priced + priced = %+v, want priced", got)
	}
}

// The built-in table prices the current models of both vendors; a model
// it does not know is unpriced rather than given the price of a model
// whose name it starts with.
func TestDefaultPricesCoverTheCurrentModels(t *testing.T) {
	prices := llm.DefaultPrices()
	for _, model := range []string{
		"gpt-5", "gpt-5-mini", "gpt-5-nano", "gpt-5.1", "gpt-4.1", "gpt-4.1-mini", "gpt-4.1-nano",
		"gpt-4o", "gpt-4o-mini", "o3", "o4-mini",
		"gpt-5-mini-2025-08-07", "gpt-4o-2024-08-06",
		"claude-opus-4-5", "claude-sonnet-4-5", "claude-haiku-4-5", "claude-opus-4-1", "claude-opus-4-0",
		"claude-sonnet-4-0", "claude-3-7-sonnet-20250219", "claude-3-5-haiku-20241022",
		"claude-opus-4-5-20251101", "claude-haiku-4-5-20251001", "claude-sonnet-4-20250514", "claude-opus-4-20250514",
	} {
		if !prices.Has(model) {
			t.Errorf("%s has no price", model)
		}
	}
	for _, model := range []string{"gpt-5-codex-preview", "gpt-4.1-turbo", "claude-opus-4-9", "claude-sonnet-4-5-fast", "llama3.2"} {
		if prices.Has(model) {
			t.Errorf("%s has a price: a name that merely starts with a priced one is not that model", model)
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

// Prices set after the models were wrapped (a suite's own, read when it
// is opened) price the calls made after.
func TestMeterSetPrices(t *testing.T) {
	meter := llm.NewMeter(llm.Prices{})
	model := meter.Meter()(&counting{})
	meter.SetPrices(llm.Prices{"gpt-5-mini": {Input: 1, Output: 10}})
	resp, err := model.Generate(context.Background(), ask("a"))
	if err != nil {
		t.Fatal(err)
	}
	if want := (1000*1.0 + 100*10) / 1e6; resp.Usage.Unpriced || math.Abs(resp.Usage.CostUSD-want) > 1e-12 {
		t.Errorf("usage = %+v, want priced at $%v", resp.Usage, want)
	}
}
