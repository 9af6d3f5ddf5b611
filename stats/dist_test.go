package stats

import (
	"fmt"
	"math"
	"testing"
)

// The wants below were computed by /usr/bin/python3 (Debian's
// python3-scipy 1.10.1) with the script beside each table.

func TestNormalQuantile(t *testing.T) {
	// for p in ps: print(p, scipy.stats.norm.ppf(p))
	tests := []struct{ p, want float64 }{
		{1e-300, -37.0470962993612},
		{1e-20, -9.262340089798409},
		{1e-10, -6.361340902404056},
		{1e-05, -4.264890793922825},
		{0.001, -3.090232306167813},
		{0.01, -2.3263478740408408},
		{0.02425, -1.972961051311885},
		{0.025, -1.9599639845400545},
		{0.05, -1.6448536269514729},
		{0.1, -1.2815515655446004},
		{0.3, -0.5244005127080409},
		{0.5, 0.0},
		{0.7, 0.5244005127080407},
		{0.9, 1.2815515655446004},
		{0.95, 1.6448536269514722},
		{0.975, 1.959963984540054},
		{0.99, 2.3263478740408408},
		{0.999, 3.090232306167813},
		{0.9999999999, 6.361340889697422},
		{0, math.Inf(-1)},
		{1, math.Inf(1)},
		{-0.1, math.NaN()},
		{1.1, math.NaN()},
	}
	for _, tt := range tests {
		t.Run(fmt.Sprint(tt.p), func(t *testing.T) {
			if got := NormalQuantile(tt.p); !near(got, tt.want, 1e-14, 1e-15) {
				t.Errorf("NormalQuantile(%v) = %v, want %v", tt.p, got, tt.want)
			}
		})
	}
}

func TestNormalCDF(t *testing.T) {
	// for x in xs: print(x, scipy.stats.norm.cdf(x))
	tests := []struct{ x, want float64 }{
		{-38, 0.0},
		{-10, 7.61985302416047e-24},
		{-5, 2.866515718791933e-07},
		{-1.959963984540054, 0.025},
		{-1, 0.15865525393145707},
		{0, 0.5},
		{0.5, 0.6914624612740131},
		{1, 0.8413447460685429},
		{1.959963984540054, 0.975},
		{3, 0.9986501019683699},
		{8, 0.9999999999999993},
	}
	for _, tt := range tests {
		t.Run(fmt.Sprint(tt.x), func(t *testing.T) {
			if got := NormalCDF(tt.x); !near(got, tt.want, 1e-13, 1e-300) {
				t.Errorf("NormalCDF(%v) = %v, want %v", tt.x, got, tt.want)
			}
		})
	}
}

func TestTCDF(t *testing.T) {
	// for t, df in cases: print(t, df, scipy.stats.t.cdf(t, df))
	tests := []struct{ t, df, want float64 }{
		{-3, 1, 0.10241638234956672},
		{0.5, 1, 0.6475836176504333},
		{2.0, 2, 0.908248290463863},
		{-1.5, 3.5, 0.10890909350767256},
		{2.262157162740992, 9, 0.9749999999976622},
		{0.1, 30, 0.5394951941048645},
		{-4, 100, 6.076182215038079e-05},
		{1.96, 10000, 0.9749882398840835},
		{30, 5, 0.999999614067569},
		{1e-06, 4, 0.500000375},
		{0, 3, 0.5},
		{math.Inf(1), 3, 1},
		{1, 0, math.NaN()},
	}
	for _, tt := range tests {
		t.Run(fmt.Sprintf("%v,df=%v", tt.t, tt.df), func(t *testing.T) {
			if got := TCDF(tt.t, tt.df); !near(got, tt.want, 1e-12, 1e-300) {
				t.Errorf("TCDF(%v, %v) = %v, want %v", tt.t, tt.df, got, tt.want)
			}
		})
	}
}

