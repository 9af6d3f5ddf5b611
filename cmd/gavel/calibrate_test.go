package main

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/gavelhq/gavel/eval"
	"github.com/gavelhq/gavel/report"
	"github.com/gavelhq/gavel/store"
	"github.com/gavelhq/gavel/store/sqlite"
)

// Labels given on a stored run make a calibration: the agreement, and the
// verdicts people said were wrong. Only verdicts a model took part in
// count: greeting fails by a rule alone.
func TestCalibrate(t *testing.T) {
	dir, db := starterSuite(t)
	id := savedRun(t, eval.ExitFailed, "--db", db, dir) // greeting fails, returns_policy passes

	code, out, _ := gavelCmd(t, "calibrate", "--db", db)
	if code != eval.ExitPassed || !strings.Contains(out, "Labels:      0 labels on judgments") || !strings.Contains(out, "Label results a model judged in the web app") {
		t.Errorf("no labels yet: exit %d\n%s", code, out)
	}

	st, err := sqlite.Open(db)
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range []store.Label{
		{RunID: id, CaseID: "greeting", Trial: 1, Verdict: "wrong", Comment: "it did say goodbye", Author: "ada"},
		{RunID: id, CaseID: "returns_policy", Trial: 1, Verdict: "wrong", Comment: "it never gave the 30 days", Author: "ada"},
	} {
		if _, err := st.AddLabel(context.Background(), l); err != nil {
			t.Fatal(err)
		}
	}
	st.Close()

	code, out, _ = gavelCmd(t, "calibrate", "--db", db, "--suite", "my-agent")
	for _, want := range []string{
		"Judge calibration of suite my-agent: too few labels (0% agreement over 1 label; the bar is 85% over 50)",
		"Labels:      2 labels on judgments, 1 counted",
		"Agreement:   0 of 1 (0%)",
		"Disagreements (1):",
		id + ` returns_policy#1: the judge said PASS`, `ada: wrong: "it never gave the 30 days"`,
	} {
		if !strings.Contains(out, want) {
			t.Errorf("calibrate: no %q in\n%s", want, out)
		}
	}
	if code != eval.ExitPassed {
		t.Errorf("calibrate: exit %d, want %d", code, eval.ExitPassed)
	}
	if code, _, _ := gavelCmd(t, "calibrate", "--db", db, "--require"); code != eval.ExitFailed {
		t.Errorf("calibrate --require of an uncalibrated judge: exit %d, want %d", code, eval.ExitFailed)
	}

	code, out, _ = gavelCmd(t, "calibrate", "--db", db, "--suite", "my-agent", "--format", "json")
	var got report.JSONCalibration
	if err := json.Unmarshal([]byte(out), &got); err != nil || code != eval.ExitPassed {
		t.Fatalf("json: exit %d, %v\n%s", code, err, out)
	}
	if got.Kind != "calibration" || got.Labels != 2 || got.Counted != 1 || got.Agreed != 0 || got.Verdict != "too few labels" || len(got.Disagreements) != 1 {
		t.Errorf("json: %+v", got)
	}
	if code, _, errs := gavelCmd(t, "calibrate", "--db", db, "--format", "html"); code != eval.ExitUsage || !strings.Contains(errs, "want text or json") {
		t.Errorf("--format html: exit %d, %s", code, errs)
	}
}

// With no label counted there is no agreement to give: the calibration
// says so, never "0% agreement", and its JSON's agreement and score error
// are null. A suite the database has no run of is a mistake to name, not
// a judge without labels: exit 2, naming the suites there are.
func TestCalibrateWithoutCountedLabels(t *testing.T) {
	dir, db := starterSuite(t)
	savedRun(t, eval.ExitFailed, "--db", db, dir)

	code, out, errs := gavelCmd(t, "calibrate", "--db", db, "--suite", "my-agent")
	if code != eval.ExitPassed || !strings.Contains(out, "too few labels (no label counted; the bar is 85% over 50)") || strings.Contains(out, "0% agreement") {
		t.Errorf("calibrate without labels: exit %d, want no agreement at all:\n%s%s", code, out, errs)
	}
	code, out, errs = gavelCmd(t, "calibrate", "--db", db, "--format", "json")
	var got map[string]json.RawMessage
	if err := json.Unmarshal([]byte(out), &got); code != eval.ExitPassed || err != nil {
		t.Fatalf("calibrate --format json: exit %d, %v\n%s%s", code, err, out, errs)
	}
	for _, field := range []string{"agreement", "score_error"} {
		if v := string(got[field]); v != "null" {
			t.Errorf("%s = %s, want null", field, v)
		}
	}
	var table map[string]json.RawMessage
	json.Unmarshal(got["table"], &table)
	if observed, chance := string(table["observed"]), string(table["chance"]); observed != "null" || chance != "null" {
		t.Errorf("table of no item: observed %s, chance %s; want null", observed, chance)
	}

	code, out, errs = gavelCmd(t, "calibrate", "--db", db, "--suite", "nosuchsuite")
	if code != eval.ExitUsage || !strings.Contains(errs, `gavel calibrate: --suite nosuchsuite: the database has no run of that suite; the suites of its latest runs are: my-agent`) {
		t.Errorf("calibrate --suite nosuchsuite: exit %d, want %d and the suites there are:\n%s%s", code, eval.ExitUsage, out, errs)
	}
}

