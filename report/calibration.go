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
	"github.com/gavelhq/gavel/stats"
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
	Kappa *float64 `json:"kappa"`
	// KappaInterval is kappa's bootstrap interval over the labels; null
	// without kappa, or when a resample has no kappa (table.kappa_interval).
	KappaInterval   *stats.Interval `json:"kappa_interval"`
	NoKappaInterval string          `json:"no_kappa_interval,omitempty"`
	// KappaWarning says why kappa is misleading here (the kappa paradox:
	// one category is most of the ratings); null when it is not.
	KappaWarning *string `json:"kappa_warning"`
	// WeightedKappa are the linear and quadratic weighted kappas of a
	// numeric scale of three categories or more (table.weighted_kappa);
	// empty on other scales.
	WeightedKappa []JSONCoefficient `json:"weighted_kappa"`
	// Alpha is Krippendorff's alpha of the judge and every person at once,
	// nominal and, on a numeric scale, ordinal and interval; empty with
	// two raters or fewer. AlphaRaters is how many raters it is of,
	// AlphaUnits how many judgments two of them or more rated.
	Alpha       []JSONCoefficient `json:"alpha"`
	AlphaRaters int               `json:"alpha_raters"`
	AlphaUnits  int               `json:"alpha_units"`
	Scored      int               `json:"scored"`
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
	// KappaInterval is kappa's percentile bootstrap interval over the
	// items, at level 0.95 (seeded: the same labels give the same
	// interval); null without kappa, or when kappa is undefined on a
	// resample (too few items of a category).
	KappaInterval *stats.Interval `json:"kappa_interval"`
	// NoKappaInterval says why there is no interval beside a kappa: fewer
	// than 20 items, or kappa undefined on a resample.
	NoKappaInterval string `json:"no_kappa_interval,omitempty"`
	// KappaWarning says why kappa is misleading (the kappa paradox: a
	// category at 80% or more of the ratings, 80% agreement or more, and
	// kappa under 0.6); null when it is not.
	KappaWarning *string `json:"kappa_warning"`
	// Ordinal is true when the categories are numbers.
	Ordinal bool `json:"ordinal"`
	// WeightedKappa are the linear and quadratic weighted kappas of an
	// ordinal scale of three categories or more; empty otherwise.
	WeightedKappa []JSONCoefficient `json:"weighted_kappa"`
	// BaseRates are, for each category in the order of Categories, the
	// share of the items each rater put in it and the agreement specific
	// to it.
	BaseRates []JSONBaseRate `json:"base_rates"`
}

// A JSONCoefficient is one measure of agreement (gavel.Coefficient): a
// weighted kappa, or Krippendorff's alpha with a metric.
type JSONCoefficient struct {
	// Kind is "linear" or "quadratic" (a weighted kappa); "nominal",
	// "ordinal" or "interval" (alpha's metric).
	Kind string `json:"kind"`
	// Value is null when the data give none; Absent then says why.
	Value  *float64 `json:"value"`
	Absent string   `json:"absent,omitempty"`
	// Interval is the percentile bootstrap interval over the items, at
	// 0.95; null without a value, and, NoInterval then saying why, with
	// fewer than 20 items or when a resample has none.
	Interval   *stats.Interval `json:"interval"`
	NoInterval string          `json:"no_interval,omitempty"`
}

// A JSONBaseRate is how often two raters used a category
// (gavel.BaseRate).
type JSONBaseRate struct {
	Category string `json:"category"`
	// First and Second are the shares of the items each rater (the judge
	// and the people, in a calibration's table) put in the category; Both,
	// the share of all their ratings.
	First  float64 `json:"first"`
	Second float64 `json:"second"`
	Both   float64 `json:"both"`
	// Specific is the agreement specific to the category: 2·agreed /
	// (row + column).
	Specific float64 `json:"specific"`
}

func newJSONCoefficients(cs []gavel.Coefficient) []JSONCoefficient {
	out := []JSONCoefficient{}
	for _, c := range cs {
		out = append(out, JSONCoefficient{Kind: c.Kind, Value: c.Value, Absent: c.Absent, Interval: c.Interval, NoInterval: c.NoInterval})
	}
	return out
}

