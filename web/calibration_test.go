package web

import (
	"net/http"
	"testing"

	"github.com/gavelhq/gavel/report"
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

	_, body = f.get("/trends?suite=support-desk")
	mustContain(t, "trends with labels", body,
		`<span class="unmet">too few labels (50% agreement over 2 labels; the bar is 85% over 50)</span>`,
		"<dt>Agreement</dt><dd>1 of 2 (50%)</dd>",
		"Verdicts people said were wrong (1)",
		`<a href="/runs/`+f.latest+`/cases/case_002#trial-1"><code>case_002#1</code></a>: the judge said FAIL`,
		"local: wrong, 0.90: &#34;&lt;script&gt;alert(1)&lt;/script&gt;&#34;",
	)
	mustNotContain(t, "trends with labels", body, evil)

	var c report.JSONCalibration
	f.getJSON("/api/calibration?suite=support-desk", http.StatusOK, &c)
	if c.Suite != "support-desk" || c.Counted != 2 || c.Agreed != 1 || len(c.Disagreements) != 1 || c.Disagreements[0].Comment != evil {
		t.Errorf("calibration %+v", c)
	}
}
