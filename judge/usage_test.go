package judge_test

import (
	"math"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/gavelhq/gavel/judge"
	"github.com/gavelhq/gavel/llm"
)

// Every sum of usage saturates at the largest int64 instead of wrapping
// around: 2^62 input and 2^62 output tokens summed to a negative count,
// which no budget stopped and reports showed as "Tokens: 0". llm.Usage
// sums as judge.Usage does (the layers keep them apart; they must agree).
func TestUsageSumsSaturate(t *testing.T) {
	const big = int64(1) << 62
	tests := []struct {
		name       string
		a, b, want judge.Usage
		wantTokens int64
	}{
		{"small counts add exactly",
			judge.Usage{InputTokens: 1200, OutputTokens: 80, CachedTokens: 1000, CostUSD: 0.5, Calls: 3, CacheHits: 1},
			judge.Usage{InputTokens: 300, OutputTokens: 20, CostUSD: 0.25, Calls: 2, CacheHits: 2, Unpriced: true},
			judge.Usage{InputTokens: 1500, OutputTokens: 100, CachedTokens: 1000, CostUSD: 0.75, Calls: 5, CacheHits: 3, Unpriced: true},
			1600},
		{"nothing and nothing", judge.Usage{}, judge.Usage{}, judge.Usage{}, 0},
		{"2^62 and 2^62 input tokens",
			judge.Usage{InputTokens: big}, judge.Usage{InputTokens: big},
			judge.Usage{InputTokens: math.MaxInt64}, math.MaxInt64},
		{"the largest count and one more",
			judge.Usage{OutputTokens: math.MaxInt64, Calls: math.MaxInt64}, judge.Usage{OutputTokens: 1, Calls: 1},
			judge.Usage{OutputTokens: math.MaxInt64, Calls: math.MaxInt64}, math.MaxInt64},
		{"each field saturates alone",
			judge.Usage{InputTokens: math.MaxInt64 - 1, CachedTokens: big, CacheHits: big}, judge.Usage{InputTokens: 5, CachedTokens: big, CacheHits: big},
			judge.Usage{InputTokens: math.MaxInt64, CachedTokens: math.MaxInt64, CacheHits: math.MaxInt64}, math.MaxInt64},
		{"input and output tokens whose total overflows",
			judge.Usage{InputTokens: big}, judge.Usage{OutputTokens: big},
			judge.Usage{InputTokens: big, OutputTokens: big}, math.MaxInt64},
		{"the most any call counts, many times over: exact",
			judge.Usage{InputTokens: 1000 * llm.MaxTokenCount}, judge.Usage{InputTokens: llm.MaxTokenCount},
			judge.Usage{InputTokens: 1001 * llm.MaxTokenCount}, 1001 * llm.MaxTokenCount},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := tc.a.Add(tc.b)
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("Add (-want +got):\n%s", diff)
			}
			if swapped := tc.b.Add(tc.a); swapped != got {
				t.Errorf("b.Add(a) = %+v, a.Add(b) = %+v: want one sum", swapped, got)
			}
			if n := got.Tokens(); n != tc.wantTokens {
				t.Errorf("Tokens() = %d, want %d", n, tc.wantTokens)
			}
			if viaLLM := judge.Usage(llm.Usage(tc.a).Add(llm.Usage(tc.b))); viaLLM != got {
				t.Errorf("llm.Usage.Add = %+v, judge.Usage.Add = %+v: want one sum", viaLLM, got)
			}
		})
	}
}