// A JSONRaterAgreement is the agreement of two people.
type JSONRaterAgreement struct {
	First  string `json:"first"`
	Second string `json:"second"`
	JSONAgreement
}

func newJSONAgreement(a gavel.Agreement) JSONAgreement {
	out := JSONAgreement{Categories: a.Categories, Table: a.Table, Items: a.Items, Agreed: a.Agreed, Kappa: a.Kappa,
		KappaInterval: a.KappaInterval, NoKappaInterval: a.NoKappaInterval, Ordinal: a.Ordinal, WeightedKappa: newJSONCoefficients(a.Weighted), BaseRates: []JSONBaseRate{}}
	for _, r := range a.BaseRates {
		out.BaseRates = append(out.BaseRates, JSONBaseRate{Category: r.Category, First: r.First, Second: r.Second, Both: r.Both, Specific: r.Specific})
	}
	if w := KappaWarning(a); w != "" {
		out.KappaWarning = &w
	}
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
		Disagreements: make([]JSONLabelCheck, len(c.Disagreements)), Table: newJSONAgreement(c.Table), Raters: []JSONRaterAgreement{},
		Alpha: newJSONCoefficients(c.Alpha), AlphaRaters: c.AlphaRaters, AlphaUnits: c.AlphaUnits}
	out.KappaInterval, out.NoKappaInterval = out.Table.KappaInterval, out.Table.NoKappaInterval
	out.KappaWarning, out.WeightedKappa = out.Table.KappaWarning, out.Table.WeightedKappa
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
		if len(c.Alpha) > 0 {
			fmt.Fprintf(b, "\nAlpha:       %s\n", AlphaOf(c))
		}
		return
	}
	fmt.Fprintf(b, "Agreement:   %s\n", AgreementOf(c))
	fmt.Fprintf(b, "Kappa:       %s\n", KappaOf(c.Table))
	if len(c.Table.Weighted) > 0 {
		fmt.Fprintf(b, "Weighted:    %s: kappa with a near miss nearly agreement\n", Coefficients(c.Table.Weighted))
	}
	if len(c.Alpha) > 0 {
		fmt.Fprintf(b, "Alpha:       %s\n", AlphaOf(c))
	}
	if w := KappaWarning(c.Table); w != "" {
		fmt.Fprintf(b, "Warning:     %s\n", w)
	}
	if len(c.Table.Categories) > 1 {
		b.WriteString("\nJudge (rows) against people (columns), with each category's base rate and the agreement on it:\n")
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
	head = append(head, "judge", "people", "agreement on it")
	rows := [][]string{head}
	for i, c := range a.Categories {
		row := []string{oneLine(c)}
		for _, n := range a.Table[i] {
			row = append(row, strconv.Itoa(n))
		}
		r := a.BaseRates[i]
		row = append(row, percent(r.First), percent(r.Second), strconv.FormatFloat(r.Specific, 'f', 2, 64))
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
		fmt.Fprintf(b, "  %s\n", RaterLine(r))
	}
}

// RaterLine says how far two people agree: "ada and grace: 11 of 12
// (91.7%), kappa 0.80 (0.45 to 1.00)", and on a numeric scale their
// weighted kappas.
func RaterLine(r gavel.RaterAgreement) string {
	s := fmt.Sprintf("%s and %s: %d of %d (%s), kappa %s", oneLine(r.First), oneLine(r.Second), r.Agreed, r.Items, percent(r.Observed), Kappa(r.Kappa))
	if r.Kappa != nil && r.KappaInterval != nil {
		s += " (" + interval(r.KappaInterval) + ")"
	}
	if len(r.Weighted) > 0 {
		s += "; weighted " + Coefficients(r.Weighted)
	}
	return s
}

