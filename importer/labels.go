package importer

import (
	"bufio"
	"bytes"
	"encoding/csv"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/gavelhq/gavel"
	"github.com/gavelhq/gavel/store"
)

// Label files (docs/labels.md): labels moved in and out of the results
// database (gavel labels export and import), and the judge outputs and
// people's labels of an outside data set (gavel calibrate --judgments
// --labels). Each is CSV with a header row, or JSON Lines (an object a
// line), chosen by the file's extension: .csv, else JSON Lines.

// A labelRow is one row of a label file: its fields by name, and the line
// it is on.
type labelRow struct {
	line   int
	fields map[string]string
}

// A fileError is a mistake in a label file, where it is.
type fileError struct {
	file string
	line int
	msg  string
}

func (e *fileError) Error() string {
	if e.line == 0 {
		return e.file + ": " + e.msg
	}
	return fmt.Sprintf("%s:%d: %s", e.file, e.line, e.msg)
}

// isCSV reports whether a label file is CSV (by its extension).
func isCSV(name string) bool { return strings.EqualFold(filepath.Ext(name), ".csv") }

// readRecords reads a label file whose rows may have the fields allowed
// and must have those required.
func readRecords(name string, allowed, required []string) ([]labelRow, error) {
	data, err := os.ReadFile(name)
	if err != nil {
		return nil, err
	}
	var recs []labelRow
	if isCSV(name) {
		recs, err = csvRecords(name, data)
	} else {
		recs, err = jsonlRecords(name, data)
	}
	if err != nil {
		return nil, err
	}
	for _, r := range recs {
		for f := range r.fields {
			if !slices.Contains(allowed, f) {
				return nil, &fileError{name, r.line, fmt.Sprintf("unknown field %q: the fields are %s", f, strings.Join(allowed, ", "))}
			}
		}
		for _, f := range required {
			if strings.TrimSpace(r.fields[f]) == "" {
				return nil, &fileError{name, r.line, fmt.Sprintf("no %s: every row gives one", f)}
			}
		}
	}
	return recs, nil
}

func csvRecords(name string, data []byte) ([]labelRow, error) {
	r := csv.NewReader(bytes.NewReader(data))
	r.FieldsPerRecord = -1
	header, err := r.Read()
	if errors.Is(err, io.EOF) {
		return nil, nil
	}
	if err != nil {
		return nil, csvError(name, err)
	}
	for i := range header {
		header[i] = strings.TrimSpace(strings.TrimPrefix(header[i], "\ufeff"))
	}
	var out []labelRow
	for {
		row, err := r.Read()
		if errors.Is(err, io.EOF) {
			return out, nil
		}
		if err != nil {
			return nil, csvError(name, err)
		}
		line, _ := r.FieldPos(0)
		if len(row) != len(header) {
			return nil, &fileError{name, line, fmt.Sprintf("%d fields, but the header has %d", len(row), len(header))}
		}
		rec := labelRow{line: line, fields: map[string]string{}}
		for i, v := range row {
			rec.fields[header[i]] = v
		}
		out = append(out, rec)
	}
}

func csvError(name string, err error) error {
	var pe *csv.ParseError
	if errors.As(err, &pe) {
		return &fileError{name, pe.Line, pe.Err.Error()}
	}
	return fmt.Errorf("%s: %w", name, err)
}

func jsonlRecords(name string, data []byte) ([]labelRow, error) {
	var out []labelRow
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 0, 64*1024), 16<<20)
	for n := 1; sc.Scan(); n++ {
		text := bytes.TrimSpace(sc.Bytes())
		if len(text) == 0 {
			continue
		}
		dec := json.NewDecoder(bytes.NewReader(text))
		dec.UseNumber()
		var obj map[string]any
		if err := dec.Decode(&obj); err != nil || dec.More() {
			if err == nil {
				err = errors.New("more after the object")
			}
			return nil, &fileError{name, n, "not a JSON object: " + err.Error()}
		}
		rec := labelRow{line: n, fields: map[string]string{}}
		for k, v := range obj {
			switch v := v.(type) {
			case nil:
			case string:
				rec.fields[k] = v
			case json.Number:
				rec.fields[k] = v.String()
			case bool:
				rec.fields[k] = strconv.FormatBool(v)
			default:
				return nil, &fileError{name, n, fmt.Sprintf("field %q is not a string, number or boolean", k)}
			}
		}
		out = append(out, rec)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	return out, nil
}

