package audit

import (
	"math"
	"testing"

	"github.com/gavelhq/gavel/llmjudge"
)

const (
	a   = llmjudge.WinnerA
	b   = llmjudge.WinnerB
	tie = llmjudge.Tie
)

func ptr(v float64) *float64 { return &v }

// sameNumber compares two optional numbers to 1e-9.
func sameNumber(got, want *float64) bool {
	if got == nil || want == nil {
		return got == nil && want == nil
	}
	return math.Abs(*got-*want) < 1e-9
}

func show(v *float64) any {
	if v == nil {
		return "nil"
	}
	return *v
}

func TestPositionOf(t *testing.T) {
	for _, tc := range []struct {
		name         string
		cs           []Comparison
		flips, first int
		share        *float64
	}{
		{"none asked: no share, not 0%", nil, 0, 0, nil},
		{"always the first shown: every comparison flips", []Comparison{{a, b}, {a, b}, {a, b}}, 3, 3, ptr(1)},
		{"consistent winners and ties", []Comparison{{a, a}, {b, b}, {tie, tie}}, 0, 0, ptr(0)},
		{"always the second shown, and a tie in one order", []Comparison{{b, a}, {a, tie}, {a, a}, {b, b}}, 2, 0, ptr(0.5)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := PositionOf(tc.cs)
			if p.Flips != tc.flips || p.First != tc.first || p.Comparisons != len(tc.cs) || !sameNumber(p.Share, tc.share) {
				t.Errorf("got %d flips (%d first) of %d, share %v; want %d (%d) of %d, %v", p.Flips, p.First, p.Comparisons, show(p.Share), tc.flips, tc.first, len(tc.cs), show(tc.share))
			}
		})
	}
}

func samples(scores ...float64) []Sample {
	out := make([]Sample, len(scores))
	for i, s := range scores {
		out[i] = Sample{Score: s, Passed: s >= 0.7}
	}
	return out
}

func TestVerbosityOf(t *testing.T) {
	for _, tc := range []struct {
		name                 string
		ps                   []Padding
		judgments, higher    int
		share, gain, whenHig *float64
	}{
		{"none", nil, 0, 0, nil, nil, nil},
		{"+0.2 to every padded reply", []Padding{
			{samples(0.5, 0.5), samples(0.7, 0.7)},
			{samples(0.6), samples(0.8)},
		}, 2, 2, ptr(1), ptr(0.2), ptr(0.2)},
		{"unmoved by padding", []Padding{
			{samples(0.5, 0.5), samples(0.5, 0.5)},
			{samples(0.9), samples(0.9)},
		}, 2, 0, ptr(0), ptr(0), nil},
		// One of four higher by 0.3 (means 0.4 and 0.7), one lower by 0.1:
		// mean gain (0.3 - 0.1) / 4 = 0.05.
		{"one higher, one lower, two equal", []Padding{
			{samples(0.3, 0.5), samples(0.7, 0.7)},
			{samples(0.8), samples(0.7)},
			{samples(0.8), samples(0.8)},
			{samples(0.2), samples(0.2)},
		}, 4, 1, ptr(0.25), ptr(0.05), ptr(0.3)},
		{"a judgment with no sample of one reply is left out", []Padding{
			{samples(0.5), nil},
			{samples(0.5), samples(0.6)},
		}, 1, 1, ptr(1), ptr(0.1), ptr(0.1)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			v := VerbosityOf(tc.ps)
			if v.Judgments != tc.judgments || v.Higher != tc.higher || !sameNumber(v.Share, tc.share) || !sameNumber(v.MeanGain, tc.gain) || !sameNumber(v.GainWhenHigher, tc.whenHig) {
				t.Errorf("got %d higher of %d, share %v, gain %v, when higher %v; want %d of %d, %v, %v, %v",
					v.Higher, v.Judgments, show(v.Share), show(v.MeanGain), show(v.GainWhenHigher),
					tc.higher, tc.judgments, show(tc.share), show(tc.gain), show(tc.whenHig))
			}
		})
	}
}

