package stats

import (
	"errors"
	"fmt"
	"math"
)

// The reasons an agreement statistic has no value, wrapped in the errors
// of Kappa and KrippendorffAlpha: a number is either right or absent.
var (
	// ErrNoPairs: nothing was rated twice, so there is no agreement to
	// measure (no item both raters rated; no unit with two values).
	ErrNoPairs = errors.New("nothing was rated twice")
	// ErrOneCategory: every rating was the same (one category, or one
	// value): chance explains all the agreement, and there is none beyond
	// it to measure.
	ErrOneCategory = errors.New("every rating was the same, so chance explains all the agreement")
)

// Weights say how much a disagreement between two categories of a scale
// counts in Kappa.
type Weights int

const (
	// Unweighted: every disagreement counts the same. Cohen's kappa, for
	// categories without an order (pass/fail; A, B, tie).
	Unweighted Weights = iota
	// Linear: a disagreement counts as far as the categories are apart,
	// |x − y|. For an ordinal scale (1..10), where 7 against 8 is
	// nearer agreement than 2 against 9.
	Linear
	// Quadratic: a disagreement counts as the square of that distance,
	// (x − y)²: near misses count little, far ones much. Close to the
	// intraclass correlation on an interval scale.
	Quadratic
)

// String returns "unweighted", "linear" or "quadratic".
func (w Weights) String() string {
	switch w {
	case Linear:
		return "linear"
	case Quadratic:
		return "quadratic"
	}
	return "unweighted"
}

// distance is how much a disagreement between categories at positions x
// and y counts: 0 when they are the same category (i == j).
func (w Weights) distance(i, j int, x, y float64) float64 {
	switch {
	case i == j:
		return 0
	case w == Linear:
		return math.Abs(x - y)
	case w == Quadratic:
		return (x - y) * (x - y)
	}
	return 1
}

// Kappa is Cohen's kappa of two raters, weighted by w: table[i][j] counts
// the items the first rater put in category i and the second in category
// j, and positions[i] is where category i lies on its scale (its value,
// 4 of 1..10); Unweighted reads only how many categories there are.
//
// With v the weight of a disagreement (see Weights), p[i][j] the share of
// items in table[i][j], and r[i] and c[j] the raters' shares of each
// category,
//
//	κw = 1 − Σ v[i][j]·p[i][j] / Σ v[i][j]·r[i]·c[j]
//
// the observed disagreement against the one chance would give. Unweighted,
// it is (po − pe) / (1 − pe). It is sklearn's cohen_kappa_score(weights=)
// and statsmodels' cohens_kappa(wt=) when positions are the categories'
// places 0..k−1, or values of a scale with no gaps between them.
//
// It returns an error wrapping ErrNoPairs when the table is empty, and
// ErrOneCategory when chance explains every agreement (both raters used
// one category only). It panics when the table is not k×k for k
// positions, or a count is negative.
func Kappa(table [][]int, positions []float64, w Weights) (float64, error) {
	k := len(positions)
	if len(table) != k {
		panic(fmt.Sprintf("stats.Kappa: %d rows for %d categories", len(table), k))
	}
	for i, row := range table {
		if len(row) != k {
			panic(fmt.Sprintf("stats.Kappa: row %d has %d columns for %d categories", i, len(row), k))
		}
		for _, n := range row {
			if n < 0 {
				panic(fmt.Sprintf("stats.Kappa: count %d in row %d", n, i))
			}
		}
	}
	rows, cols := make([]float64, k), make([]float64, k)
	var n float64
	for i, row := range table {
		for j, c := range row {
			rows[i] += float64(c)
			cols[j] += float64(c)
			n += float64(c)
		}
	}
	return kappa(func(i, j int) float64 { return float64(table[i][j]) }, rows, cols, n, positions, w)
}

// kappa is Kappa of a table given as a function of cell, with its row and
// column sums and total.
func kappa(cell func(i, j int) float64, rows, cols []float64, n float64, positions []float64, w Weights) (float64, error) {
	if n == 0 {
		return 0, fmt.Errorf("kappa: %w", ErrNoPairs)
	}
	var observed, chance float64
	for i := range rows {
		for j := range cols {
			v := w.distance(i, j, positions[i], positions[j])
			if v == 0 {
				continue
			}
			observed += v * cell(i, j) / n
			chance += v * (rows[i] / n) * (cols[j] / n)
		}
	}
	if chance < 1e-12 {
		return 0, fmt.Errorf("kappa: %w", ErrOneCategory)
	}
	return 1 - observed/chance, nil
}

// A Rating is what two raters said of an item: the first's category and
// the second's, as indexes into Kappa's positions.
type Rating struct{ First, Second int }

// Kappa is the bootstrap interval, at level, of Kappa over items: items[i]
// are the ratings of item i, one for two raters, or several when several
// people each rated the item against the same judge. A resample draws
// items, each bringing all its ratings, so that ratings of one item,
// which agree or disagree together, count as one item, not as many
// independent ones. It returns ok false without items, or when kappa is
// undefined on a resample (every rating drawn in one category). It
// panics when a rating's index is not one of positions'. See Cases.
func (b Bootstrap) Kappa(items [][]Rating, positions []float64, w Weights, level float64) (Interval, bool) {
	k := len(positions)
	for i, item := range items {
		for _, r := range item {
			if r.First < 0 || r.First >= k || r.Second < 0 || r.Second >= k {
				panic(fmt.Sprintf("stats.Bootstrap.Kappa: item %d rated %d and %d of %d categories", i, r.First, r.Second, k))
			}
		}
	}
	table := make([]float64, k*k)
	rows, cols := make([]float64, k), make([]float64, k)
	cell := func(i, j int) float64 { return table[i*k+j] }
	return b.Cases(len(items), level, func(sample []int) float64 {
		clear(table)
		clear(rows)
		clear(cols)
		var n float64
		for _, s := range sample {
			for _, r := range items[s] {
				table[r.First*k+r.Second]++
				rows[r.First]++
				cols[r.Second]++
				n++
			}
		}
		v, err := kappa(cell, rows, cols, n, positions, w)
		if err != nil {
			return math.NaN()
		}
		return v
	})
}
