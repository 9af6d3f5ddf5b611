package main

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/gavelhq/gavel/report"
	"github.com/gavelhq/gavel/store"
	"github.com/gavelhq/gavel/store/sqlite"
)

// Labels given on a stored run make a calibration: the agreement, and the
// verdicts people said were wrong.
func TestCalibrate(t *testing.T) {
	dir, db := starterSuite(t)
	id := savedRun(t, exitFailed, "--db", db, dir) // greeting fails, returns_policy passes

	code, out, _ := gavelCmd(t, "calibrate", "--db", db)
	if code != exitPassed || !strings.Contains(out, "Labels:      0 labels on verdicts") || !strings.Contains(out, "Label judged results in the web app") {
		t.Errorf("no labels yet: exit %d\n%s", code, out)
	}

	st, err := sqlite.Open(db)
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range []store.Label{
		{RunID: id, CaseID: "greeting", Trial: 1, Verdict: "wrong", Comment: "it did say hello", Author: "ada"},
		{RunID: id, CaseID: "returns_policy", Trial: 1, Verdict: "correct", Author: "ada"},
	} {
		if _, err := st.AddLabel(context.Background(), l); err != nil {
			t.Fatal(err)
		}
	}
	st.Close()

	code, out, _ = gavelCmd(t, "calibrate", "--db", db, "--suite", "my-agent")
	for _, want := range []string{
		"Judge calibration of suite my-agent: too few labels (50% agreement over 2 labels; the bar is 85% over 50)",
		"Agreement:   1 of 2 (50%)",
		"Disagreements (1):",
		id + ` greeting#1: the judge said FAIL (0.00)`, `ada: wrong: "it did say hello"`,
	} {
		if !strings.Contains(out, want) {
			t.Errorf("calibrate: no %q in\n%s", want, out)
		}
	}
	if code != exitPassed {
		t.Errorf("calibrate: exit %d, want %d", code, exitPassed)
	}
	if code, _, _ := gavelCmd(t, "calibrate", "--db", db, "--require"); code != exitFailed {
		t.Errorf("calibrate --require of an uncalibrated judge: exit %d, want %d", code, exitFailed)
	}

	code, out, _ = gavelCmd(t, "calibrate", "--db", db, "--suite", "my-agent", "--format", "json")
	var got report.JSONCalibration
	if err := json.Unmarshal([]byte(out), &got); err != nil || code != exitPassed {
		t.Fatalf("json: exit %d, %v\n%s", code, err, out)
	}
	if got.Kind != "calibration" || got.Counted != 2 || got.Agreed != 1 || got.Verdict != "too few labels" || len(got.Disagreements) != 1 {
		t.Errorf("json: %+v", got)
	}
	if code, _, errs := gavelCmd(t, "calibrate", "--db", db, "--format", "html"); code != exitUsage || !strings.Contains(errs, "want text or json") {
		t.Errorf("--format html: exit %d, %s", code, errs)
	}
}
