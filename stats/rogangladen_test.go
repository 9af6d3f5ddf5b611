package stats

import (
	"fmt"
	"testing"
)

func TestRoganGladen(t *testing.T) {
	// No library computes this interval; the wants are its formula
	// written out in /usr/bin/python3 with scipy's normal quantile:
	//
	//	z = norm.ppf(1 - (1 - level) / 2)
	//	se0, sp0 = tp / (tp + ff), tf / (tf + fp)
	//	rate = min(max((x / n + sp0 - 1) / (se0 + sp0 - 1), 0), 1)
	//	a = z * z / 4
	//	ap, N = (x + a) / (n + 2 * a), n + 2 * a
	//	se, NP = (tp + a) / (tp + ff + 2 * a), tp + ff + 2 * a
	//	sp, NN = (tf + a) / (tf + fp + 2 * a), tf + fp + 2 * a
	//	j = se + sp - 1
	//	c = min(max((ap + sp - 1) / j, 0), 1)
	//	h = z * math.sqrt((ap*(1-ap)/N + c*c*se*(1-se)/NP + (1-c)**2*sp*(1-sp)/NN) / j**2)
	//	print(rate, min(max(c - h, 0), rate), max(min(c + h, 1), rate))
	tests := []struct {
		passes, n    int
		judge        Accuracy
		level        float64
		rate, lo, hi float64
	}{
		// AP 0.3, Se 0.9, Sp 0.85: the textbook (0.3 + 0.85 − 1) / 0.75 = 0.2.
		{30, 100, Accuracy{27, 3, 17, 3}, 0.95, 0.19999999999999987, 0, 0.4087502980088469},
		{80, 100, Accuracy{45, 5, 38, 12}, 0.95, 0.8484848484848484, 0.6849648079947126, 1},
		// A judge right on all 40 labels: the interval does not collapse.
		{100, 100, Accuracy{20, 0, 20, 0}, 0.95, 1.0, 0.9038670072741455, 1},
		{0, 100, Accuracy{20, 0, 20, 0}, 0.95, 0.0, 0, 0.09613299272585453},
		// Fewer passes than the judge's false passes explain: clamped to 0.
		{5, 200, Accuracy{90, 10, 85, 15}, 0.9, 0, 0, 0.0839412822376279},
		{9500, 10000, Accuracy{190, 10, 95, 5}, 0.95, 1.0, 0.9644495031896638, 1},
	}
	for _, tt := range tests {
		t.Run(fmt.Sprintf("%d_of_%d_%+v", tt.passes, tt.n, tt.judge), func(t *testing.T) {
			got, ok := RoganGladen(tt.passes, tt.n, tt.judge, tt.level)
			if !ok || !near(got.Rate, tt.rate, 1e-12, 1e-15) || !near(got.Interval.Lo, tt.lo, 1e-12, 1e-15) ||
				!near(got.Interval.Hi, tt.hi, 1e-12, 1e-15) || got.Interval.Method != MethodRoganGladen || got.Interval.Level != tt.level {
				t.Errorf("RoganGladen = %+v, %v, want rate %v in [%v, %v]", got, ok, tt.rate, tt.lo, tt.hi)
			}
		})
	}
}

func TestRoganGladenCannotCorrect(t *testing.T) {
	for _, tt := range []struct {
		name      string
		passes, n int
		judge     Accuracy
	}{
		{"no trials", 0, 0, Accuracy{9, 1, 9, 1}},
		{"no trial labelled pass", 5, 10, Accuracy{0, 0, 9, 1}},
		{"no trial labelled fail", 5, 10, Accuracy{9, 1, 0, 0}},
		{"a judge that passes everything", 5, 10, Accuracy{10, 0, 0, 10}},
		{"a judge worse than a coin", 5, 10, Accuracy{3, 7, 3, 7}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			if got, ok := RoganGladen(tt.passes, tt.n, tt.judge, 0.95); ok {
				t.Errorf("RoganGladen = %+v, true, want false", got)
			}
		})
	}
}
