package web

import (
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"github.com/gavelhq/gavel/report"
	"github.com/gavelhq/gavel/store"
)

// The trends page measures the suite's judges against people's labels
// and links each verdict they said was wrong; the API gives the same.
func TestCalibration(t *testing.T) {
	f := newFixture(t, Config{})
	_, body := f.get("/trends?suite=support-desk")
	mustContain(t, "trends without labels", body, "<h2>Judges against people</h2>", "too few labels", "No result of this suite is labelled yet")

	labels := "/api/runs/" + f.latest + "/cases/"
	f.sendJSON("POST", labels+"case_001/labels", `{"trial": 1, "verdict": "correct"}`, http.StatusCreated, nil)
	f.sendJSON("POST", labels+"case_002/labels", `{"trial": 1, "verdict": "wrong", "score": 0.9, "comment": "`+evil+`"}`, http.StatusCreated, nil)

	// ada labels the tone judge of case_001's jury, and its verdict: she
	// and local are compared on the verdict both labelled.
	for _, l := range []store.Label{
		{RunID: f.latest, CaseID: "case_001", Trial: 1, Judgment: "tiered/jury/tone", Category: "cold", Author: "ada"},
		{RunID: f.latest, CaseID: "case_001", Trial: 1, Category: "pass", Author: "ada"},
	} {
		if _, err := f.store.AddLabel(context.Background(), l); err != nil {
			t.Fatal(err)
		}
	}

	_, body = f.get("/trends?suite=support-desk")
	mustContain(t, "trends with labels", body,
		`<span class="unmet">too few labels (50% agreement over 4 labels; the bar is 85% over 50)</span>`,
		"<dt>Agreement</dt><dd>2 of 4 (50%)</dd>",
		"<dt>Between people</dt><dd>ada and local: 1 of 1 (100%), kappa - (every verdict and label was the same: chance explains it all)</dd>",
		"Judgments people disagreed with (2)",
		`<code>case_001#1 tiered/jury/tone</code></a>: the judge said warm; ada: cold`,
		`<a href="/runs/`+f.latest+`/cases/case_002#trial-1"><code>case_002#1</code></a>: the judge said FAIL`,
		"local: wrong, 0.90: &#34;&lt;script&gt;alert(1)&lt;/script&gt;&#34;",
	)
	mustNotContain(t, "trends with labels", body, evil)

	var c report.JSONCalibration
	f.getJSON("/api/calibration?suite=support-desk", http.StatusOK, &c)
	if c.Suite != "support-desk" || c.Counted != 4 || c.Agreed != 2 || len(c.Disagreements) != 2 || c.Disagreements[0].Comment != evil || len(c.Raters) != 1 {
		t.Errorf("calibration %+v", c)
	}
}

// Before any label counts, the trends page and the API give no
// agreement: "no label counted", null, never 0%.
func TestCalibrationWithoutLabels(t *testing.T) {
	f := newFixture(t, Config{})
	_, page := f.get("/trends?suite=support-desk")
	if !strings.Contains(page, "too few labels (no label counted; the bar is 85% over 50)") || strings.Contains(page, "0% agreement") {
		t.Errorf("the trends page's calibration gives an agreement of nothing:\n%s", page)
	}
	_, body := f.get("/api/calibration?suite=support-desk")
	var got map[string]json.RawMessage
	if err := json.Unmarshal([]byte(body), &got); err != nil || string(got["agreement"]) != "null" {
		t.Errorf("GET /api/calibration: agreement %s (%v), want null:\n%s", got["agreement"], err, body)
	}
}
