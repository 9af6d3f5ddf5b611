package web

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"net/http"
	"strings"
	"testing"

	"github.com/gavelhq/gavel"
	"github.com/gavelhq/gavel/judge"
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
		// kappa (0.5 - 0.375) / 0.625; alpha of the judge, local and ada
		// over three judgments ([pass, pass, pass], [fail, pass], [warm,
		// cold]): 0.2 by alpha's definition written out in Python (stats'
		// TestKrippendorffAlpha); too few judgments for intervals
		"<dt>Cohen's kappa</dt><dd>0.20 (no interval: fewer than 20 items, too few for an interval)</dd>",
		"<dt>Krippendorff's alpha</dt><dd>nominal 0.20 (no interval: fewer than 20 items, too few for an interval); Krippendorff&#39;s, of the judge and 2 people at once over 3 judgments</dd>",
		`<table class="small confusion" id="confusion">`,
		`<th class="num">judge</th><th class="num">people</th><th class="num">agreement on it</th>`,
		// pass: the judge 2 of 4, people 3 of 4, specific 2·2/(2+3)
		`<tr><th>pass</th><td class="num">0</td><td class="num">0</td><td class="num">2</td><td class="num">0</td><td class="num">50%</td><td class="num">75%</td><td class="num">0.80</td></tr>`,
	)
	mustNotContain(t, "trends with labels", body, evil)

	var c report.JSONCalibration
	f.getJSON("/api/calibration?suite=support-desk", http.StatusOK, &c)
	if c.Suite != "support-desk" || c.Counted != 4 || c.Agreed != 2 || len(c.Disagreements) != 2 || c.Disagreements[0].Comment != evil || len(c.Raters) != 1 {
		t.Errorf("calibration %+v", c)
	}
	if len(c.Alpha) != 1 || c.Alpha[0].Kind != "nominal" || c.Alpha[0].Value == nil || math.Abs(*c.Alpha[0].Value-0.2) > 1e-12 || c.AlphaRaters != 3 ||
		len(c.Table.BaseRates) != 4 || c.Table.BaseRates[2] != (report.JSONBaseRate{Category: "pass", First: 0.5, Second: 0.75, Both: 0.625, Specific: 0.8}) ||
		c.KappaInterval != nil || c.NoKappaInterval != "fewer than 20 items, too few for an interval" {
		t.Errorf("alpha %+v of %d raters, base rates %+v, kappa interval %+v (%s)", c.Alpha, c.AlphaRaters, c.Table.BaseRates, c.KappaInterval, c.NoKappaInterval)
	}
}

// The trends page gives a numeric scale's weighted kappas and says when a
// skewed base rate makes kappa misleading.
func TestCalibrationView(t *testing.T) {
	checks := func(n int, judged, human, author string) []gavel.LabelCheck {
		var out []gavel.LabelCheck
		for i := range n {
			out = append(out, gavel.LabelCheck{CaseID: fmt.Sprint(judged, human, i), ModelJudged: true, Status: judge.StatusPass,
				JudgeCategory: judged, HumanCategory: human, Author: author})
		}
		return out
	}
	var scored []gavel.LabelCheck
	for _, p := range []struct {
		judged, human string
		n             int
	}{{"1", "1", 8}, {"1", "2", 2}, {"2", "2", 6}, {"2", "3", 2}, {"3", "3", 6}, {"3", "1", 1}} {
		scored = append(scored, checks(p.n, p.judged, p.human, "ada")...)
	}
	v := newCalibrationView("s", gavel.Calibrate(scored))
	if !strings.HasPrefix(v.Weighted, "linear ") || !strings.Contains(v.Weighted, ", quadratic ") || v.Warning != "" || v.Alpha != "" {
		t.Errorf("1..3: weighted %q, warning %q, alpha %q; want linear and quadratic, no warning, no alpha", v.Weighted, v.Warning, v.Alpha)
	}
	// 85 agree on pass, 5 on fail, 10 not: kappa 0.44 (stats.TestKappa's paradox)
	skewed := append(append(append(checks(85, "pass", "pass", "ada"), checks(5, "fail", "fail", "ada")...), checks(5, "pass", "fail", "ada")...), checks(5, "fail", "pass", "ada")...)
	v = newCalibrationView("s", gavel.Calibrate(skewed))
	if !strings.HasPrefix(v.Warning, "kappa is misleading here: pass is 90% of the ratings") || v.Weighted != "" || v.Table == nil ||
		fmt.Sprint(v.Table.Rows[0]) != fmt.Sprint(confusionRow{Category: "fail", Counts: []int{5, 5}, Judge: "10%", People: "10%", Specific: "0.50"}) {
		t.Errorf("skewed: warning %q, weighted %q, table %+v", v.Warning, v.Weighted, v.Table)
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
