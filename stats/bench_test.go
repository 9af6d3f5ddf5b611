package stats

import "testing"

// BenchmarkRun10000 measures the statistics of a run of 10,000 cases of
// 3 trials each, and of its comparison with a baseline of the same cases:
// the cost a gate adds to a large run. bench/README.md records the
// figures.
func BenchmarkRun10000(b *testing.B) {
	const cases, trials = 10000, 3
	// Case i passes c of its trials, c from the top bits of a
	// multiplicative hash (0..3, evenly); in head, every tenth case passes
	// one trial more and every tenth (from the fifth) one fewer.
	base := make([]float64, cases)
	head := make([]float64, cases)
	var passes, flipsDown, flipsUp int
	for i := range cases {
		c := int(uint32(i) * 2654435761 >> 30)
		h := c
		switch i % 10 {
		case 0:
			h = min(c+1, trials)
		case 5:
			h = max(c-1, 0)
		}
		base[i], head[i] = float64(c)/trials, float64(h)/trials
		passes += c
		if c == trials && h < trials {
			flipsDown++
		}
		if c < trials && h == trials {
			flipsUp++
		}
	}
	diffs := make([]float64, cases)
	for i := range diffs {
		diffs[i] = head[i] - base[i]
	}
	b.Run("Wilson", func(b *testing.B) {
		for b.Loop() {
			Wilson(passes, cases*trials, 0.95)
		}
	})
	b.Run("ClopperPearson", func(b *testing.B) {
		for b.Loop() {
			ClopperPearson(passes, cases*trials, 0.95)
		}
	})
	b.Run("Bootstrap/2000", func(b *testing.B) {
		for b.Loop() {
			Bootstrap{Resamples: 2000}.Mean(base, 0.95)
		}
	})
	b.Run("McNemar", func(b *testing.B) {
		for b.Loop() {
			McNemar(flipsDown, flipsUp)
		}
	})
	b.Run("BinomialTest", func(b *testing.B) {
		for b.Loop() {
			BinomialTest(cases/2+60, cases, 0.5)
		}
	})
	b.Run("Wilcoxon", func(b *testing.B) {
		for b.Loop() {
			Wilcoxon(diffs)
		}
	})
	// The worst case for ranking: 10,000 differences, none zero.
	distinct := generate(cases, func(i int) float64 { return float64((i*7919)%10007-5003) / 10007 })
	b.Run("Wilcoxon/nonzero", func(b *testing.B) {
		for b.Loop() {
			Wilcoxon(distinct)
		}
	})
	b.Run("Paired/2000", func(b *testing.B) {
		for b.Loop() {
			Bootstrap{Resamples: 2000}.Paired(base, head, 0.95)
		}
	})
	b.Run("All", func(b *testing.B) {
		for b.Loop() {
			Wilson(passes, cases*trials, 0.95)
			Bootstrap{Resamples: 2000}.Mean(base, 0.95)
			McNemar(flipsDown, flipsUp)
			Bootstrap{Resamples: 2000}.Paired(base, head, 0.95)
			MoreToDecide(passes, cases*trials, 0.66, 0.95)
		}
	})
}
