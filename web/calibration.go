package web

import (
	"context"
	"fmt"
	"net/http"
	"net/url"

	"github.com/gavelhq/gavel"
	"github.com/gavelhq/gavel/report"
	"github.com/gavelhq/gavel/store"
)

// Calibration: the trends page shows how far a suite's judges agree with
// the labels people gave its results, and lists the verdicts they said
// were wrong; GET /api/calibration gives the same as JSON.

// calibrationView is the calibration as the trends page shows it.
type calibrationView struct {
	// Verdict is the sentence of where the judge stands; Class styles it.
	Verdict, Class  string
	Labels, Counted int
	Agreement       string
	// Kappa is Cohen's kappa with its interval; Weighted, the weighted
	// kappas of a numeric scale; Alpha, Krippendorff's alpha of more than
	// two raters; "" when there are none. Warning says why kappa is
	// misleading, when it is.
	Kappa, Weighted, Alpha, Warning string
	// Table is the judge against the people, with each category's base
	// rates and specific agreement: nil with fewer than two categories.
	Table *confusionView
	// Scores says how far people's scores are from the judge's; "" when
	// no label gave one.
	Scores        string
	Disagreements []disagreementView
	// Raters are the agreements of every two people on the judgments
	// both labelled: "ada and grace: 11 of 12 (91.7%), kappa 0.80".
	Raters []string
	API    string
}

// confusionView is the judge's categories (rows) against the people's
// (columns), each row ending in the category's base rates.
type confusionView struct {
	Categories []string
	Rows       []confusionRow
}

type confusionRow struct {
	Category string
	Counts   []int
	// Judge and People are the category's base rates; Specific, the
	// agreement on it.
	Judge, People, Specific string
}

// disagreementView is a verdict a person said was wrong.
type disagreementView struct {
	Case, Href, What string
}

// calibration measures the judges of suite against people's labels.
func (s *Server) calibration(ctx context.Context, suite string) (gavel.Calibration, error) {
	checks, err := s.store.LabelChecks(ctx, store.LabelFilter{Suite: suite})
	if err != nil {
		return gavel.Calibration{}, err
	}
	return gavel.Calibrate(checks), nil
}

// newCalibrationView formats a suite's calibration for its trends page.
func newCalibrationView(suite string, c gavel.Calibration) calibrationView {
	v := calibrationView{Verdict: report.CalibrationVerdict(c), Class: "unmet", Labels: c.Labels, Counted: c.Counted,
		Agreement: report.AgreementOf(c), Kappa: report.KappaOf(c.Table), Warning: report.KappaWarning(c.Table),
		API: "/api/calibration?suite=" + url.QueryEscape(suite)}
	if c.Calibrated() {
		v.Class = "met"
	}
	if c.ScoreError != nil {
		v.Scores = fmt.Sprintf("%d of them with a person's score, off the judge's by %s on average", c.Scored, score(*c.ScoreError))
	}
	if len(c.Table.Weighted) > 0 {
		v.Weighted = report.Coefficients(c.Table.Weighted)
	}
	if len(c.Alpha) > 0 {
		v.Alpha = report.AlphaOf(c)
	}
	if t := c.Table; len(t.Categories) > 1 {
		v.Table = &confusionView{}
		for i, cat := range t.Categories {
			r := t.BaseRates[i]
			v.Table.Categories = append(v.Table.Categories, oneLine(cat))
			v.Table.Rows = append(v.Table.Rows, confusionRow{Category: oneLine(cat), Counts: t.Table[i],
				Judge: percent(r.First), People: percent(r.Second), Specific: fmt.Sprintf("%.2f", r.Specific)})
		}
	}
	for _, r := range c.Raters {
		v.Raters = append(v.Raters, report.RaterLine(r))
	}
	for _, d := range c.Disagreements {
		where := fmt.Sprintf("%s#%d", oneLine(d.CaseID), d.Trial)
		if d.Judgment != "" {
			where += " " + oneLine(d.Judgment)
		}
		v.Disagreements = append(v.Disagreements, disagreementView{
			Case: where, What: oneLine(report.Disagreement(d)),
			Href: fmt.Sprintf("%s#trial-%d", caseResultHref(d.RunID, d.CaseID), d.Trial),
		})
	}
	return v
}

// apiCalibration measures a suite's judges against people's labels: GET
// /api/calibration?suite=S (every suite without one).
func (s *Server) apiCalibration(r *http.Request) (any, error) {
	suite := r.URL.Query().Get("suite")
	c, err := s.calibration(r.Context(), suite)
	if err != nil {
		return nil, err
	}
	return report.NewJSONCalibration(suite, c), nil
}
