package stats

import (
	"fmt"
	"testing"
)

func TestHolmAndBenjaminiHochberg(t *testing.T) {
	// /usr/bin/python3, Debian's python3-statsmodels 0.13.5:
	//	from statsmodels.stats.multitest import multipletests
	//	print(multipletests(p, method="holm")[1], multipletests(p, method="fdr_bh")[1])
	tests := []struct{ p, holm, bh []float64 }{
		{[]float64{0.01, 0.04, 0.03, 0.005}, []float64{0.03, 0.06, 0.06, 0.02}, []float64{0.02, 0.04, 0.04, 0.02}},
		{[]float64{0.5}, []float64{0.5}, []float64{0.5}},
		{[]float64{0.001, 0.2, 0.2, 0.04, 0.9, 0.03}, []float64{0.006, 0.6000000000000001, 0.6000000000000001, 0.16, 0.9, 0.15}, []float64{0.006, 0.24, 0.24, 0.08, 0.9, 0.08}},
		{[]float64{0.02, 0.02, 0.02}, []float64{0.06, 0.06, 0.06}, []float64{0.02, 0.02, 0.02}},
		{[]float64{1.0, 0.0, 0.5}, []float64{1.0, 0.0, 1.0}, []float64{1.0, 0.0, 0.75}},
		{[]float64{0.049, 0.051}, []float64{0.098, 0.098}, []float64{0.051, 0.051}},
		{nil, []float64{}, []float64{}},
	}
	for _, tt := range tests {
		t.Run(fmt.Sprint(tt.p), func(t *testing.T) {
			if got := Holm(tt.p); !nearAll(got, tt.holm) {
				t.Errorf("Holm(%v) = %v, want %v", tt.p, got, tt.holm)
			}
			if got := BenjaminiHochberg(tt.p); !nearAll(got, tt.bh) {
				t.Errorf("BenjaminiHochberg(%v) = %v, want %v", tt.p, got, tt.bh)
			}
		})
	}
}

// nearAll reports whether got and want are as long and near in each
// value.
func nearAll(got, want []float64) bool {
	if len(got) != len(want) {
		return false
	}
	for i := range got {
		if !near(got[i], want[i], 1e-12, 1e-15) {
			return false
		}
	}
	return true
}
