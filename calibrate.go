package gavel

import (
	"math"
	"time"

	"github.com/gavelhq/gavel/judge"
)

// Calibration: before a team trusts an LLM judge, people label some of
// its verdicts (the web app's labels: the verdict was correct or wrong,
// and perhaps their own score), and the judge's agreement with them is
// measured. A judge that agrees on at least CalibratedAgreement of at
// least CalibrationLabels labels is calibrated; below that, its verdicts
// are a guess to be read, not a gate to trust.

// The bar a judge must clear to be called calibrated: agreement with
// people on at least 85% of at least 50 labelled verdicts.
const (
	CalibrationLabels   = 50
	CalibratedAgreement = 0.85
)

// A LabelCheck is a person's label on a trial's verdict, beside that
// verdict: one data point of a calibration.
type LabelCheck struct {
	RunID, CaseID string
	Trial         int
	// Status and Score are the verdict's: its status, and its normalised
	// score (0..1) when it gave one that counts.
	Status judge.Status
	Score  *float64
	// ModelJudged is true when a model took part in the verdict (it cost
	// tokens): a verdict of deterministic rules alone, such as a forbidden
	// tool call, needs no calibration.
	ModelJudged bool
	// Correct is the person's word: the verdict was correct (true) or
	// wrong. HumanScore is their own score, 0..1, when they gave one.
	Correct    bool
	HumanScore *float64
	Author     string
	Comment    string
	Created    time.Time
}

// Counts reports whether the check counts in the agreement: only pass
// and fail verdicts a model took part in do. One that abstained or
// errored passed no judgment a person could agree with, and rules alone
// are not what a calibration measures.
func (c LabelCheck) Counts() bool {
	return c.ModelJudged && (c.Status == judge.StatusPass || c.Status == judge.StatusFail)
}

// HumanPassed is the verdict the person holds right: the judge's when
// they said it was correct, the other one when they said it was wrong.
func (c LabelCheck) HumanPassed() bool {
	return (c.Status == judge.StatusPass) == c.Correct
}

// A Calibration measures how far a judge's verdicts agree with people's
// labels (see Calibrate).
type Calibration struct {
	// Labels is every label given; Counted, those the agreement is
	// measured on: on pass or fail verdicts a model took part in (see
	// LabelCheck.Counts).
	Labels, Counted int
	// Agreed is how many of the counted labels said the verdict was
	// correct; Agreement is Agreed / Counted (0 when nothing counted).
	Agreed    int
	Agreement float64
	// Kappa is Cohen's kappa of the judge's and the people's pass or
	// fail: the agreement beyond what chance would give, from -1 to 1.
	// It is nil when chance explains everything (judge and people gave
	// one verdict only, such as every case passing).
	Kappa *float64
	// Scored is how many counted labels carry a person's score, and
	// ScoreError the mean absolute difference between it and the
	// judge's score, among those where the judge gave one.
	Scored     int
	ScoreError float64
	// Disagreements are the counted labels that said the verdict was
	// wrong, oldest first: the cases to read.
	Disagreements []LabelCheck
}

// Calibrate measures a judge's agreement with people from their labels.
func Calibrate(checks []LabelCheck) Calibration {
	c := Calibration{Labels: len(checks)}
	var judgePass, humanPass int
	var scoreDiffs float64
	for _, ch := range checks {
		if !ch.Counts() {
			continue
		}
		c.Counted++
		if ch.Correct {
			c.Agreed++
		} else {
			c.Disagreements = append(c.Disagreements, ch)
		}
		if ch.Status == judge.StatusPass {
			judgePass++
		}
		if ch.HumanPassed() {
			humanPass++
		}
		if ch.HumanScore != nil && ch.Score != nil {
			c.Scored++
			scoreDiffs += math.Abs(*ch.HumanScore - *ch.Score)
		}
	}
	if c.Counted == 0 {
		return c
	}
	n := float64(c.Counted)
	c.Agreement = float64(c.Agreed) / n
	if c.Scored > 0 {
		c.ScoreError = scoreDiffs / float64(c.Scored)
	}
	pj, ph := float64(judgePass)/n, float64(humanPass)/n
	chance := pj*ph + (1-pj)*(1-ph)
	if chance < 1 {
		k := (c.Agreement - chance) / (1 - chance)
		c.Kappa = &k
	}
	return c
}

// Calibrated reports whether the judge clears the bar: at least
// CalibratedAgreement over at least CalibrationLabels counted labels.
func (c Calibration) Calibrated() bool {
	return c.Counted >= CalibrationLabels && c.Agreement >= CalibratedAgreement
}

// Verdict says where the judge stands, in a few words: "calibrated",
// "not calibrated" (enough labels, too little agreement), or "too few
// labels" (fewer than CalibrationLabels counted).
func (c Calibration) Verdict() string {
	switch {
	case c.Counted < CalibrationLabels:
		return "too few labels"
	case c.Calibrated():
		return "calibrated"
	}
	return "not calibrated"
}
