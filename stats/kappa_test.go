package stats

import (
	"errors"
	"fmt"
	"testing"
)

// scores1to10 are 30 items scored 1..10 by a judge and by a person, from
// /usr/bin/python3:
//
//	r = random.Random(27)
//	judge = [r.randint(4, 10) for _ in range(30)]
//	person = [min(10, max(1, j + r.choice([-3,-1,0,0,0,1,2]))) for j in judge]
var scores1to10 = struct{ judge, person []int }{
	judge:  []int{9, 7, 9, 6, 6, 5, 4, 4, 6, 10, 8, 6, 6, 6, 10, 10, 7, 5, 5, 5, 7, 10, 4, 9, 9, 8, 9, 4, 8, 10},
	person: []int{9, 9, 9, 7, 3, 6, 4, 4, 3, 10, 10, 7, 6, 6, 9, 10, 7, 5, 6, 4, 8, 10, 4, 8, 6, 8, 10, 4, 9, 10},
}

// scale1to10 are the positions of the categories 1..10, and indexes
// turns scores into theirs.
var scale1to10 = []float64{1, 2, 3, 4, 5, 6, 7, 8, 9, 10}

func indexes(scores []int) []int {
	out := make([]int, len(scores))
	for i, s := range scores {
		out[i] = s - 1
	}
	return out
}

// ratings are the items of two raters, a rating each.
func ratings(first, second []int) [][]Rating {
	out := make([][]Rating, len(first))
	for i := range first {
		out[i] = []Rating{{first[i], second[i]}}
	}
	return out
}

func tableOf(first, second []int, k int) [][]int {
	t := make([][]int, k)
	for i := range t {
		t[i] = make([]int, k)
	}
	for i := range first {
		t[first[i]][second[i]]++
	}
	return t
}

// Each kappa is sklearn's and statsmodels' (Debian's python3-sklearn
// 1.2.1, python3-statsmodels), which agree to the last digit:
//
//	sklearn.metrics.cohen_kappa_score(judge, person, labels=range(1, 11), weights=w)
//	statsmodels.stats.inter_rater.cohens_kappa(table, wt=w, return_results=False)
//
// for w None, "linear", "quadratic"; the 3×3 table is TestAgree's (the
// judge's rows against a person's columns of A, B, tie), read as an
// ordinal scale 0, 1, 2 for the weighted ones; the 2×2 is the kappa
// paradox: 90% agreement, and kappa 0.44, because one category is 90% of
// both raters' use.
func TestKappa(t *testing.T) {
	scores := tableOf(indexes(scores1to10.judge), indexes(scores1to10.person), 10)
	three := [][]int{{6, 1, 1}, {1, 5, 0}, {1, 1, 4}}
	tests := []struct {
		name      string
		table     [][]int
		positions []float64
		w         Weights
		want      float64
	}{
		{"1..10 unweighted", scores, scale1to10, Unweighted, 0.4178525226390686},
		{"1..10 linear", scores, scale1to10, Linear, 0.6944198405668733},
		{"1..10 quadratic", scores, scale1to10, Quadratic, 0.8442187860604662},
		{"3x3 unweighted", three, []float64{0, 1, 2}, Unweighted, 0.6212121212121212},
		{"3x3 linear", three, []float64{0, 1, 2}, Linear, 0.6022727272727273},
		{"3x3 quadratic", three, []float64{0, 1, 2}, Quadratic, 0.5833333333333333},
		// positions are values: a scale of 1, 2, 3 weighs as 0, 1, 2 does
		{"3x3 linear, positions 1..3", three, []float64{1, 2, 3}, Linear, 0.6022727272727273},
		{"paradox", [][]int{{85, 5}, {5, 5}}, []float64{0, 1}, Unweighted, 0.44444444444444436},
		// with two categories every weighting is Cohen's kappa
		{"paradox quadratic", [][]int{{85, 5}, {5, 5}}, []float64{0, 1}, Quadratic, 0.44444444444444436},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Kappa(tt.table, tt.positions, tt.w)
			if err != nil || !near(got, tt.want, 1e-12, 1e-12) {
				t.Errorf("Kappa = %v, %v; want %v", got, err, tt.want)
			}
		})
	}
}