// onePerPerson refuses a person's second label on one judgment in a
// file, whether it says the same or not: which of the two they meant is
// not known, and counted twice it would weigh double. Every label file is
// read so (gavel labels import, gavel calibrate --labels); a label that
// comes later, in another file or from the web app, replaces the
// person's label in the database, as relabelling does.
type onePerPerson map[[2]string]int

// add notes that person labelled what (words naming the judgment) on a
// file's line, or says where they did before.
func (seen onePerPerson) add(file string, line int, what, person string) error {
	key := [2]string{what, person}
	if first, ok := seen[key]; ok {
		return &fileError{file, line, fmt.Sprintf("%s is labelled twice by %q (first at line %d): keep one label per person", what, person, first)}
	}
	seen[key] = line
	return nil
}

// The fields of a file of labels of the results database.
var labelFields = []string{"run", "case", "trial", "judgment", "author", "category", "verdict", "score", "comment", "created"}

// ReadLabels reads a file of labels for the results database, with
// the line of each.
func ReadLabels(name string) ([]store.Label, []int, error) {
	recs, err := readRecords(name, labelFields, []string{"run", "case", "trial"})
	if err != nil {
		return nil, nil, err
	}
	var labels []store.Label
	var lines []int
	seen := onePerPerson{}
	for _, r := range recs {
		f := r.fields
		bad := func(format string, args ...any) error { return &fileError{name, r.line, fmt.Sprintf(format, args...)} }
		l := store.Label{RunID: strings.TrimSpace(f["run"]), CaseID: strings.TrimSpace(f["case"]), Judgment: strings.TrimSpace(f["judgment"]),
			Author: strings.TrimSpace(f["author"]), Category: strings.TrimSpace(f["category"]), Verdict: strings.TrimSpace(f["verdict"]), Comment: f["comment"]}
		if l.Trial, err = strconv.Atoi(strings.TrimSpace(f["trial"])); err != nil || l.Trial < 1 {
			return nil, nil, bad("trial %q is not a trial's number (1, 2, ...)", f["trial"])
		}
		what := fmt.Sprintf("the verdict of %s %s#%d", l.RunID, l.CaseID, l.Trial)
		if l.Judgment != "" {
			what = fmt.Sprintf("judgment %q of %s %s#%d", l.Judgment, l.RunID, l.CaseID, l.Trial)
		}
		if err := seen.add(name, r.line, what, l.Author); err != nil {
			return nil, nil, err
		}
		switch {
		case l.Category == "" && l.Verdict == "":
			return nil, nil, bad("no category and no verdict: give the judgment's category (pass, fail, a score) or a verdict (correct or wrong)")
		case l.Category != "" && l.Verdict != "":
			return nil, nil, bad("both a category (%q) and a verdict (%q): give one", l.Category, l.Verdict)
		case l.Verdict != "" && l.Verdict != "correct" && l.Verdict != "wrong":
			return nil, nil, bad("verdict %q is not correct or wrong", l.Verdict)
		}
		if s := strings.TrimSpace(f["score"]); s != "" {
			v, err := strconv.ParseFloat(s, 64)
			if err != nil || v < 0 || v > 1 {
				return nil, nil, bad("score %q is not a number from 0 to 1", s)
			}
			l.Score = &v
		}
		if c := strings.TrimSpace(f["created"]); c != "" {
			if l.Created, err = time.Parse(time.RFC3339Nano, c); err != nil {
				return nil, nil, bad("created %q is not a time like 2026-11-25T10:00:00Z", c)
			}
		}
		labels = append(labels, l)
		lines = append(lines, r.line)
	}
	return labels, lines, nil
}

