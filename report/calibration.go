package report

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"strings"
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
	// Judgments is the file of an outside judge's outputs, when the
	// calibration was of those (gavel calibrate --judgments); "" else.
	Judgments string `json:"judgments,omitempty"`
	// Verdict is "calibrated", "not calibrated" or "too few labels".
	Verdict    string `json:"verdict"`
	Calibrated bool   `json:"calibrated"`
	// Target is the bar: an agreement of at least target.agreement over
	// at least target.labels counted labels.
	Target struct {
		Agreement float64 `json:"agreement"`
		Labels    int     `json:"labels"`
	} `json:"target"`
	Labels  int `json:"labels"`
	Counted int `json:"counted"`
	Agreed  int `json:"agreed"`
	// Agreement is null when no label counted.
	Agreement *float64 `json:"agreement"`
	// Kappa is null when chance explains every agreement.
	Kappa  *float64 `json:"kappa"`
	Scored int      `json:"scored"`
	// ScoreError is null when no counted label carries a person's score.
	ScoreError    *float64         `json:"score_error"`
	Disagreements []JSONLabelCheck `json:"disagreements"`
	// Table is the judge (rows) against the people (columns) over the
	// counted labels whose category is known.
	Table JSONAgreement `json:"table"`
	// Raters are the agreements of every two people who labelled the
	// same judgments.
	Raters []JSONRaterAgreement `json:"raters"`
}

// A JSONAgreement is the agreement of two raters (gavel.Agreement).
type JSONAgreement struct {
	// Categories name the rows (the first rater's) and columns (the
	// second's) of Table.
	Categories []string `json:"categories"`
	Table      [][]int  `json:"table"`
	Items      int      `json:"items"`
	Agreed     int      `json:"agreed"`
	// Observed and Chance are null without items: no agreement to tell.
	Observed *float64 `json:"observed"`
	Chance   *float64 `json:"chance"`
	// Kappa is null when chance explains every agreement.
	Kappa *float64 `json:"kappa"`
}

// A JSONRaterAgreement is the agreement of two people.
type JSONRaterAgreement struct {
	First  string `json:"first"`
	Second string `json:"second"`
	JSONAgreement
}

func newJSONAgreement(a gavel.Agreement) JSONAgreement {
	out := JSONAgreement{Categories: a.Categories, Table: a.Table, Items: a.Items, Agreed: a.Agreed, Kappa: a.Kappa}
	if a.Items > 0 {
		out.Observed, out.Chance = &a.Observed, &a.Chance
	}
	if out.Categories == nil {
		out.Categories, out.Table = []string{}, [][]int{}
	}
	return out
}

// A JSONLabelCheck is a label beside the verdict it judges.
type JSONLabelCheck struct {
	RunID string `json:"run_id"`
	Case  string `json:"case"`
	Trial int    `json:"trial"`
	// Judgment is the labelled judgment's path; "" for the verdict.
	Judgment string `json:"judgment,omitempty"`
	// Judged and Human are the judge's category and the person's ("" when
	// the person only said the judgment was wrong).
	Judged     string    `json:"judged"`
	Human      string    `json:"human"`
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
		Disagreements: make([]JSONLabelCheck, len(c.Disagreements)), Table: newJSONAgreement(c.Table), Raters: []JSONRaterAgreement{}}
	for _, r := range c.Raters {
		out.Raters = append(out.Raters, JSONRaterAgreement{First: r.First, Second: r.Second, JSONAgreement: newJSONAgreement(r.Agreement)})
	}
	out.Target.Agreement, out.Target.Labels = gavel.CalibratedAgreement, gavel.CalibrationLabels
	for i, d := range c.Disagreements {
		out.Disagreements[i] = JSONLabelCheck{RunID: d.RunID, Case: d.CaseID, Trial: d.Trial, Judgment: d.Judgment, Judged: d.Judged(), Human: d.Human(),
			Status: string(d.Status), Score: d.Score,
			Correct: d.Correct, HumanScore: d.HumanScore, Author: d.Author, Comment: d.Comment, Created: d.Created}
	}
	return out
}

// WriteCalibration writes c, the calibration of suite's judge against
// people's labels ("" for every suite), to w in format f: Text or JSON.
// Comments are people's words, written as they are, control characters
// dropped.
func WriteCalibration(w io.Writer, f Format, suite string, c gavel.Calibration) error {
	of := "every suite"
	if suite != "" {
		of = "suite " + oneLine(suite)
	}
	return writeCalibration(w, f, of, NewJSONCalibration(suite, c), c)
}

// WriteOutsideCalibration is WriteCalibration of an outside judge's
// outputs, read from the file judgments, against people's labels (gavel
// calibrate --judgments --labels): the JSON report's "judgments" names
// the file and its "suite" is "".
func WriteOutsideCalibration(w io.Writer, f Format, judgments string, c gavel.Calibration) error {
	j := NewJSONCalibration("", c)
	j.Judgments = judgments
	return writeCalibration(w, f, "the judgments of "+oneLine(judgments), j, c)
}