// KappaOf formats an agreement's kappa with its interval: "0.62 (95%
// interval 0.35 to 0.83)"; the reason when there is no kappa or no
// interval.
func KappaOf(a gavel.Agreement) string {
	switch {
	case a.Items == 0:
		return "- (no label gives a category: a bare \"wrong\" off a pass/fail scale says which category it is not)"
	case a.Kappa == nil:
		return Kappa(nil)
	case a.KappaInterval == nil:
		return Kappa(a.Kappa) + " (no interval: " + a.NoKappaInterval + ")"
	}
	return fmt.Sprintf("%s (%s interval %s)", Kappa(a.Kappa), percent(a.KappaInterval.Level), interval(a.KappaInterval))
}

// interval formats a coefficient's interval: "0.35 to 0.83".
func interval(iv *stats.Interval) string {
	return strconv.FormatFloat(iv.Lo, 'f', 2, 64) + " to " + strconv.FormatFloat(iv.Hi, 'f', 2, 64)
}

// Coefficients formats measures of agreement with their intervals:
// "linear 0.69 (0.53 to 0.82), quadratic 0.84 (0.71 to 0.93)"; one
// without a value says why ("nominal - (every rating was the same...)"),
// one without an interval says "no interval".
func Coefficients(cs []gavel.Coefficient) string {
	var parts []string
	for _, c := range cs {
		switch {
		case c.Value == nil:
			parts = append(parts, fmt.Sprintf("%s - (%s)", c.Kind, c.Absent))
		case c.Interval == nil:
			parts = append(parts, fmt.Sprintf("%s %.2f (no interval: %s)", c.Kind, *c.Value, c.NoInterval))
		default:
			parts = append(parts, fmt.Sprintf("%s %.2f (%s)", c.Kind, *c.Value, interval(c.Interval)))
		}
	}
	return strings.Join(parts, ", ")
}

// AlphaOf formats a calibration's Krippendorff's alpha: "nominal 0.74
// (0.55 to 0.90); Krippendorff's, of the judge and 3 people over 11
// judgments".
func AlphaOf(c gavel.Calibration) string {
	people := c.AlphaRaters - 1
	of := fmt.Sprintf("the judge and %d people", people)
	if c.Counted == 0 { // the judge rated nothing
		of = fmt.Sprintf("%d people", c.AlphaRaters)
	}
	return fmt.Sprintf("%s; Krippendorff's, of %s at once over %d judgments", Coefficients(c.Alpha), of, c.AlphaUnits)
}

// KappaWarning says why an agreement's kappa is misleading, when it is
// (gavel.Agreement.Paradox): "kappa is misleading here: pass is 90% of
// the ratings, ..."; "" when it is not.
func KappaWarning(a gavel.Agreement) string {
	r, ok := a.Paradox()
	if !ok {
		return ""
	}
	return fmt.Sprintf("kappa is misleading here: %s is %s of the ratings, so chance alone would agree on %s; %s agreed, yet kappa is %s. Read the agreement on each category (the rarer ones' above all) and the table.",
		oneLine(r.Category), percent(r.Both), percent(a.Chance), percent(a.Observed), Kappa(a.Kappa))
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

// A JSONPeopleAgreement is how far people agree with each other on the
// judgments they labelled, the judge left out (gavel.AmongPeople): an
// annotation queue's agreement.
type JSONPeopleAgreement struct {
	// People is how many people labelled; Items, how many judgments two
	// of them or more labelled.
	People int `json:"people"`
	Items  int `json:"items"`
	// Pairs are every two people's agreement and Cohen's kappa.
	Pairs []JSONRaterAgreement `json:"pairs"`
	// Alpha is Krippendorff's alpha of them all, with three people or
	// more; empty else.
	Alpha []JSONCoefficient `json:"alpha"`
}

// NewJSONPeopleAgreement is the JSON of a.
func NewJSONPeopleAgreement(a gavel.PeopleAgreement) JSONPeopleAgreement {
	out := JSONPeopleAgreement{People: a.People, Items: a.Items, Pairs: []JSONRaterAgreement{}, Alpha: newJSONCoefficients(a.Alpha)}
	for _, r := range a.Pairs {
		out.Pairs = append(out.Pairs, JSONRaterAgreement{First: r.First, Second: r.Second, JSONAgreement: newJSONAgreement(r.Agreement)})
	}
	return out
}