// gavel calibrate of a 1..10 criterion gives the weighted kappas, and
// with more than two raters Krippendorff's alpha, each with its interval;
// of a skewed pass/fail data set, the base rates and a warning that kappa
// misleads. The 30 scores are stats' TestKappa's; ada and grace label
// alike, so the judge-against-people table is ada's twice, and its kappas
// are sklearn's cohen_kappa_score(judge, ada, labels=range(1, 11),
// weights=None / "linear" / "quadratic"): 0.418, 0.694, 0.844 (Debian's
// python3-sklearn 1.2.1). Alpha of the judge, ada and grace is alpha's
// pairwise definition written out in Python (stats.TestKrippendorffAlpha):
// nominal 0.614, ordinal 0.905, interval 0.902.
func TestCalibrateWeightedKappaAndAlpha(t *testing.T) {
	files := t.TempDir()
	judged := []int{9, 7, 9, 6, 6, 5, 4, 4, 6, 10, 8, 6, 6, 6, 10, 10, 7, 5, 5, 5, 7, 10, 4, 9, 9, 8, 9, 4, 8, 10}
	ada := []int{9, 9, 9, 7, 3, 6, 4, 4, 3, 10, 10, 7, 6, 6, 9, 10, 7, 5, 6, 4, 8, 10, 4, 8, 6, 8, 10, 4, 9, 10}
	var judgments, labels strings.Builder
	labels.WriteString("item,rater,label\n")
	for i := range judged {
		fmt.Fprintf(&judgments, "{\"item\":\"q%d\",\"label\":\"%d\"}\n", i, judged[i])
		fmt.Fprintf(&labels, "q%d,ada,%d\nq%d,grace,%d\n", i, ada[i], i, ada[i])
	}
	jf, lf := write(t, files, "judge.jsonl", judgments.String()), write(t, files, "labels.csv", labels.String())
	code, out, errs := gavelCmd(t, "calibrate", "--judgments", jf, "--labels", lf)
	for _, want := range []string{
		"Kappa:       0.42 (95% interval ",
		"Weighted:    linear 0.69 (",
		", quadratic 0.84 (",
		"Alpha:       nominal 0.61 (",
		", ordinal 0.91 (",
		", interval 0.90 (",
		"; Krippendorff's, of the judge and 2 people at once over 30 judgments",
		"ada and grace: 30 of 30 (100%), kappa 1.00",
		"   | 3 | 4 | 5 | 6 | 7 | 8 | 9 | 10 | judge | people | agreement on it",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("no %q in\n%s%s", want, out, errs)
		}
	}
	if code != eval.ExitPassed {
		t.Errorf("exit %d", code)
	}
	code, out, _ = gavelCmd(t, "calibrate", "--judgments", jf, "--labels", lf, "--format", "json")
	var c report.JSONCalibration
	if err := json.Unmarshal([]byte(out), &c); err != nil || code != eval.ExitPassed {
		t.Fatalf("json: exit %d, %v\n%s", code, err, out)
	}
	near := func(got *float64, want float64) bool { return got != nil && math.Abs(*got-want) < 1e-12 }
	if len(c.WeightedKappa) != 2 || !near(c.WeightedKappa[0].Value, 0.6944198405668733) || !near(c.WeightedKappa[1].Value, 0.8442187860604662) ||
		c.WeightedKappa[0].Interval == nil || c.KappaInterval == nil || !c.Table.Ordinal {
		t.Errorf("weighted kappa %+v, kappa interval %+v, ordinal %v", c.WeightedKappa, c.KappaInterval, c.Table.Ordinal)
	}
	if len(c.Alpha) != 3 || c.AlphaRaters != 3 || c.AlphaUnits != 30 || !near(c.Alpha[0].Value, 0.6141618497109826) ||
		!near(c.Alpha[1].Value, 0.9053053217512435) || !near(c.Alpha[2].Value, 0.90150993507771) || c.Alpha[2].Interval == nil {
		t.Errorf("alpha %+v of %d raters, %d units", c.Alpha, c.AlphaRaters, c.AlphaUnits)
	}

	// The kappa paradox: pass/fail, 85 agree on pass, 5 on fail, 10 not;
	// kappa 0.44 (statsmodels' cohens_kappa([[85, 5], [5, 5]])).
	judgments.Reset()
	labels.Reset()
	labels.WriteString("item,rater,label\n")
	for i := range 100 {
		j, p := "pass", "pass"
		switch {
		case i >= 95:
			j, p = "fail", "fail"
		case i >= 90:
			j = "fail"
		case i >= 85:
			p = "fail"
		}
		fmt.Fprintf(&judgments, "{\"item\":\"q%d\",\"label\":%q}\n", i, j)
		fmt.Fprintf(&labels, "q%d,ada,%s\n", i, p)
	}
	jf, lf = write(t, files, "skewed.jsonl", judgments.String()), write(t, files, "skewed.csv", labels.String())
	_, out, errs = gavelCmd(t, "calibrate", "--judgments", jf, "--labels", lf)
	for _, want := range []string{
		"Kappa:       0.44 (95% interval ",
		"Warning:     kappa is misleading here: pass is 90% of the ratings, so chance alone would agree on 82%; 90% agreed, yet kappa is 0.44.",
		"fail | 5    | 5    | 10%   | 10%    | 0.50",
		"pass | 5    | 85   | 90%   | 90%    | 0.94",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("no %q in\n%s%s", want, out, errs)
		}
	}
	if strings.Contains(out, "Weighted:") || strings.Contains(out, "Alpha:") {
		t.Errorf("pass/fail of one person: no weighted kappa, no alpha, want neither in\n%s", out)
	}
}
