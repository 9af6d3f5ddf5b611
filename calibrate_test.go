package gavel_test

import (
	"math"
	"testing"

	"github.com/gavelhq/gavel"
	"github.com/gavelhq/gavel/judge"
)

// labels returns n label checks of verdicts with status, each correct or
// not.
func labels(n int, status judge.Status, correct bool) []gavel.LabelCheck {
	out := make([]gavel.LabelCheck, n)
	for i := range out {
		out[i] = gavel.LabelCheck{CaseID: "case", Trial: i + 1, Status: status, Correct: correct, ModelJudged: true}
	}
	return out
}

// byRules marks checks as verdicts no model took part in.
func byRules(checks []gavel.LabelCheck) []gavel.LabelCheck {
	for i := range checks {
		checks[i].ModelJudged = false
	}
	return checks
}

func TestCalibrate(t *testing.T) {
	concat := func(parts ...[]gavel.LabelCheck) []gavel.LabelCheck {
		var out []gavel.LabelCheck
		for _, p := range parts {
			out = append(out, p...)
		}
		return out
	}
	pass, fail := judge.StatusPass, judge.StatusFail
	tests := []struct {
		name                      string
		checks                    []gavel.LabelCheck
		counted, agreed           int
		agreement                 float64 // NaN: none
		kappa                     float64 // NaN: none
		verdict                   string
		disagreements, wantLabels int
	}{
		{"no labels", nil, 0, 0, math.NaN(), math.NaN(), "too few labels", 0, 0},
		{"no label counted", byRules(labels(4, fail, false)), 0, 0, math.NaN(), math.NaN(), "too few labels", 0, 4},
		// 40 passes and 20 fails; people disagree with 3 passes and 3
		// fails: agreement 54/60, people pass 40-3+3 = 40 of 60.
		// Chance: (2/3)(2/3) + (1/3)(1/3) = 5/9; kappa (0.9 - 5/9) / (4/9) = 0.775.
		{"a calibrated judge", concat(labels(37, pass, true), labels(3, pass, false), labels(17, fail, true), labels(3, fail, false)),
			60, 54, 0.9, 0.775, "calibrated", 6, 60},
		{"a judge people often overrule", concat(labels(40, pass, true), labels(20, pass, false)),
			60, 40, 2.0 / 3, 0, "not calibrated", 20, 60},
		// The judge passes 48 of 60 and people 46 of 60: rates that differ,
		// so a chance term that used either rate twice would show.
		// Agreement 46/60 = 23/30; chance 0.8·46/60 + 0.2·14/60 = 0.66;
		// kappa (23/30 - 0.66) / 0.34 = 16/51.
		{"judge and people pass at different rates", concat(labels(40, pass, true), labels(8, pass, false), labels(6, fail, true), labels(6, fail, false)),
			60, 46, 46.0 / 60, 16.0 / 51, "not calibrated", 14, 60},
		// The bar is inclusive: exactly 85%, exactly 50 labels.
		{"exactly 85% agreement", concat(labels(51, pass, true), labels(9, pass, false)),
			60, 51, 0.85, 0, "calibrated", 9, 60},
		{"just under 85% agreement", concat(labels(50, pass, true), labels(10, pass, false)),
			60, 50, 50.0 / 60, 0, "not calibrated", 10, 60},
		{"exactly 50 labels", concat(labels(45, pass, true), labels(5, fail, true)),
			50, 50, 1, 1, "calibrated", 0, 50},
		{"49 labels are too few", concat(labels(44, pass, true), labels(5, fail, true)),
			49, 49, 1, 1, "too few labels", 0, 49},
		{"too few labels", labels(10, pass, true), 10, 10, 1, math.NaN(), "too few labels", 0, 10},
		{"abstentions and errors do not count", concat(labels(5, judge.StatusAbstain, false), labels(2, judge.StatusError, true), labels(3, fail, true)),
			3, 3, 1, math.NaN(), "too few labels", 0, 10},
		{"verdicts of rules alone do not count", concat(byRules(labels(4, fail, false)), labels(3, fail, true)),
			3, 3, 1, math.NaN(), "too few labels", 0, 7},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := gavel.Calibrate(tt.checks)
			agreement := orNaN(c.Agreement)
			if c.Labels != tt.wantLabels || c.Counted != tt.counted || c.Agreed != tt.agreed ||
				math.IsNaN(agreement) != math.IsNaN(tt.agreement) || math.Abs(agreement-tt.agreement) > 1e-9 {
				t.Errorf("labels %d, counted %d, agreed %d, agreement %v; want %d, %d, %d, %v",
					c.Labels, c.Counted, c.Agreed, agreement, tt.wantLabels, tt.counted, tt.agreed, tt.agreement)
			}
			switch {
			case math.IsNaN(tt.kappa) && c.Kappa != nil:
				t.Errorf("kappa %v, want none", *c.Kappa)
			case !math.IsNaN(tt.kappa) && (c.Kappa == nil || math.Abs(*c.Kappa-tt.kappa) > 1e-9):
				t.Errorf("kappa %v, want %v", c.Kappa, tt.kappa)
			}
			if got := c.Verdict(); got != tt.verdict {
				t.Errorf("verdict %q, want %q", got, tt.verdict)
			}
			if len(c.Disagreements) != tt.disagreements {
				t.Errorf("%d disagreements, want %d", len(c.Disagreements), tt.disagreements)
			}
		})
	}
}

// A person's own score is compared with the judge's where both are given.
func TestCalibrateScores(t *testing.T) {
	f := func(v float64) *float64 { return &v }
	c := gavel.Calibrate([]gavel.LabelCheck{
		{Status: judge.StatusPass, ModelJudged: true, Score: f(0.9), Correct: true, HumanScore: f(0.7)},
		{Status: judge.StatusFail, ModelJudged: true, Score: f(0.2), Correct: false, HumanScore: f(0.8)},
		{Status: judge.StatusPass, ModelJudged: true, Correct: true, HumanScore: f(1)}, // the judge gave no score
		{Status: judge.StatusPass, ModelJudged: true, Score: f(0.5), Correct: true},    // the person gave none
	})
	if c.Scored != 2 || math.Abs(orNaN(c.ScoreError)-0.4) > 1e-9 {
		t.Errorf("scored %d, error %v; want 2, 0.4", c.Scored, orNaN(c.ScoreError))
	}
	if none := gavel.Calibrate(labels(3, judge.StatusPass, true)); none.Scored != 0 || none.ScoreError != nil {
		t.Errorf("without a person's score: scored %d, error %v; want 0 and none", none.Scored, orNaN(none.ScoreError))
	}
}

// orNaN is a number that may be unknown, NaN when it is.
func orNaN(p *float64) float64 {
	if p == nil {
		return math.NaN()
	}
	return *p
}
