package stats

import (
	"errors"
	"math"
	"testing"
)

// na is a missing value.
var na = math.NaN()

// byCoder turns reliability data written as Krippendorff writes them, a
// row per coder and a column per unit, into units.
func byCoder(coders ...[]float64) [][]float64 {
	units := make([][]float64, len(coders[0]))
	for _, c := range coders {
		for u, v := range c {
			units[u] = append(units[u], v)
		}
	}
	return units
}

// Three of the worked examples of Krippendorff, "Computing Krippendorff's
// Alpha-Reliability" (2011), whose alphas the paper gives to three
// places: A (two coders, binary: .095), B (two coders, nominal a..e coded
// 1..5: .692) and C (four coders, twelve units, missing values: nominal
// .743, ordinal .815, interval .849). Debian has no implementation of
// alpha, so the digits beyond are those of alpha's pairwise definition
// written out in Python, which gives the paper's values:
//
//	def alpha(units, metric):  # units: lists of values, None missing
//	    units = [[v for v in u if v is not None] for u in units]
//	    units = [u for u in units if len(u) >= 2]
//	    vals = [v for u in units for v in u]; n = len(vals)
//	    freq = collections.Counter(vals); cats = sorted(freq)
//	    def d(a, b):
//	        if metric == 'nominal': return 0.0 if a == b else 1.0
//	        if metric == 'interval': return float(a - b) ** 2
//	        lo, hi = min(a, b), max(a, b)
//	        return (sum(freq[g] for g in cats if lo <= g <= hi) - (freq[a] + freq[b]) / 2.0) ** 2
//	    do = sum(d(u[i], u[j]) / (len(u) - 1) for u in units
//	             for i, j in itertools.permutations(range(len(u)), 2)) / n
//	    de = sum(d(vals[i], vals[j]) for i, j in itertools.permutations(range(n), 2)) / (n * (n - 1))
//	    return 1 - do / de
//
// The 40 units of three raters scoring 1..5 (a fifth of ratings missing)
// are random.Random(2711)'s (see threeRaters).
func TestKrippendorffAlpha(t *testing.T) {
	exampleC := byCoder(
		[]float64{1, 2, 3, 3, 2, 1, 4, 1, 2, na, na, na},
		[]float64{1, 2, 3, 3, 2, 2, 4, 1, 2, 5, na, 3},
		[]float64{na, 3, 3, 3, 2, 3, 4, 2, 2, 5, 1, na},
		[]float64{1, 2, 3, 3, 2, 4, 4, 1, 2, 5, 1, na},
	)
	exampleA := byCoder([]float64{0, 1, 0, 0, 0, 0, 0, 0, 1, 0}, []float64{1, 1, 1, 0, 0, 1, 0, 0, 0, 0})
	exampleB := byCoder([]float64{1, 1, 2, 2, 4, 3, 3, 3, 5, 4, 4, 1}, []float64{2, 1, 2, 2, 2, 3, 3, 3, 5, 4, 4, 4})
	tests := []struct {
		name   string
		units  [][]float64
		metric Metric
		want   float64
	}{
		{"example A", exampleA, MetricNominal, 0.09523809523809512},
		{"example B", exampleB, MetricNominal, 0.6919642857142858},
		{"example C nominal", exampleC, MetricNominal, 0.7434210526315791},
		{"example C ordinal", exampleC, MetricOrdinal, 0.8153875037548814},
		{"example C interval", exampleC, MetricInterval, 0.8491071428571428},
		{"three raters nominal", threeRaters(), MetricNominal, 0.4002195992314027},
		{"three raters ordinal", threeRaters(), MetricOrdinal, 0.8289153192371476},
		{"three raters interval", threeRaters(), MetricInterval, 0.8402342843887729},
		// a unit of one value counts nowhere, however long its row
		{"unpaired unit", append(byCoder([]float64{1, 2, 3, 3}, []float64{1, 2, 3, 4}), []float64{na, 9, na, na}), MetricNominal, 0.6956521739130435},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := KrippendorffAlpha(tt.units, tt.metric)
			if err != nil || !near(got, tt.want, 1e-12, 1e-12) {
				t.Errorf("KrippendorffAlpha = %v, %v; want %v", got, err, tt.want)
			}
		})
	}
}