func writeCalibration(w io.Writer, f Format, of string, j JSONCalibration, c gavel.Calibration) error {
	var b bytes.Buffer
	switch f {
	case Text:
		writeCalibrationText(&b, of, c)
	case JSON:
		enc := json.NewEncoder(&b)
		enc.SetIndent("", "  ")
		enc.SetEscapeHTML(false)
		if err := enc.Encode(j); err != nil {
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

func writeCalibrationText(b *bytes.Buffer, of string, c gavel.Calibration) {
	fmt.Fprintf(b, "Judge calibration of %s: %s\n", of, CalibrationVerdict(c))
	fmt.Fprintf(b, "Labels:      %s on judgments, %d counted (those on judgments a model made that gave a category)\n", nLabels(c.Labels), c.Counted)
	if c.Counted == 0 {
		b.WriteString("\nLabel results a model judged in the web app (gavel serve), or import labels (gavel labels import):\neach label is the judgment's category (pass or fail, a score), or says whether it was correct.\n")
		writeRaters(b, c.Raters)
		return
	}
	fmt.Fprintf(b, "Agreement:   %s\n", AgreementOf(c))
	fmt.Fprintf(b, "Kappa:       %s\n", Kappa(c.Kappa))
	if len(c.Table.Categories) > 1 {
		b.WriteString("\nJudge (rows) against people (columns):\n")
		writeAgreement(b, c.Table)
	}
	if c.ScoreError != nil {
		fmt.Fprintf(b, "Scores:      %s with a person's score, off the judge's by %s on average\n", nLabels(c.Scored), score(*c.ScoreError))
	}
	writeRaters(b, c.Raters)
	if len(c.Disagreements) == 0 {
		return
	}
	fmt.Fprintf(b, "\nDisagreements (%d):\n", len(c.Disagreements))
	for _, d := range c.Disagreements {
		where := strings.TrimSpace(d.RunID + " " + oneLine(d.CaseID))
		if d.Trial > 0 {
			where += "#" + strconv.Itoa(d.Trial)
		}
		if d.Judgment != "" {
			where += " " + oneLine(d.Judgment)
		}
		fmt.Fprintf(b, "  %s: %s\n", where, Disagreement(d))
	}
}

// writeAgreement writes an agreement's table, a row per category of the
// first rater, a column per category of the second.
func writeAgreement(b *bytes.Buffer, a gavel.Agreement) {
	head := []string{""}
	for _, c := range a.Categories {
		head = append(head, oneLine(c))
	}
	rows := [][]string{head}
	for i, c := range a.Categories {
		row := []string{oneLine(c)}
		for _, n := range a.Table[i] {
			row = append(row, strconv.Itoa(n))
		}
		rows = append(rows, row)
	}
	writeTable(b, rows)
}

// writeRaters writes the agreement of every two people.
func writeRaters(b *bytes.Buffer, raters []gavel.RaterAgreement) {
	if len(raters) == 0 {
		return
	}
	b.WriteString("\nBetween people (on the judgments both labelled):\n")
	for _, r := range raters {
		fmt.Fprintf(b, "  %s and %s: %d of %d (%s), kappa %s\n", oneLine(r.First), oneLine(r.Second), r.Agreed, r.Items, percent(r.Observed), Kappa(r.Kappa))
	}
}

// CalibrationVerdict says where a judge stands against the bar, in a
// sentence: "calibrated (92% agreement over 60 labels; the bar is 85%
// over 50)", or, when no label counted, "too few labels (no label
// counted; the bar is 85% over 50)": no agreement, rather than 0%.
func CalibrationVerdict(c gavel.Calibration) string {
	measured := "no label counted"
	if c.Agreement != nil {
		measured = fmt.Sprintf("%s agreement over %s", percent(*c.Agreement), nLabels(c.Counted))
	}
	return fmt.Sprintf("%s (%s; the bar is %s over %d)",
		c.Verdict(), measured, percent(gavel.CalibratedAgreement), gavel.CalibrationLabels)
}

// AgreementOf says how many counted labels agreed with the judge: "11 of
// 12 (91.7%)"; "none counted" when no label counted.
func AgreementOf(c gavel.Calibration) string {
	if c.Agreement == nil {
		return "none counted"
	}
	return fmt.Sprintf("%d of %d (%s)", c.Agreed, c.Counted, percent(*c.Agreement))
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
	if c := d.Judged(); d.JudgeCategory != "" && !strings.EqualFold(c, string(d.Status)) {
		judged = c
	}
	person := "wrong"
	if h := d.Human(); d.HumanCategory != "" {
		person = h
	}
	if d.HumanScore != nil {
		person += ", " + score(*d.HumanScore)
	}
	s := fmt.Sprintf("the judge said %s; %s: %s", judged, oneLine(d.Author), person)
	if d.Comment != "" {
		s += fmt.Sprintf(": %q", oneLine(d.Comment))
	}
	return s
}
