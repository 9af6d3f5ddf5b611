package gavel

import (
	"slices"

	"github.com/gavelhq/gavel/stats"
)

// A judge errs both ways: it passes some replies people fail, and fails
// some they pass. Once people have labelled enough of its verdicts
// (gavel calibrate), its rates of each error correct the run's pass rate
// for them (Rogan–Gladen, docs/statistics.md), printed beside the raw
// one, never instead of it.

// A CorrectedRate is a run's pass rate corrected for its judge's errors.
type CorrectedRate struct {
	// Rate is the corrected pass rate over the judged trials, and
	// Interval its interval (stats.RoganGladen).
	Rate     float64        `json:"rate"`
	Interval stats.Interval `json:"interval"`
	// Labels is how many people's labels of the judge's verdicts the
	// correction rests on, and Sensitivity and Specificity the judge's
	// rates read from them: the share of the replies people passed that
	// it passed, and of those they failed that it failed.
	Labels      int     `json:"labels"`
	Sensitivity float64 `json:"sensitivity"`
	Specificity float64 `json:"specificity"`
}

// JudgeAccuracy reads a judge's accuracy from its calibration: how many of
// the verdicts people labelled pass and fail it passed and failed. It is
// ok only when the calibration is of pass/fail verdicts and has at least
// CalibrationLabels counted labels, some of each.
func (c Calibration) JudgeAccuracy() (stats.Accuracy, bool) {
	t := c.Table
	pass, fail := slices.Index(t.Categories, "pass"), slices.Index(t.Categories, "fail")
	if c.Counted < CalibrationLabels || pass < 0 || fail < 0 || len(t.Categories) != 2 {
		return stats.Accuracy{}, false
	}
	// Rows are the judge's categories, columns the people's.
	a := stats.Accuracy{
		TruePass: t.Table[pass][pass], FalseFail: t.Table[fail][pass],
		TrueFail: t.Table[fail][fail], FalsePass: t.Table[pass][fail],
	}
	return a, a.TruePass+a.FalseFail > 0 && a.TrueFail+a.FalsePass > 0
}

// corrected is the pass rate of the run's judged trials corrected for
// the judge's errors, when the run knows them (Run.JudgeAccuracy); nil
// otherwise, or when the judge does no better than a coin.
func (r *Run) corrected(level float64) *CorrectedRate {
	if r.JudgeAccuracy == nil {
		return nil
	}
	passed, judged := 0, 0
	for i := range r.Cases {
		p, n := r.Cases[i].passes()
		passed, judged = passed+p, judged+n
	}
	a := *r.JudgeAccuracy
	c, ok := stats.RoganGladen(passed, judged, a, level)
	if !ok {
		return nil
	}
	return &CorrectedRate{Rate: c.Rate, Interval: c.Interval, Labels: a.TruePass + a.FalseFail + a.TrueFail + a.FalsePass,
		Sensitivity: a.Sensitivity(), Specificity: a.Specificity()}
}