func TestKappaUndefined(t *testing.T) {
	tests := []struct {
		name  string
		table [][]int
		want  error
	}{
		{"no items", [][]int{{0, 0}, {0, 0}}, ErrNoPairs},
		{"one category", [][]int{{12, 0}, {0, 0}}, ErrOneCategory},
		{"no categories", [][]int{}, ErrNoPairs},
	}
	for _, tt := range tests {
		for _, w := range []Weights{Unweighted, Linear, Quadratic} {
			t.Run(fmt.Sprint(tt.name, " ", w), func(t *testing.T) {
				got, err := Kappa(tt.table, []float64{1, 2}[:len(tt.table)], w)
				if !errors.Is(err, tt.want) {
					t.Errorf("Kappa = %v, %v; want %v", got, err, tt.want)
				}
			})
		}
	}
}

// The intervals are scipy's percentile bootstrap over items of sklearn's
// kappa, with 20,000 resamples each; here 20,000 more, and the bounds must
// agree within the Monte Carlo error of both (a standard error of a bound
// is about 0.002 here):
//
//	idx = np.arange(30); j, p = np.array(judge), np.array(person)
//	stats.bootstrap((idx,), lambda s: cohen_kappa_score(j[s], p[s], labels=range(1, 11), weights=w),
//	                vectorized=False, n_resamples=20000, method="percentile", random_state=0)
func TestBootstrapKappa(t *testing.T) {
	tests := []struct {
		w      Weights
		lo, hi float64
	}{
		{Unweighted, 0.20844327176780997, 0.6068152031454783},
		{Linear, 0.5273387940694367, 0.8180242634315424},
		{Quadratic, 0.7127649903288201, 0.9315068493150684},
	}
	for _, tt := range tests {
		t.Run(tt.w.String(), func(t *testing.T) {
			got, ok := Bootstrap{Resamples: 20000, Seed: 1}.Kappa(ratings(indexes(scores1to10.judge), indexes(scores1to10.person)), scale1to10, tt.w, 0.95)
			if !ok || !near(got.Lo, tt.lo, 0, 0.01) || !near(got.Hi, tt.hi, 0, 0.01) || got.Method != MethodBootstrap {
				t.Errorf("got %+v, %v; want [%v, %v] within 0.01", got, ok, tt.lo, tt.hi)
			}
		})
	}
}

// An interval needs kappa on every resample: one where every item drawn
// is in one category has none, and so there is no interval.
func TestBootstrapKappaUndefined(t *testing.T) {
	// one item of 20 disagrees: many resamples draw only the others
	first, second := make([]int, 20), make([]int, 20)
	second[0] = 1
	if got, ok := (Bootstrap{Seed: 1}).Kappa(ratings(first, second), []float64{0, 1}, Unweighted, 0.95); ok {
		t.Errorf("got %+v, want no interval", got)
	}
	if got, ok := (Bootstrap{Seed: 1}).Kappa(nil, []float64{0, 1}, Unweighted, 0.95); ok {
		t.Errorf("no items: got %+v, want no interval", got)
	}
}

// The bootstrap resamples items, not ratings: two people who rated every
// item alike against the judge add no information, and the interval is
// the one of either alone (the same resamples give the same tables,
// doubled), not a narrower one as if there were twice the items.
func TestBootstrapKappaClusters(t *testing.T) {
	first, second := indexes(scores1to10.judge), indexes(scores1to10.person)
	twice := ratings(first, second)
	for i := range twice {
		twice[i] = append(twice[i], twice[i][0])
	}
	b := Bootstrap{Seed: 3}
	one, ok1 := b.Kappa(ratings(first, second), scale1to10, Linear, 0.95)
	two, ok2 := b.Kappa(twice, scale1to10, Linear, 0.95)
	if !ok1 || !ok2 || !near(one.Lo, two.Lo, 1e-12, 1e-12) || !near(one.Hi, two.Hi, 1e-12, 1e-12) {
		t.Errorf("one rating an item: %+v; two alike: %+v; want the same", one, two)
	}
}
