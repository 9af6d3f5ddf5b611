package stats

import "math"

// near reports whether got is want within a relative tolerance rel, or
// within abs of it (for wants at or near zero). Infinities must match.
func near(got, want, rel, abs float64) bool {
	if math.IsInf(want, 0) || math.IsNaN(want) {
		return got == want || (math.IsNaN(got) && math.IsNaN(want))
	}
	return math.Abs(got-want) <= max(rel*math.Abs(want), abs)
}
