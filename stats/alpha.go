package stats

import (
	"fmt"
	"math"
	"slices"
)

// A Metric is how Krippendorff's alpha measures the difference between
// two values: what kind of scale they are on.
type Metric int

const (
	// MetricNominal: values are names of categories; two differ or they do not
	// (pass/fail; A, B, tie).
	MetricNominal Metric = iota
	// MetricOrdinal: values are ranks (1..10): two differ by how many values
	// were given between them, not by how far apart the numbers are.
	MetricOrdinal
	// MetricInterval: values are numbers whose differences mean something: two
	// differ by the square of their difference.
	MetricInterval
)

// String returns "nominal", "ordinal" or "interval".
func (m Metric) String() string {
	switch m {
	case MetricOrdinal:
		return "ordinal"
	case MetricInterval:
		return "interval"
	}
	return "nominal"
}

// KrippendorffAlpha is Krippendorff's alpha of any number of raters, any
// of whom may have left a unit unrated: units[u] are the values the raters
// gave unit u, NaN where a rater gave none (a unit's row may be as long as
// it likes: only its values count). A unit with fewer than two values has
// nobody to agree with and counts nowhere.
//
// It is computed from the coincidence matrix (Krippendorff, "Computing
// Krippendorff's Alpha-Reliability", 2011): every ordered pair of values
// within a unit of m values adds 1/(m−1) to o[c][k], so each pairable
// value counts once; n[c] are o's row sums and n their total. Then
//
//	α = 1 − (n − 1) · Σ o[c][k]·δ²(c,k) / Σ n[c]·n[k]·δ²(c,k)
//
// the disagreement observed within units against the one expected between
// any two values, with δ² the metric's: 1 for different categories
// (MetricNominal); (c − k)² (MetricInterval); (Σ_{g from c to k} n[g] − (n[c]+n[k])/2)²
// over the values given, in order (MetricOrdinal). α is 1 for perfect
// agreement, 0 for what chance gives, below 0 for systematic
// disagreement; with two raters and nominal values it is near Scott's pi.
//
// It returns an error wrapping ErrNoPairs when no unit has two values,
// and ErrOneCategory when every value is the same. It panics on an
// infinite value.
func KrippendorffAlpha(units [][]float64, m Metric) (float64, error) {
	c, err := newCoincidence(units)
	if err != nil {
		return 0, err
	}
	all := make([]int, len(c.units))
	for i := range all {
		all[i] = i
	}
	return c.alpha(all, m)
}

// Bootstrap.KrippendorffAlpha is the bootstrap interval, at level, of
// KrippendorffAlpha over units: it resamples the units that have two
// values or more. It returns ok false when there are none, or when alpha
// is undefined on a resample (every value drawn the same). See Cases.
func (b Bootstrap) KrippendorffAlpha(units [][]float64, m Metric, level float64) (Interval, bool) {
	c, err := newCoincidence(units)
	if err != nil {
		return Interval{}, false
	}
	return b.Cases(len(c.units), level, func(sample []int) float64 {
		v, err := c.alpha(sample, m)
		if err != nil {
			return math.NaN()
		}
		return v
	})
}

// coincidence holds reliability data ready for alpha: the distinct values
// given, in order, and what each pairable unit adds to the coincidence
// matrix.
type coincidence struct {
	values []float64
	units  [][]cell
	// o, counts and delta are scratch space for alpha.
	o      []float64
	counts []float64
	delta  []float64
}

// A cell is what a unit adds to one cell of the coincidence matrix, at
// index at (row·k + column).
type cell struct {
	at    int
	pairs float64
}

// A valueCount is how many times a unit was given values[value].
type valueCount struct {
	value int
	count float64
}

func newCoincidence(units [][]float64) (*coincidence, error) {
	c := &coincidence{}
	for u, unit := range units {
		for _, v := range unit {
			if math.IsInf(v, 0) {
				panic(fmt.Sprintf("stats.KrippendorffAlpha: unit %d has the value %v", u, v))
			}
			if !math.IsNaN(v) && pairable(unit) {
				c.values = append(c.values, v)
			}
		}
	}
	slices.Sort(c.values)
	c.values = slices.Compact(c.values)
	if len(c.values) == 0 {
		return nil, fmt.Errorf("krippendorff's alpha: no unit has two values: %w", ErrNoPairs)
	}
	for _, unit := range units {
		if !pairable(unit) {
			continue
		}
		var counts []valueCount
		for _, v := range unit {
			if math.IsNaN(v) {
				continue
			}
			i, _ := slices.BinarySearch(c.values, v)
			if at := slices.IndexFunc(counts, func(vc valueCount) bool { return vc.value == i }); at >= 0 {
				counts[at].count++
			} else {
				counts = append(counts, valueCount{i, 1})
			}
		}
		var m float64
		for _, vc := range counts {
			m += vc.count
		}
		var cells []cell
		for _, a := range counts {
			for _, b := range counts {
				pairs := a.count * b.count
				if a.value == b.value {
					pairs = a.count * (a.count - 1)
				}
				if pairs > 0 {
					cells = append(cells, cell{a.value*len(c.values) + b.value, pairs / (m - 1)})
				}
			}
		}
		c.units = append(c.units, cells)
	}
	k := len(c.values)
	c.o, c.counts, c.delta = make([]float64, k*k), make([]float64, k), make([]float64, k*k)
	return c, nil
}

// pairable reports whether a unit has two values or more.
func pairable(unit []float64) bool {
	n := 0
	for _, v := range unit {
		if !math.IsNaN(v) {
			n++
		}
	}
	return n >= 2
}

// alpha is Krippendorff's alpha of the units at indexes sample (with
// repeats: a bootstrap resample).
func (c *coincidence) alpha(sample []int, m Metric) (float64, error) {
	k := len(c.values)
	clear(c.o)
	for _, u := range sample {
		for _, cl := range c.units[u] {
			c.o[cl.at] += cl.pairs
		}
	}
	var n float64
	for i := range k {
		c.counts[i] = 0
		for j := range k {
			c.counts[i] += c.o[i*k+j]
		}
		n += c.counts[i]
	}
	// δ², for every two values.
	for i := range k {
		for j := range k {
			var d float64
			switch {
			case i == j:
			case m == MetricInterval:
				d = (c.values[i] - c.values[j]) * (c.values[i] - c.values[j])
			case m == MetricOrdinal:
				lo, hi := min(i, j), max(i, j)
				for g := lo; g <= hi; g++ {
					d += c.counts[g]
				}
				d -= (c.counts[i] + c.counts[j]) / 2
				d *= d
			default:
				d = 1
			}
			c.delta[i*k+j] = d
		}
	}
	var observed, expected float64
	for i := range k {
		for j := range k {
			observed += c.o[i*k+j] * c.delta[i*k+j]
			expected += c.counts[i] * c.counts[j] * c.delta[i*k+j]
		}
	}
	if expected <= 0 {
		return 0, fmt.Errorf("krippendorff's alpha: %w", ErrOneCategory)
	}
	return 1 - (n-1)*observed/expected, nil
}
