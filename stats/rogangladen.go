package stats

import (
	"fmt"
	"math"
)

// Accuracy is how a judge did on trials a person labelled: its errors
// either way, the inputs of RoganGladen. A pass is the positive outcome.
type Accuracy struct {
	// TruePass and FalseFail split the trials labelled pass: the judge
	// passed TruePass of them and failed FalseFail.
	TruePass, FalseFail int
	// TrueFail and FalsePass split the trials labelled fail: the judge
	// failed TrueFail of them and passed FalsePass.
	TrueFail, FalsePass int
}

// Sensitivity is the judge's true pass rate: the share of the trials
// labelled pass that it passed (NaN without such trials).
func (a Accuracy) Sensitivity() float64 {
	return float64(a.TruePass) / float64(a.TruePass+a.FalseFail)
}

// Specificity is the judge's true fail rate: the share of the trials
// labelled fail that it failed (NaN without such trials).
func (a Accuracy) Specificity() float64 {
	return float64(a.TrueFail) / float64(a.TrueFail+a.FalsePass)
}

// A Corrected is a pass rate corrected for the judge's errors, with its
// interval.
type Corrected struct {
	// Rate is the corrected pass rate, clamped to [0, 1].
	Rate float64
	// Interval is Rate's interval (MethodRoganGladen).
	Interval Interval
}

// RoganGladen corrects a pass rate for the judge's errors: passes of n
// trials (or cases) were judged passing by a judge whose Accuracy on
// labelled trials is known. A judge that passes some failures and fails
// some passes shifts the rate it reports towards its own biases; if its
// sensitivity Se and specificity Sp hold for the run's trials too, the
// true rate π satisfies AP = π·Se + (1−π)(1−Sp) for the apparent rate
// AP = passes/n, so (Rogan and Gladen, 1978)
//
//	π = (AP + Sp − 1) / (Se + Sp − 1),   clamped to [0, 1].
//
// The interval accounts for the uncertainty of all three rates, AP, Se
// and Sp, by the delta method:
//
//	Var(π) = [AP(1−AP)/n + π²·Se(1−Se)/n₊ + (1−π)²·Sp(1−Sp)/n₋] / (Se + Sp − 1)²
//
// with n₊ and n₋ the trials labelled pass and fail. Its centre and
// variance use each rate with z²/4 successes and z²/4 failures added to
// its counts (about one of each at 95%, the adjustment Agresti and
// Coull's interval makes to one proportion), which keeps the interval
// from collapsing when a rate is 0 or 1; its bounds are clamped to
// [0, 1], and widened to contain Rate when the adjustment moved the
// centre past it. In simulations of 50 to 1,000 trials and 20 to 100
// labels each way, its coverage at 95% was 95 to 100% (the plain delta
// method's, 90 to 99%).
//
// It returns ok false when no correction is possible: n is 0, no trial
// was labelled pass or none fail, or Se + Sp ≤ 1 (the judge does no
// better than a coin, and its verdicts carry nothing to correct from).
// It panics on a negative count, more passes than n, or a level outside
// (0, 1).
func RoganGladen(passes, n int, judge Accuracy, level float64) (Corrected, bool) {
	mustCount("RoganGladen", passes, n)
	if judge.TruePass < 0 || judge.FalseFail < 0 || judge.TrueFail < 0 || judge.FalsePass < 0 {
		panic(fmt.Sprintf("stats.RoganGladen: accuracy %+v has a negative count", judge))
	}
	z := z("RoganGladen", level)
	pos, neg := judge.TruePass+judge.FalseFail, judge.TrueFail+judge.FalsePass
	if n == 0 || pos == 0 || neg == 0 {
		return Corrected{}, false
	}
	rate, ok := roganGladen(float64(passes)/float64(n), judge.Sensitivity(), judge.Specificity())
	if !ok {
		return Corrected{}, false
	}
	iv := Interval{Lo: 0, Hi: 1, Level: level, Method: MethodRoganGladen}
	add := z * z / 4
	adjusted := func(k, of int) (rate, count float64) {
		return (float64(k) + add) / (float64(of) + 2*add), float64(of) + 2*add
	}
	ap, nAP := adjusted(passes, n)
	se, nSe := adjusted(judge.TruePass, pos)
	sp, nSp := adjusted(judge.TrueFail, neg)
	if centre, ok := roganGladen(ap, se, sp); ok {
		j := se + sp - 1
		v := (ap*(1-ap)/nAP + centre*centre*se*(1-se)/nSe + (1-centre)*(1-centre)*sp*(1-sp)/nSp) / (j * j)
		half := z * math.Sqrt(v)
		iv.Lo = math.Min(clamp01(centre-half), rate)
		iv.Hi = math.Max(clamp01(centre+half), rate)
	}
	return Corrected{Rate: rate, Interval: iv}, true
}

// roganGladen is the corrected rate for an apparent rate ap, sensitivity
// se and specificity sp, clamped to [0, 1]; ok false when se + sp ≤ 1.
func roganGladen(ap, se, sp float64) (float64, bool) {
	j := se + sp - 1
	if !(j > 0) {
		return 0, false
	}
	return clamp01((ap + sp - 1) / j), true
}
