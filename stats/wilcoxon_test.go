package stats

import (
	"math"
	"testing"
)

func TestWilcoxon(t *testing.T) {
	// /usr/bin/python3, Debian's python3-scipy 1.10.1:
	//	from scipy.stats import wilcoxon
	//	r = wilcoxon(d)                   # the defaults; method="approx" where noted
	//	print(r.statistic, r.pvalue)
	tests := []struct {
		name            string
		d               []float64
		statistic, want float64
		exact           bool
	}{
		{"scipy's corn example", []float64{6, 8, 14, 16, 23, 24, 28, 29, 41, -48, 49, 56, 60, -67, 75}, 24, 0.041259765625, true},
		{"one difference", []float64{0.5}, 0, 1, true},
		{"two differences", []float64{0.5, -0.25}, 1, 1, true},
		{"all positive", []float64{0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7}, 0, 0.015625, true},
		{"at the centre", []float64{1, -2, -3, 4, 5, -6, -7, 8}, 18, 1, true},
		{"zeros switch to the normal approximation", []float64{0, 0, 0.1, -0.2, 0.3, 0.4, 0.5, 0.6, -0.7, 0.8}, 9, 0.20757844233562428, false},
		{"one zero", []float64{0, 1, 2, 3, 4, 5, 6}, 0, 0.027707849358079864, false},
		// scipy 1.10's default would use the exact distribution despite
		// the ties; the want is its method="approx".
		{"ties", []float64{1, 1, -1, 2, 2, 3, -3, 3, 4, 5}, 9, 0.057852694427290845, false},
		{"shares of three trials", []float64{1. / 3, 1. / 3, -1. / 3, 2. / 3, 1. / 3, 1, 1. / 3, -2. / 3, 1. / 3, 1. / 3, 0, 0}, 12.5, 0.11208716577792077, false},
		{"51 differences: the normal approximation", []float64{0.10123, 0.398746, -0.174138, -0.790592, -0.354671, -0.891647, 0.160144, 1.440215, -0.392207, -0.520475, 0.589842, 0.456887, 0.205414, -0.830468, 0.070748, 0.795303, -1.244215, -0.357616, -1.801223, -1.189538, -1.741735, -0.135091, -1.167446, 0.371264, 0.256751, -0.086931, -2.41676, -0.438693, 0.051499, 0.213309, -1.430136, -0.377753, -0.878519, -0.708837, 1.160899, -0.707535, 0.067478, 0.98439, -0.4836, -0.011702, 0.210464, 0.163782, -1.125056, 0.17614, 1.458823, -1.447145, 0.959383, 0.219354, -0.54147, 2.100417, 0.86226}, 529, 0.20909981466131067, false},
		// [((i*37) % 23 - 10) / 10 for i in range(10000)]
		{"10,000 with ties and zeros", generate(10000, func(i int) float64 { return float64((i*37)%23-10) / 10 }), 18909017, 6.61584736327294e-49, false},
		// [((i*7919) % 10007 - 4950) / 10007 for i in range(10000)]
		{"10,000, nearly symmetric", generate(10000, func(i int) float64 { return float64((i*7919)%10007-4950) / 10007 }), 24464133.5, 0.06463499379056145, false},
		// [((i*7919) % 10007 - 5003) / 10007 for i in range(10000)]
		{"10,000, symmetric", generate(10000, func(i int) float64 { return float64((i*7919)%10007-5003) / 10007 }), 24990927, 0.9818327429657826, false},
		// Not scipy's (it raises an error, or returns NaN): nothing differed.
		{"every difference zero", []float64{0, 0, 0}, 0, 1, false},
		{"no differences", nil, 0, 1, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := Wilcoxon(tt.d)
			if got.Statistic != tt.statistic || !near(got.P, tt.want, 1e-9, 1e-300) || got.Exact != tt.exact {
				t.Errorf("Wilcoxon = %+v, want statistic %v, P %v, exact %v", got, tt.statistic, tt.want, tt.exact)
			}
			zeros := 0
			for _, x := range tt.d {
				if x == 0 {
					zeros++
				}
			}
			if got.Zeros != zeros || got.N != len(tt.d)-zeros {
				t.Errorf("N, Zeros = %d, %d, want %d, %d", got.N, got.Zeros, len(tt.d)-zeros, zeros)
			}
		})
	}
}

// generate returns n values f(0), f(1), ….
func generate(n int, f func(int) float64) []float64 {
	out := make([]float64, n)
	for i := range out {
		out[i] = f(i)
	}
	return out
}

func TestWilcoxonDoesNotChangeItsInput(t *testing.T) {
	d := []float64{3, -1, 0, 2}
	Wilcoxon(d)
	if want := []float64{3, -1, 0, 2}; !equalFloats(d, want) {
		t.Errorf("d = %v after Wilcoxon, want %v", d, want)
	}
}

// equalFloats reports whether a and b hold the same numbers.
func equalFloats(a, b []float64) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] && !(math.IsNaN(a[i]) && math.IsNaN(b[i])) {
			return false
		}
	}
	return true
}
