package main

import (
	"context"
	"encoding/json"
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
