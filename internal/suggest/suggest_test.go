package suggest

import "testing"

func TestEditDistance(t *testing.T) {
	cases := []struct {
		a, b string
		want int
	}{
		{"", "", 0},
		{"majority", "majority", 0},
		{"majorty", "majority", 1},
		{"", "fail", 4},
		{"fial", "fail", 2},
		{"weighted-average", "weighted_average", 1},
		{"médian", "median", 1},
	}
	for _, tc := range cases {
		t.Run(tc.a+"→"+tc.b, func(t *testing.T) {
			if got := EditDistance(tc.a, tc.b); got != tc.want {
				t.Errorf("got %d, want %d", got, tc.want)
			}
		})
	}
}
