package stats

import (
	"fmt"
	"math"
	"testing"
)

// The bootstrap draws its own resamples, so its bounds agree with
// scipy.stats.bootstrap's within the Monte Carlo error of both: the wants
// below are scipy's with 100,000 resamples, and the bounds here, from
// 20,000, must be within bootTolerance of them (about five standard
// errors of a bound here). The data are generated the same way in both
// languages. /usr/bin/python3, Debian's python3-scipy 1.10.1:
//
//	c = np.array([(7*i*i + 3*i) % 4 for i in range(300)])  # passes of 3 trials
//	shares = c / 3
//	stats.bootstrap((shares,), np.mean, n_resamples=100000, method="percentile",
//	                random_state=0, confidence_level=level).confidence_interval
const bootTolerance = 0.002

// shares are the pass shares of 300 cases of 3 trials.
func shares() []float64 {
	return generate(300, func(i int) float64 { return float64((7*i*i+3*i)%4) / 3 })
}

func TestBootstrapMean(t *testing.T) {
	tests := []struct{ level, lo, hi float64 }{
		{0.95, 0.2955555555555555, 0.3711111111111111},
		{0.8, 0.3088888888888889, 0.35777777777777775},
	}
	for _, tt := range tests {
		t.Run(fmt.Sprint(tt.level), func(t *testing.T) {
			got, ok := Bootstrap{Resamples: 20000, Seed: 1}.Mean(shares(), tt.level)
			checkBootstrap(t, got, ok, Interval{Lo: tt.lo, Hi: tt.hi, Level: tt.level, Method: MethodBootstrap})
		})
	}
}

func TestBootstrapRatio(t *testing.T) {
	// n = np.array([1 + i % 5 for i in range(300)])           # trials
	// c = np.array([(7*i) % (1 + i % 5 + 1) for i in range(300)]) # passes
	// stats.bootstrap((c, n), lambda a, b, axis: a.sum(axis)/b.sum(axis), paired=True,
	//                 vectorized=True, n_resamples=100000, method="percentile", random_state=0)
	var num, den []float64
	for i := range 300 {
		num = append(num, float64((7*i)%(1+i%5+1)))
		den = append(den, float64(1+i%5))
	}
	got, ok := Bootstrap{Resamples: 20000, Seed: 1}.Ratio(num, den, 0.95)
	checkBootstrap(t, got, ok, Interval{Lo: 0.3930885529157667, Hi: 0.47433035714285715, Level: 0.95, Method: MethodBootstrap})
}

func checkBootstrap(t *testing.T, got Interval, ok bool, want Interval) {
	t.Helper()
	if !ok || math.Abs(got.Lo-want.Lo) > bootTolerance || math.Abs(got.Hi-want.Hi) > bootTolerance ||
		got.Level != want.Level || got.Method != want.Method {
		t.Errorf("got %+v, %v, want %+v within %v", got, ok, want, bootTolerance)
	}
}

func TestBootstrapIsDeterministic(t *testing.T) {
	b := Bootstrap{Seed: 42}
	first, _ := b.Mean(shares(), 0.95)
	again, _ := b.Mean(shares(), 0.95)
	if first != again {
		t.Errorf("the same seed gave %+v, then %+v", first, again)
	}
	// Pinned: a change here changes every interval a store recorded.
	want := Interval{Lo: 0.29777777777777803, Hi: 0.36888888888888965, Level: 0.95, Method: MethodBootstrap}
	if first != want {
		t.Errorf("Bootstrap{Seed: 42}.Mean = %+v, want %+v", first, want)
	}
	other, _ := Bootstrap{Seed: 43}.Mean(shares(), 0.95)
	if other == first {
		t.Errorf("seeds 42 and 43 gave the same interval %+v: the seed picks nothing", first)
	}
}

func TestBootstrapCasesMatchesMean(t *testing.T) {
	s := shares()
	b := Bootstrap{Resamples: 500, Seed: 7}
	mean, _ := b.Mean(s, 0.9)
	cases, _ := b.Cases(len(s), 0.9, func(sample []int) float64 {
		var sum float64
		for _, i := range sample {
			sum += s[i]
		}
		return sum / float64(len(sample))
	})
	if mean != cases {
		t.Errorf("Mean = %+v, Cases with the mean = %+v: the same seed must draw the same cases", mean, cases)
	}
}

func TestBootstrapOverCasesIsWiderThanOverTrials(t *testing.T) {
	// 100 cases of 10 trials, each all-pass or all-fail: 500 of 1,000
	// trials passed, but what varies is the case. Wilson over the trials
	// pretends there were 1,000 independent samples.
	var per []float64
	for i := range 100 {
		per = append(per, float64(i%2))
	}
	cases, _ := Bootstrap{}.Mean(per, 0.95)
	trials := Wilson(500, 1000, 0.95)
	if cases.Hi-cases.Lo < 2.5*(trials.Hi-trials.Lo) {
		t.Errorf("over cases %+v, over trials %+v: clustered trials should widen the interval about √10 times", cases, trials)
	}
}

func TestBootstrapWithoutAnInterval(t *testing.T) {
	if got, ok := (Bootstrap{}).Mean(nil, 0.95); ok {
		t.Errorf("Mean(nil) = %+v, true, want false: no cases, no interval", got)
	}
	nan := func([]int) float64 { return math.NaN() }
	if got, ok := (Bootstrap{}).Cases(3, 0.95, nan); ok {
		t.Errorf("Cases with a NaN statistic = %+v, true, want false", got)
	}
	one, ok := Bootstrap{}.Mean([]float64{0.5}, 0.95)
	if !ok || one.Lo != 0.5 || one.Hi != 0.5 {
		t.Errorf("Mean of one case = %+v, %v, want [0.5, 0.5]", one, ok)
	}
}