func TestConsistencyOf(t *testing.T) {
	for _, tc := range []struct {
		name                string
		js                  [][]Sample
		judgments, unstable int
		share, mean, most   *float64
	}{
		{"none", nil, 0, 0, nil, nil, nil},
		{"one sample tells nothing", [][]Sample{samples(0.9)}, 0, 0, nil, nil, nil},
		{"the same score every time", [][]Sample{samples(0.9, 0.9, 0.9), samples(0.2, 0.2, 0.2)}, 2, 0, ptr(0), ptr(0), ptr(0)},
		// Spreads 0.6 (a PASS and a FAIL) and 0.1 (both PASS): mean 0.35.
		{"a verdict that flips between samples", [][]Sample{samples(0.9, 0.3, 0.9), samples(0.8, 0.9)}, 2, 1, ptr(0.5), ptr(0.35), ptr(0.6)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := ConsistencyOf(tc.js)
			if c.Judgments != tc.judgments || c.Unstable != tc.unstable || !sameNumber(c.Share, tc.share) || !sameNumber(c.MeanSpread, tc.mean) || !sameNumber(c.MaxSpread, tc.most) {
				t.Errorf("got %d unstable of %d, share %v, spread mean %v max %v; want %d of %d, %v, %v, %v",
					c.Unstable, c.Judgments, show(c.Share), show(c.MeanSpread), show(c.MaxSpread),
					tc.unstable, tc.judgments, show(tc.share), show(tc.mean), show(tc.most))
			}
		})
	}
}

func TestGapOf(t *testing.T) {
	for _, tc := range []struct {
		name string
		ps   []Pair
		gap  *float64
		n    int
	}{
		{"none", nil, nil, 0},
		// Gaps 0.2 and 0.0: mean 0.1.
		{"favours its family by 0.1 on average", []Pair{{samples(0.9, 0.9), samples(0.7)}, {samples(0.5), samples(0.5, 0.5)}}, ptr(0.1), 2},
		{"a judgment the reference did not score is left out", []Pair{{samples(0.9), nil}, {samples(0.4), samples(0.6)}}, ptr(-0.2), 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			gap, n := GapOf(tc.ps)
			if n != tc.n || !sameNumber(gap, tc.gap) {
				t.Errorf("got gap %v over %d; want %v over %d", show(gap), n, show(tc.gap), tc.n)
			}
		})
	}
}

func TestSelfTestOf(t *testing.T) {
	results := []BenchResult{
		{Bias: "length bias", Correct: true, Compare: Comparison{a, a}},
		{Bias: "length bias", Correct: false, Compare: Comparison{a, b}},
		{Bias: "concreteness", Correct: false, Compare: Comparison{b, b}},
		{Bias: "length bias", Correct: true, Compare: Comparison{a, a}},
	}
	st := SelfTestOf("openai:gpt-5-mini", "a bench", results, 1)
	if st.Pairs != 4 || st.Correct != 2 || st.Errors != 1 || !sameNumber(st.Accuracy, ptr(0.5)) || st.Position.Flips != 1 {
		t.Errorf("got %d of %d correct (%v), %d errors, %d flips; want 2 of 4 (0.5), 1, 1", st.Correct, st.Pairs, show(st.Accuracy), st.Errors, st.Position.Flips)
	}
	want := []BiasAccuracy{{"length bias", 3, 2, ptr(2.0 / 3)}, {"concreteness", 1, 0, ptr(0)}}
	if len(st.ByBias) != len(want) {
		t.Fatalf("got %d bias types, want %d", len(st.ByBias), len(want))
	}
	for i, w := range want {
		g := st.ByBias[i]
		if g.Bias != w.Bias || g.Pairs != w.Pairs || g.Correct != w.Correct || !sameNumber(g.Accuracy, w.Accuracy) {
			t.Errorf("bias %d: got %s %d/%d (%v); want %s %d/%d (%v)", i, g.Bias, g.Correct, g.Pairs, show(g.Accuracy), w.Bias, w.Correct, w.Pairs, show(w.Accuracy))
		}
	}
}