func TestTQuantile(t *testing.T) {
	// for p, df in cases: print(p, df, scipy.stats.t.ppf(p, df))
	tests := []struct{ p, df, want float64 }{
		{0.975, 1, 12.706204736432095},
		{0.975, 2, 4.302652729911275},
		{0.975, 9, 2.2621571627409915},
		{0.995, 29, 2.756385903670335},
		{0.6, 5, 0.2671808657039658},
		{0.5000001, 7, 2.597460274290387e-07},
		{0.025, 3, -3.1824463052842638},
		// scipy says 223.60344382868993, 9e-10 off: for df = 2, t is
		// (2p−1)/√(2p(1−p)), which Python's fractions and decimal put at
		// 223.6034436345460251 for the float nearest 0.99999.
		{0.99999, 2, 223.603443634546},
		{0.975, 9999, 1.9602012636213575},
		// scipy says 3.2498355440153697, 7e-10 off; mpmath (30 digits)
		// solves betainc(4.5, 0.5, 0, 9/(9+t²))/2 = 0.005 at
		// 3.24983554159212627563.
		{0.995, 9, 3.2498355415921263},
		{0.9, 0.5, 10.270324410234544},
		{0.5, 4, 0},
		{1, 4, math.Inf(1)},
		{0.9, -1, math.NaN()},
	}
	for _, tt := range tests {
		t.Run(fmt.Sprintf("%v,df=%v", tt.p, tt.df), func(t *testing.T) {
			if got := TQuantile(tt.p, tt.df); !near(got, tt.want, 1e-10, 1e-300) {
				t.Errorf("TQuantile(%v, %v) = %v, want %v", tt.p, tt.df, got, tt.want)
			}
		})
	}
}

func TestBetaInc(t *testing.T) {
	// for a, b, x in cases: print(a, b, x, scipy.special.betainc(a, b, x))
	tests := []struct{ a, b, x, want float64 }{
		{0.5, 0.5, 0.3, 0.3690101195655454},
		{2, 3, 0.4, 0.5247999999999999},
		{10, 1, 0.9, 0.3486784401000001},
		{1, 10000, 0.0002, 0.8646917847216095},
		{5000, 5001, 0.5, 0.5039893230700742},
		{9990, 11, 0.998, 0.01075361980296863},
		{0.5, 50, 0.001, 0.2476309800346232},
		{30, 0.5, 0.99, 0.439334368905251},
		{2, 3, 0, 0},
		{2, 3, 1, 1},
	}
	for _, tt := range tests {
		t.Run(fmt.Sprintf("a=%v,b=%v,x=%v", tt.a, tt.b, tt.x), func(t *testing.T) {
			if got := betaInc(tt.a, tt.b, tt.x); !near(got, tt.want, 1e-10, 1e-300) {
				t.Errorf("betaInc(%v, %v, %v) = %v, want %v", tt.a, tt.b, tt.x, got, tt.want)
			}
		})
	}
}

func TestBetaIncInv(t *testing.T) {
	// for a, b, p in cases: print(a, b, p, scipy.special.betaincinv(a, b, p))
	tests := []struct{ a, b, p, want float64 }{
		{0.5, 0.5, 0.3, 0.2061073738537634},
		{2, 3, 0.4, 0.3291665033784079},
		{1, 10000, 0.025, 2.531777593461957e-06},
		{9999, 2, 0.975, 0.9999757781543596},
		{5000, 5001, 0.5, 0.4999500016667033},
		{3, 8, 1e-10, 9.411910414981326e-05},
		{0.5, 4.5, 0.05, 0.0004617041154873466},
		{15, 0.5, 0.999, 0.9999999467602827},
		{2, 3, 0, 0},
		{2, 3, 1, 1},
	}
	for _, tt := range tests {
		t.Run(fmt.Sprintf("a=%v,b=%v,p=%v", tt.a, tt.b, tt.p), func(t *testing.T) {
			if got := betaIncInv(tt.a, tt.b, tt.p); !near(got, tt.want, 1e-10, 1e-300) {
				t.Errorf("betaIncInv(%v, %v, %v) = %v, want %v", tt.a, tt.b, tt.p, got, tt.want)
			}
		})
	}
}