func TestPaired(t *testing.T) {
	// base: shares() above; head the same but a pass more in every fifth
	// case (at most 3) and one fewer in every seventh that had one.
	//	d = head - base
	//	stats.bootstrap((d,), np.mean, n_resamples=100000, method="percentile", random_state=0)
	//	stats.wilcoxon(d)  # zeros: the normal approximation
	base := shares()
	head := generate(300, func(i int) float64 {
		c := (7*i*i + 3*i) % 4
		if i%5 == 0 {
			c++
		}
		if i%7 == 0 && (7*i*i+3*i)%4 > 0 {
			c--
		}
		return float64(min(c, 3)) / 3
	})
	// Differences of shares ranked as computed would tie 1/3 − 0 with
	// 1/3 − 0 but not with 2/3 − 1/3; Paired rounds them to a grid first,
	// and the want is scipy's on the rounded differences:
	//	stats.wilcoxon(np.round(d*1e12)/1e12)
	// (on d as computed, scipy says statistic 408, p 7.0e-08).
	got, ok := Bootstrap{Resamples: 20000, Seed: 1}.Paired(base, head, 0.95)
	if !ok {
		t.Fatal("Paired: not ok")
	}
	checkBootstrap(t, got.Interval, ok, Interval{Lo: 0.025555555555530005, Hi: 0.06111111111105001, Level: 0.95, Method: MethodBootstrap})
	if !near(got.Diff, 0.0433333333333333, 1e-12, 0) || got.N != 300 {
		t.Errorf("Diff, N = %v, %d, want 0.0433333333333333, 300", got.Diff, got.N)
	}
	if want := (WilcoxonResult{N: 73, Zeros: 227, Statistic: 629}); got.Test.N != want.N || got.Test.Zeros != want.Zeros ||
		got.Test.Statistic != want.Statistic || !near(got.Test.P, 5.004363033565549e-06, 1e-9, 0) {
		t.Errorf("Test = %+v, want %+v with P 5.004363033565549e-06", got.Test, want)
	}
}

func TestPairedTiesSharesEqualInExactArithmetic(t *testing.T) {
	// 2/3 − 1/3 and 1/3 − 0 differ in floating point; as shares they are
	// the same difference, and the test must rank them tied.
	base := []float64{1. / 3, 0, 1. / 3, 0}
	head := []float64{2. / 3, 1. / 3, 2. / 3, 1. / 3}
	got, _ := Bootstrap{}.Paired(base, head, 0.95)
	if got.Test.Exact {
		t.Errorf("Test = %+v: four tied differences were ranked as distinct", got.Test)
	}
}

func TestMeanT(t *testing.T) {
	// /usr/bin/python3, Debian's python3-scipy 1.10.1:
	//	stats.t.interval(level, len(x)-1, loc=np.mean(x), scale=stats.sem(x))
	// scipy's t quantile is good to about 1e-9 (see TestTQuantile), so the
	// bounds are held to that.
	tests := []struct {
		values        []float64
		level, lo, hi float64
	}{
		{[]float64{0.2, 0.9, 0.7, 0.8, 1.0}, 0.95, 0.33328594544517737, 1.1067140545548226},
		{[]float64{1, 2, 3, 4, 5, 6, 7, 8, 9, 10}, 0.99, 2.388519354409619, 8.611480645590381},
		// scipy refuses a scale of 0; the interval is then the mean.
		{[]float64{0.3, 0.3, 0.3}, 0.95, 0.3, 0.3},
	}
	for _, tt := range tests {
		t.Run(fmt.Sprint(tt.values), func(t *testing.T) {
			got, ok := MeanT(tt.values, tt.level)
			if !ok || !near(got.Lo, tt.lo, 1e-9, 1e-15) || !near(got.Hi, tt.hi, 1e-9, 1e-15) || got.Method != MethodT {
				t.Errorf("MeanT = %+v, %v, want [%v, %v]", got, ok, tt.lo, tt.hi)
			}
		})
	}
	if got, ok := MeanT([]float64{0.5}, 0.95); ok {
		t.Errorf("MeanT of one value = %+v, true, want false", got)
	}
}

func TestPassAtK(t *testing.T) {
	// /usr/bin/python3: 1 - math.comb(n-c, k)/math.comb(n, k), math.comb(c, k)/math.comb(n, k)
	tests := []struct {
		c, n, k int
		at, hat float64
	}{
		{0, 5, 1, 0, 0},
		{5, 5, 3, 1, 1},
		{2, 5, 1, 0.4, 0.4},
		{2, 5, 2, 0.7, 0.1},
		{2, 5, 4, 1, 0},
		{3, 10, 5, 0.9166666666666666, 0},
		{1, 3, 3, 1, 0},
	}
	for _, tt := range tests {
		t.Run(fmt.Sprintf("%d_of_%d,k=%d", tt.c, tt.n, tt.k), func(t *testing.T) {
			if got := PassAtK(tt.c, tt.n, tt.k); !near(got, tt.at, 1e-14, 1e-15) {
				t.Errorf("PassAtK = %v, want %v", got, tt.at)
			}
			if got := PassHatK(tt.c, tt.n, tt.k); !near(got, tt.hat, 1e-14, 1e-15) {
				t.Errorf("PassHatK = %v, want %v", got, tt.hat)
			}
		})
	}
}
