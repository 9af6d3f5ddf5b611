package report

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"time"

	"github.com/gavelhq/gavel"
)

// CalibrationSchemaVersion is the version of the JSON calibration's
// schema, written as its "schema_version" beside "kind": "calibration".
const CalibrationSchemaVersion = 1

// A JSONCalibration is the JSON report of a judge's calibration against
// people's labels (gavel.Calibration), field for field.
type JSONCalibration struct {
	SchemaVersion int `json:"schema_version"`
	// Kind is "calibration".
	Kind string `json:"kind"`
	// Suite is the suite whose labels were counted; "" for every suite.
	Suite string `json:"suite"`
	// Verdict is "calibrated", "not calibrated" or "too few labels".
	Verdict    string `json:"verdict"`
	Calibrated bool   `json:"calibrated"`
	// Target is the bar: an agreement of at least target.agreement over
	// at least target.labels counted labels.
	Target struct {
		Agreement float64 `json:"agreement"`
		Labels    int     `json:"labels"`
	} `json:"target"`
	Labels    int     `json:"labels"`
	Counted   int     `json:"counted"`
	Agreed    int     `json:"agreed"`
	Agreement float64 `json:"agreement"`
	// Kappa is null when chance explains every agreement.
	Kappa         *float64         `json:"kappa"`
	Scored        int              `json:"scored"`
	ScoreError    float64          `json:"score_error"`
	Disagreements []JSONLabelCheck `json:"disagreements"`
}

// A JSONLabelCheck is a label beside the verdict it judges.
type JSONLabelCheck struct {
	RunID      string    `json:"run_id"`
	Case       string    `json:"case"`
	Trial      int       `json:"trial"`
	Status     string    `json:"status"`
	Score      *float64  `json:"score"`
	Correct    bool      `json:"correct"`
	HumanScore *float64  `json:"human_score"`
	Author     string    `json:"author"`
	Comment    string    `json:"comment"`
	Created    time.Time `json:"created"`
}

// NewJSONCalibration is the JSON report of c, the calibration of suite's
// judge ("" for every suite).
func NewJSONCalibration(suite string, c gavel.Calibration) JSONCalibration {
	out := JSONCalibration{SchemaVersion: CalibrationSchemaVersion, Kind: "calibration", Suite: suite,
		Verdict: c.Verdict(), Calibrated: c.Calibrated(), Labels: c.Labels, Counted: c.Counted, Agreed: c.Agreed,
		Agreement: c.Agreement, Kappa: c.Kappa, Scored: c.Scored, ScoreError: c.ScoreError,
		Disagreements: make([]JSONLabelCheck, len(c.Disagreements))}
	out.Target.Agreement, out.Target.Labels = gavel.CalibratedAgreement, gavel.CalibrationLabels
	for i, d := range c.Disagreements {
		out.Disagreements[i] = JSONLabelCheck{RunID: d.RunID, Case: d.CaseID, Trial: d.Trial, Status: string(d.Status), Score: d.Score,
			Correct: d.Correct, HumanScore: d.HumanScore, Author: d.Author, Comment: d.Comment, Created: d.Created}
	}
	return out
}

// WriteCalibration writes c, the calibration of suite's judge against
// people's labels ("" for every suite), to w in format f: Text or JSON.
// Comments are people's words, written as they are, control characters
// dropped.
func WriteCalibration(w io.Writer, f Format, suite string, c gavel.Calibration) error {
	var b bytes.Buffer
	switch f {
	case Text:
		writeCalibrationText(&b, suite, c)
	case JSON:
		enc := json.NewEncoder(&b)
		enc.SetIndent("", "  ")
		enc.SetEscapeHTML(false)
		if err := enc.Encode(NewJSONCalibration(suite, c)); err != nil {
			return fmt.Errorf("write json calibration: %w", err)
		}
	default:
		return fmt.Errorf("write calibration: no calibration report in format %q: want text or json", f)
	}
	if _, err := w.Write(b.Bytes()); err != nil {
		return fmt.Errorf("write %s calibration: %w", f, err)
	}
	return nil
}

func writeCalibrationText(b *bytes.Buffer, suite string, c gavel.Calibration) {
	of := "every suite"
	if suite != "" {
		of = "suite " + oneLine(suite)
	}
	fmt.Fprintf(b, "Judge calibration of %s: %s\n", of, CalibrationVerdict(c))
	fmt.Fprintf(b, "Labels:      %s on verdicts, %d counted (those on pass or fail verdicts a model took part in)\n", nLabels(c.Labels), c.Counted)
	if c.Counted == 0 {
		b.WriteString("\nLabel results a model judged in the web app (gavel serve): each label says whether the verdict was correct.\n")
		return
	}
	fmt.Fprintf(b, "Agreement:   %d of %d (%s)\n", c.Agreed, c.Counted, percent(c.Agreement))
	fmt.Fprintf(b, "Kappa:       %s\n", Kappa(c.Kappa))
	if c.Scored > 0 {
		fmt.Fprintf(b, "Scores:      %s with a person's score, off the judge's by %s on average\n", nLabels(c.Scored), score(c.ScoreError))
	}
	if len(c.Disagreements) == 0 {
		return
	}
	fmt.Fprintf(b, "\nDisagreements (%d):\n", len(c.Disagreements))
	for _, d := range c.Disagreements {
		fmt.Fprintf(b, "  %s %s#%d: %s\n", d.RunID, oneLine(d.CaseID), d.Trial, Disagreement(d))
	}
}

// CalibrationVerdict says where a judge stands against the bar, in a
// sentence: "calibrated (92% agreement over 60 labels; the bar is 85%
// over 50)".
func CalibrationVerdict(c gavel.Calibration) string {
	return fmt.Sprintf("%s (%s agreement over %s; the bar is %s over %d)",
		c.Verdict(), percent(c.Agreement), nLabels(c.Counted), percent(gavel.CalibratedAgreement), gavel.CalibrationLabels)
}

// nLabels says "1 label", "2 labels".
func nLabels(n int) string {
	if n == 1 {
		return "1 label"
	}
	return strconv.Itoa(n) + " labels"
}

// Kappa formats Cohen's kappa, "-" when there is none.
func Kappa(k *float64) string {
	if k == nil {
		return "- (every verdict and label was the same: chance explains it all)"
	}
	return strconv.FormatFloat(*k, 'f', 2, 64)
}

// Disagreement says what the judge said of a trial and what a person
// said of that: `the judge said PASS (0.90); ada: wrong, 0.20: "it never
// asked"`.
func Disagreement(d gavel.LabelCheck) string {
	judged := string(d.Status)
	if d.Score != nil {
		judged += " (" + score(*d.Score) + ")"
	}
	person := "wrong"
	if d.HumanScore != nil {
		person += ", " + score(*d.HumanScore)
	}
	s := fmt.Sprintf("the judge said %s; %s: %s", judged, oneLine(d.Author), person)
	if d.Comment != "" {
		s += fmt.Sprintf(": %q", oneLine(d.Comment))
	}
	return s
}