// WriteLabels writes labels (from LabelChecks) as CSV or JSON Lines.
func WriteLabels(w io.Writer, csvFormat bool, checks []gavel.LabelCheck) error {
	rows := make([]map[string]any, len(checks))
	for i, c := range checks {
		row := map[string]any{"run": c.RunID, "case": c.CaseID, "trial": c.Trial, "judgment": c.Judgment, "author": c.Author,
			"category": c.HumanCategory, "verdict": "", "score": nil, "comment": c.Comment, "created": c.Created.UTC().Format(time.RFC3339Nano)}
		if c.HumanCategory == "" {
			row["verdict"] = map[bool]string{true: "correct", false: "wrong"}[c.Correct]
		}
		if c.HumanScore != nil {
			row["score"] = *c.HumanScore
		}
		rows[i] = row
	}
	if !csvFormat {
		enc := json.NewEncoder(w)
		enc.SetEscapeHTML(false)
		for _, row := range rows {
			// A map's keys are written sorted; write the fields in order.
			var b bytes.Buffer
			b.WriteByte('{')
			for i, f := range labelFields {
				if i > 0 {
					b.WriteByte(',')
				}
				k, _ := json.Marshal(f)
				v, err := json.Marshal(row[f])
				if err != nil {
					return err
				}
				b.Write(k)
				b.WriteByte(':')
				b.Write(v)
			}
			b.WriteString("}\n")
			if _, err := w.Write(b.Bytes()); err != nil {
				return err
			}
		}
		return nil
	}
	cw := csv.NewWriter(w)
	if err := cw.Write(labelFields); err != nil {
		return err
	}
	for _, row := range rows {
		out := make([]string, len(labelFields))
		for i, f := range labelFields {
			switch v := row[f].(type) {
			case nil:
			case string:
				out[i] = v
			case int:
				out[i] = strconv.Itoa(v)
			case float64:
				out[i] = strconv.FormatFloat(v, 'f', -1, 64)
			}
		}
		if err := cw.Write(out); err != nil {
			return err
		}
	}
	cw.Flush()
	return cw.Error()
}

// passFail reports whether a (normal) category is pass or fail. An
// outside judgment's scale is known only so far: the judge that said
// pass or fail of an item judged it on the pass/fail scale; one that said
// A may have had a tie to give, or not.
func passFail(category string) bool {
	return category == gavel.CategoryPass || category == gavel.CategoryFail
}

// ExternalChecks reads an outside data set: a judge's output per item
// (judgments: item, label, and perhaps score, 0..1) and people's labels
// (labels: item, rater, label), and pairs them as label checks, one per
// label, the item as the check's case.
func ExternalChecks(judgmentsFile, labelsFile string) ([]gavel.LabelCheck, error) {
	jrecs, err := readRecords(judgmentsFile, []string{"item", "label", "score", "reasoning"}, []string{"item", "label"})
	if err != nil {
		return nil, err
	}
	type judged struct {
		category string
		score    *float64
		line     int
	}
	judgments := map[string]judged{}
	for _, r := range jrecs {
		item := strings.TrimSpace(r.fields["item"])
		if prev, ok := judgments[item]; ok {
			return nil, &fileError{judgmentsFile, r.line, fmt.Sprintf("item %q is judged twice (first at line %d)", item, prev.line)}
		}
		j := judged{category: gavel.NormalCategory(r.fields["label"]), line: r.line}
		if s := strings.TrimSpace(r.fields["score"]); s != "" {
			v, err := strconv.ParseFloat(s, 64)
			if err != nil || v < 0 || v > 1 {
				return nil, &fileError{judgmentsFile, r.line, fmt.Sprintf("score %q is not a number from 0 to 1", s)}
			}
			j.score = &v
		}
		judgments[item] = j
	}
	lrecs, err := readRecords(labelsFile, []string{"item", "rater", "label", "score", "comment"}, []string{"item", "rater", "label"})
	if err != nil {
		return nil, err
	}
	var checks []gavel.LabelCheck
	seen := onePerPerson{}
	for _, r := range lrecs {
		item, rater := strings.TrimSpace(r.fields["item"]), strings.TrimSpace(r.fields["rater"])
		j, ok := judgments[item]
		if !ok {
			return nil, &fileError{labelsFile, r.line, fmt.Sprintf("item %q has no judgment in %s", item, judgmentsFile)}
		}
		if err := seen.add(labelsFile, r.line, fmt.Sprintf("item %q", item), rater); err != nil {
			return nil, err
		}
		c := gavel.LabelCheck{CaseID: item, ModelJudged: true, JudgeCategory: j.category, Score: j.score,
			HumanCategory: gavel.NormalCategory(r.fields["label"]), Author: rater, Comment: r.fields["comment"]}
		if passFail(c.JudgeCategory) && !passFail(c.HumanCategory) {
			return nil, &fileError{labelsFile, r.line, fmt.Sprintf("item %q: %q is not a category of a pass/fail judgment (the judge said %s): pass or fail",
				item, strings.TrimSpace(r.fields["label"]), c.JudgeCategory)}
		}
		if s := strings.TrimSpace(r.fields["score"]); s != "" {
			v, err := strconv.ParseFloat(s, 64)
			if err != nil || v < 0 || v > 1 {
				return nil, &fileError{labelsFile, r.line, fmt.Sprintf("score %q is not a number from 0 to 1", s)}
			}
			c.HumanScore = &v
		}
		checks = append(checks, c)
	}
	return checks, nil
}
