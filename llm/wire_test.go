package llm_test

import (
	"encoding/json"
	"math"
	"testing"

	"github.com/gavelhq/gavel/llm"
)

func TestCheckWire(t *testing.T) {
	field := func(v string) llm.WireField {
		if v == "" {
			return llm.WireField{Path: "x"}
		}
		return llm.WireField{Path: "x", Value: json.RawMessage(v)}
	}
	texts := []struct{ value, want string }{
		{``, ""},
		{`null`, ""},
		{`"hi"`, ""},
		{`42`, "x is a number, want a string or null"},
		{`{"a":1}`, "x is an object, want a string or null"},
		{`["a"]`, "x is an array, want a string or null"},
		{`true`, "x is a boolean, want a string or null"},
	}
	for _, tc := range texts {
		if got := llm.CheckText(field(tc.value)); got != tc.want {
			t.Errorf("CheckText(%s) = %q, want %q", tc.value, got, tc.want)
		}
	}
	counts := []struct{ value, want string }{
		{``, ""},
		{`null`, ""},
		{`0`, ""},
		{`1999150`, ""},
		{`-1`, "x is -1, want a count of at least 0"},
		{`1.5`, "x is 1.5, want a count of at least 0"},
		{`"12"`, `x is "12", want a count of at least 0`},
		{`1000000000000`, ""},
		{`1000000000001`, "x is 1000000000001, more than the 1,000,000,000,000 tokens a call or a reply can count"},
		{`9223372036854775807`, "x is 9223372036854775807, more than the 1,000,000,000,000 tokens a call or a reply can count"},
		{`99999999999999999999`, "x is 99999999999999999999, more than the 1,000,000,000,000 tokens a call or a reply can count"},
		{`1e30`, "x is 1e30, more than the 1,000,000,000,000 tokens a call or a reply can count"},
	}
	for _, tc := range counts {
		if got := llm.CheckCounts(field(tc.value)); got != tc.want {
			t.Errorf("CheckCounts(%s) = %q, want %q", tc.value, got, tc.want)
		}
	}
}

// Usage.Problem names the first count or cost of a call's or a reply's
// usage that no call or reply can have, as the wire names it.
func TestUsageProblem(t *testing.T) {
	for _, tc := range []struct {
		name string
		u    llm.Usage
		want string
	}{
		{"nothing", llm.Usage{}, ""},
		{"the most of everything", llm.Usage{InputTokens: llm.MaxTokenCount, OutputTokens: llm.MaxTokenCount, CostUSD: llm.MaxCostUSD, Calls: 1}, ""},
		{"negative input", llm.Usage{InputTokens: -40}, "input_tokens is -40, want a count of at least 0"},
		{"2^63-1 output", llm.Usage{InputTokens: 5, OutputTokens: 1<<63 - 1}, "output_tokens is 9223372036854775807, more than the 1,000,000,000,000 tokens a call or a reply can count"},
		{"negative cached", llm.Usage{CachedTokens: -1}, "cached_tokens is -1, want a count of at least 0"},
		{"negative cost", llm.Usage{CostUSD: -0.5}, "cost_usd is -0.5, want an amount of at least 0"},
		{"NaN cost", llm.Usage{CostUSD: math.NaN()}, "cost_usd is NaN, want an amount of at least 0"},
		{"infinite cost", llm.Usage{CostUSD: math.Inf(1)}, "cost_usd is +Inf, more than the $1,000,000,000 a call or a reply can cost"},
		{"negative calls", llm.Usage{Calls: -2}, "calls is -2, want a count of at least 0"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := tc.u.Problem(); got != tc.want {
				t.Errorf("got  %q\nwant %q", got, tc.want)
			}
		})
	}
}

// ReadCost reads a cost from JSON as ReadCount reads a count.
func TestReadCost(t *testing.T) {
	for _, tc := range []struct {
		raw     string
		want    float64
		problem string
	}{
		{`0.0123`, 0.0123, ""},
		{`-0.5`, 0, "is -0.5, want an amount of at least 0"},
		{`"cheap"`, 0, `is "cheap", want an amount of at least 0`},
		{`1e300`, 0, "is 1e300, more than the $1,000,000,000 a call or a reply can cost"},
	} {
		got, problem := llm.ReadCost(json.RawMessage(tc.raw))
		if got != tc.want || problem != tc.problem {
			t.Errorf("ReadCost(%s) = %v, %q; want %v, %q", tc.raw, got, problem, tc.want, tc.problem)
		}
	}
}
