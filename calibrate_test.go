package gavel_test

import (
	"fmt"
	"math"
	"testing"

	"github.com/gavelhq/gavel"
	"github.com/gavelhq/gavel/judge"
	"github.com/gavelhq/gavel/stats"
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

// Krippendorff's alpha of the judge and the people at once: Krippendorff's
// example C ("Computing Krippendorff's Alpha-Reliability", 2011), whose
// coder A is the judge and B, C and D people, each skipping some units.
// The paper gives nominal .743, ordinal .815 and interval .849 (the
// digits beyond are stats' TestKrippendorffAlpha's). Unit 12 has one
// value (B's): nobody to agree with, it counts nowhere.
func TestCalibrateAlpha(t *testing.T) {
	const na = 0
	coders := map[string][]int{
		"judge": {1, 2, 3, 3, 2, 1, 4, 1, 2, na, na, na},
		"B":     {1, 2, 3, 3, 2, 2, 4, 1, 2, 5, na, 3},
		"C":     {na, 3, 3, 3, 2, 3, 4, 2, 2, 5, 1, na},
		"D":     {1, 2, 3, 3, 2, 4, 4, 1, 2, 5, 1, na},
	}
	var checks []gavel.LabelCheck
	for u, judged := range coders["judge"] {
		for _, person := range []string{"B", "C", "D"} {
			v := coders[person][u]
			if v == na {
				continue
			}
			c := gavel.LabelCheck{CaseID: fmt.Sprint("unit-", u+1), Trial: 1, Status: judge.StatusPass, ModelJudged: true,
				JudgeCategory: fmt.Sprint(judged), HumanCategory: fmt.Sprint(v), Author: person}
			if judged == na { // the judge abstained
				c.Status, c.JudgeCategory = judge.StatusAbstain, ""
			}
			checks = append(checks, c)
		}
	}
	c := gavel.Calibrate(checks)
	if c.AlphaRaters != 4 || c.AlphaUnits != 11 || len(c.Alpha) != 3 {
		t.Fatalf("alpha of %d raters, %d units: %+v; want 4, 11, nominal, ordinal and interval", c.AlphaRaters, c.AlphaUnits, c.Alpha)
	}
	for i, want := range []struct {
		kind  string
		alpha float64
	}{{"nominal", 0.7434210526315791}, {"ordinal", 0.8153875037548814}, {"interval", 0.8491071428571428}} {
		a := c.Alpha[i]
		if a.Kind != want.kind || a.Value == nil || math.Abs(*a.Value-want.alpha) > 1e-12 {
			t.Errorf("alpha %d: %+v, want %s %v", i, a, want.kind, want.alpha)
		}
		// 11 units are too few for a bootstrap interval
		if a.Interval != nil || a.NoInterval != "fewer than 20 items, too few for an interval" {
			t.Errorf("alpha %s: interval %+v, %q; want none, too few", a.Kind, a.Interval, a.NoInterval)
		}
	}
	// Twice the units (the same data again) are enough, and the same
	// labels give the same intervals.
	twice := append([]gavel.LabelCheck(nil), checks...)
	for _, ch := range checks {
		ch.CaseID += "-again"
		twice = append(twice, ch)
	}
	c = gavel.Calibrate(twice)
	for _, a := range c.Alpha {
		if a.Value == nil || a.Interval == nil || !a.Interval.Contains(*a.Value) || a.Interval.Level != gavel.AgreementLevel || a.NoInterval != "" {
			t.Errorf("alpha %s of 22 units: %v, interval %+v (%s)", a.Kind, a.Value, a.Interval, a.NoInterval)
		}
	}
	if again := gavel.Calibrate(twice); *again.Alpha[0].Interval != *c.Alpha[0].Interval {
		t.Errorf("intervals %+v, then %+v", c.Alpha[0].Interval, again.Alpha[0].Interval)
	}
}

// Alpha needs more than two raters, and something to agree on: with one
// category only it is absent, and says why.
func TestCalibrateAlphaAbsent(t *testing.T) {
	one := append(cat(3, "pass", "pass"), cat(2, "fail", "pass")...)
	if c := gavel.Calibrate(one); c.Alpha != nil {
		t.Errorf("the judge and one person: alpha %+v, want none", c.Alpha)
	}
	same := cat(4, "pass", "pass")
	for _, ch := range cat(4, "pass", "pass") {
		ch.Author = "grace"
		same = append(same, ch)
	}
	c := gavel.Calibrate(same)
	if len(c.Alpha) != 1 || c.Alpha[0].Value != nil || c.Alpha[0].Absent != stats.ErrOneCategory.Error() || c.AlphaRaters != 3 {
		t.Errorf("alpha %+v of %d raters; want nominal, absent: %s", c.Alpha, c.AlphaRaters, stats.ErrOneCategory)
	}
}
