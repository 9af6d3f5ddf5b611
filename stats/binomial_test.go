package stats

import (
	"fmt"
	"testing"
)

func TestBinomialTest(t *testing.T) {
	// /usr/bin/python3, Debian's python3-scipy 1.10.1:
	//	from scipy.stats import binomtest
	//	print(k, n, p, binomtest(k, n, p).pvalue)
	tests := []struct {
		k, n    int
		p, want float64
	}{
		{0, 1, 0.5, 1.0},
		{1, 1, 0.5, 1.0},
		{3, 10, 0.5, 0.34375},
		{7, 10, 0.5, 0.34375},
		{5, 10, 0.5, 1.0},
		{0, 10, 0.5, 0.001953125},
		{10, 10, 0.5, 0.001953125},
		{2, 10, 0.3, 0.7331720679999996},
		{9, 10, 0.8, 0.698010112},
		{0, 20, 0.05, 0.6226463974646921},
		{3, 20, 0.05, 0.07548367378849626},
		{51, 235, 0.16666666666666666, 0.043747970182399884},
		{10, 11, 0.8, 0.7047209983999999},
		{4800, 10000, 0.5, 6.593515598672341e-05},
		{5100, 10000, 0.5, 0.046585527704947234},
		{9123, 10000, 0.9, 3.303133316413373e-05},
		{1, 10, 0, 0.0},
		{0, 10, 0, 1.0},
		{10, 10, 1, 1.0},
		{7, 10, 1, 0.0},
		{1, 3, 0.3333333333333333, 1.0},
		// Not scipy's (it refuses n = 0): nothing seen, nothing shown.
		{0, 0, 0.5, 1},
	}
	for _, tt := range tests {
		t.Run(fmt.Sprintf("%d_of_%d_at_%v", tt.k, tt.n, tt.p), func(t *testing.T) {
			if got := BinomialTest(tt.k, tt.n, tt.p); !near(got, tt.want, 1e-9, 1e-300) {
				t.Errorf("BinomialTest(%d, %d, %v) = %v, want %v", tt.k, tt.n, tt.p, got, tt.want)
			}
		})
	}
}

func TestMcNemar(t *testing.T) {
	// /usr/bin/python3, Debian's python3-statsmodels 0.13.5:
	//	from statsmodels.stats.contingency_tables import mcnemar
	//	print(b, c, mcnemar([[50, b], [c, 50]], exact=True).pvalue)
	tests := []struct {
		b, c int
		want float64
	}{
		{0, 0, 1.0},
		{1, 0, 1.0},
		{0, 1, 1.0},
		{1, 1, 1.0},
		{3, 0, 0.25},
		{5, 1, 0.21875},
		{2, 8, 0.109375},
		{6, 6, 1.0},
		{0, 20, 1.9073486328125e-06},
		{10, 25, 0.016673847800120715},
		{100, 140, 0.01166409231767769},
		{500, 600, 0.002819544991436429},
		{4900, 5100, 0.046585527704947234},
		{0, 10000, 0.0},
	}
	for _, tt := range tests {
		t.Run(fmt.Sprintf("b=%d,c=%d", tt.b, tt.c), func(t *testing.T) {
			if got := McNemar(tt.b, tt.c); !near(got, tt.want, 1e-9, 1e-300) {
				t.Errorf("McNemar(%d, %d) = %v, want %v", tt.b, tt.c, got, tt.want)
			}
		})
	}
}