func TestKrippendorffAlphaUndefined(t *testing.T) {
	tests := []struct {
		name  string
		units [][]float64
		want  error
	}{
		{"no units", nil, ErrNoPairs},
		{"no unit of two values", [][]float64{{1, na}, {na, 2}, {3}}, ErrNoPairs},
		{"every value the same", [][]float64{{2, 2}, {2, 2, na}, {na, 3}}, ErrOneCategory},
	}
	for _, tt := range tests {
		for _, metric := range []Metric{MetricNominal, MetricOrdinal, MetricInterval} {
			t.Run(tt.name+" "+metric.String(), func(t *testing.T) {
				got, err := KrippendorffAlpha(tt.units, metric)
				if !errors.Is(err, tt.want) {
					t.Errorf("KrippendorffAlpha = %v, %v; want %v", got, err, tt.want)
				}
				if iv, ok := (Bootstrap{Seed: 1}).KrippendorffAlpha(tt.units, metric, 0.95); ok {
					t.Errorf("Bootstrap.KrippendorffAlpha = %+v, want no interval", iv)
				}
			})
		}
	}
}

// threeRaters are 40 units scored 1..5 by three raters, a fifth of the
// ratings missing:
//
//	r = random.Random(2711)
//	for u in range(40):
//	    truth = r.randint(1, 5)
//	    units.append([None if r.random() < 0.2 else min(5, max(1, truth + r.choice([-1, 0, 0, 0, 1])))
//	                  for rater in range(3)])
func threeRaters() [][]float64 {
	return [][]float64{{3, na, 3}, {2, 2, 2}, {2, 3, na}, {1, 1, 1}, {3, 5, 5}, {5, 5, na}, {1, na, 1}, {na, na, 5}, {na, 5, 4}, {5, 5, na},
		{4, 4, 5}, {4, 4, 2}, {2, na, na}, {1, 2, 1}, {4, 4, na}, {3, na, 3}, {5, 4, 5}, {2, 1, 2}, {1, 2, 1}, {3, 4, 4},
		{3, 4, 3}, {1, na, 2}, {4, na, 5}, {4, na, 4}, {na, 4, 5}, {3, 3, 3}, {5, 4, 5}, {1, 2, 2}, {2, na, 1}, {1, 1, na},
		{4, 4, 5}, {3, 3, 3}, {4, 4, 4}, {na, 1, 1}, {3, 3, 3}, {na, 4, 3}, {5, 4, 4}, {3, na, 4}, {1, 1, 2}, {na, 3, 4}}
}

// The intervals are scipy's percentile bootstrap over the pairable units
// of the alpha above (its expected disagreement summed over the values'
// frequencies, for speed), with 20,000 resamples; here 20,000 more, and
// the bounds must agree within 0.015 (the Monte Carlo error of both):
//
//	pairable = [u for u in units if sum(v is not None for v in u) >= 2]
//	stats.bootstrap((np.arange(len(pairable)),), lambda s: alpha([pairable[i] for i in s], m),
//	                vectorized=False, n_resamples=20000, method="percentile", random_state=0)
func TestBootstrapKrippendorffAlpha(t *testing.T) {
	tests := []struct {
		metric Metric
		lo, hi float64
	}{
		{MetricNominal, 0.2346089930317438, 0.5450380076655608},
		{MetricOrdinal, 0.6956000348769554, 0.8902966701631693},
		{MetricInterval, 0.7494606946212297, 0.8951957696837577},
	}
	for _, tt := range tests {
		t.Run(tt.metric.String(), func(t *testing.T) {
			got, ok := Bootstrap{Resamples: 20000, Seed: 1}.KrippendorffAlpha(threeRaters(), tt.metric, 0.95)
			if !ok || !near(got.Lo, tt.lo, 0, 0.015) || !near(got.Hi, tt.hi, 0, 0.015) || got.Method != MethodBootstrap || got.Level != 0.95 {
				t.Errorf("got %+v, %v; want [%v, %v] within 0.015", got, ok, tt.lo, tt.hi)
			}
		})
	}
}
