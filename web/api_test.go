package web

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"github.com/gavelhq/gavel"
	"github.com/gavelhq/gavel/report"
	"github.com/gavelhq/gavel/store"
)

// getJSON serves a GET request, checks its status and that it is JSON,
// and decodes it into v.
func (f *fixture) getJSON(path string, status int, v any) string {
	f.t.Helper()
	res, body := f.get(path)
	if res.StatusCode != status {
		f.t.Fatalf("GET %s: status %d, want %d\n%s", path, res.StatusCode, status, shortBody(body))
	}
	if ct := res.Header.Get("Content-Type"); ct != "application/json; charset=utf-8" {
		f.t.Errorf("GET %s: Content-Type %q", path, ct)
	}
	dec := json.NewDecoder(strings.NewReader(body))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		f.t.Fatalf("GET %s: decoding %T: %v\n%s", path, v, err, shortBody(body))
	}
	return body
}

func TestAPIRuns(t *testing.T) {
	f := newFixture(t, Config{})
	var list RunList
	f.getJSON("/api/runs", http.StatusOK, &list)
	var ids []string
	for _, r := range list.Runs {
		ids = append(ids, r.ID)
	}
	if got, want := strings.Join(ids, " "), strings.Join([]string{f.running, f.hostile, f.latest, f.old, f.older}, " "); got != want {
		t.Errorf("runs %s, want %s", got, want)
	}
	if list.Next != "" {
		t.Errorf("next %q on the only page", list.Next)
	}
	latest := list.Runs[2]
	if latest.Suite != "support-desk" || latest.Status != store.Failed || latest.Threshold != 0.8 || latest.Cases != 5 ||
		rateOf(latest.PassRate) != 0.375 || latest.Ended == nil || latest.GitBranch != "fix/refunds" ||
		latest.Label != "shorter system prompt" || latest.Name != "shorter system prompt · fix/refunds@9c1e4f2a · by grace" || latest.Models["agent"] != "openai:gpt-5-mini" ||
		latest.Stats.Cases[gavel.Flaky] != 1 || latest.Links.Page != "/runs/"+f.latest || latest.Links.Report != "/api/runs/"+f.latest {
		t.Errorf("latest run: %+v", latest)
	}
	if r := list.Runs[0]; r.Ended != nil || r.Status != store.Running || r.Stats.Cases == nil || r.SoFar == nil || *r.SoFar != (store.Progress{Trials: 1, Cases: 1}) {
		t.Errorf("running run: ended %v, status %s, cases %v, so far %v; want 1 trial of 1 case so far", r.Ended, r.Status, r.Stats.Cases, r.SoFar)
	}
	if list.Runs[2].SoFar != nil {
		t.Errorf("a finished run counts %v so far, want none", list.Runs[2].SoFar)
	}

	// Paging, filtered.
	f.getJSON("/api/runs?suite=support-desk&limit=2", http.StatusOK, &list)
	if len(list.Runs) != 2 || list.Runs[0].ID != f.running || !strings.HasPrefix(list.Next, "/api/runs?") {
		t.Fatalf("first page: %d runs, next %q", len(list.Runs), list.Next)
	}
	next := list.Next
	list = RunList{}
	f.getJSON(next, http.StatusOK, &list)
	if len(list.Runs) != 2 || list.Runs[0].ID != f.old || list.Runs[1].ID != f.older || list.Next != "" {
		t.Errorf("second page (%s): %v, next %q", next, list.Runs, list.Next)
	}

	var info RunSummary
	f.getJSON("/api/runs/"+f.latest+"/info", http.StatusOK, &info)
	if info.ID != f.latest || info.CostUSD == 0 || len(info.Stats.Criteria) != 2 {
		t.Errorf("info: %+v", info)
	}
}

func TestAPIRun(t *testing.T) {
	f := newFixture(t, Config{Version: "1.2.3"})
	var rep report.JSONReport
	f.getJSON("/api/runs/"+f.latest, http.StatusOK, &rep)
	if rep.SchemaVersion != report.SchemaVersion || rep.GavelVersion != "1.2.3" || rep.Suite.Name != "support-desk" ||
		rep.Suite.Threshold != 0.8 || rep.Passed || len(rep.Cases) != 5 || rep.Suite.Models["judge"] != "anthropic:claude-sonnet-4-5" {
		t.Errorf("report: schema %d, version %q, suite %+v, passed %v, %d cases", rep.SchemaVersion, rep.GavelVersion, rep.Suite, rep.Passed, len(rep.Cases))
	}
	if c := rep.Cases[1]; c.ID != "case_002" || c.Outcome != gavel.Failed || len(c.Trials) != 2 || c.Trials[0].Transcript == nil ||
		len(c.Trials[0].Transcript.Turns) != 7 || len(c.Trials[0].Verdict.Parts) != 2 {
		t.Errorf("case_002: %+v", c)
	}

	var c report.JSONCase
	f.getJSON("/api/runs/"+f.latest+"/cases/orders%2Fcancel%204", http.StatusOK, &c)
	if c.ID != "orders/cancel 4" || c.Outcome != gavel.Errored || len(c.Trials) != 2 || c.Name != "Case orders/cancel 4" || c.PassRate == nil {
		t.Errorf("case: %+v", c)
	}

	// Text goes out as stored.
	var hostile report.JSONCase
	body := f.getJSON("/api/runs/"+f.hostile+"/cases/case_x", http.StatusOK, &hostile)
	if hostile.Trials[0].Transcript.FinalResponse != evil || !strings.Contains(body, evil) {
		t.Errorf("hostile final response %q", hostile.Trials[0].Transcript.FinalResponse)
	}
}

func TestAPITrends(t *testing.T) {
	f := newFixture(t, Config{})
	var tr Trend
	f.getJSON("/api/trends?suite=support-desk", http.StatusOK, &tr)
	if tr.Suite != "support-desk" || tr.Threshold != 0.8 || len(tr.Points) != 3 ||
		strings.Join(tr.Criteria, ",") != "helpfulness,tone" {
		t.Fatalf("trend: %+v", tr)
	}
	if p := tr.Points[0]; p.RunID != f.older || rateOf(p.PassRate) != 0.8 || p.Criteria["tone"] != 1 || p.CostUSD == 0 {
		t.Errorf("first point: %+v", p)
	}
	if p := tr.Points[2]; p.RunID != f.latest {
		t.Errorf("last point is %s, want the latest run %s", p.RunID, f.latest)
	}
	tr = Trend{}
	f.getJSON("/api/trends?suite=nope", http.StatusOK, &tr)
	if tr.Points == nil || tr.Criteria == nil || len(tr.Points) != 0 || tr.Threshold != 0 {
		t.Errorf("trend of an unknown suite: %+v", tr)
	}
}

func TestAPITrendsOfATag(t *testing.T) {
	f := newFixture(t, Config{})
	var tr Trend
	body := f.getJSON("/api/trends?suite=support-desk&tag=refunds", http.StatusOK, &tr)
	if tr.Suite != "support-desk" || tr.Tag != "refunds" || tr.Threshold != 0.8 || len(tr.Points) != 3 ||
		strings.Join(tr.Criteria, ",") != "helpfulness,tone" || !strings.Contains(body, `"refunds"`) {
		t.Fatalf("trend of refunds: %+v", tr)
	}
	// case_003, the only case tagged refunds, passed in the older runs
	// and was flaky in the latest.
	for i, want := range []struct {
		run      string
		passRate float64
	}{{f.older, 1}, {f.old, 1}, {f.latest, 0.5}} {
		if p := tr.Points[i]; p.RunID != want.run || rateOf(p.PassRate) != want.passRate || p.CostUSD == 0 || len(p.Criteria) == 0 {
			t.Errorf("point %d: %+v, want run %s with pass rate %v", i, p, want.run, want.passRate)
		}
	}
	var all Trend
	f.getJSON("/api/trends?suite=support-desk", http.StatusOK, &all)
	if all.Points[0].CostUSD <= tr.Points[0].CostUSD || rateOf(all.Points[2].PassRate) == rateOf(tr.Points[2].PassRate) {
		t.Errorf("the trend of a tag has the numbers of the whole suite: %+v", tr.Points)
	}

	// A hostile tag goes out as given; the case carrying it erred in the
	// latest run.
	tr = Trend{}
	f.getJSON("/api/trends?suite=support-desk&tag="+hostileTagQuery, http.StatusOK, &tr)
	if tr.Tag != hostileTag || len(tr.Points) != 3 || rateOf(tr.Points[2].PassRate) != 0 || rateOf(tr.Points[0].PassRate) != 1 {
		t.Errorf("trend of a hostile tag: %+v", tr)
	}

	tr = Trend{}
	f.getJSON("/api/trends?suite=support-desk&tag=nope", http.StatusOK, &tr)
	if tr.Tag != "nope" || tr.Points == nil || len(tr.Points) != 0 || tr.Threshold != 0 {
		t.Errorf("trend of an unknown tag: %+v", tr)
	}
}

func TestAPICompare(t *testing.T) {
	f := newFixture(t, Config{})
	var c report.JSONComparison
	f.getJSON("/api/compare?a="+f.old+"&b="+f.latest, http.StatusOK, &c)
	if c.Kind != "comparison" || !c.HasRegressions || c.Counts.Regressions != 2 || c.Regressions[0].ID != "case_002" ||
		c.Base.Label != f.old+" (nightly · main@5d7e765a · by ada)" || rateOf(c.Head.PassRate) != 0.375 {
		t.Errorf("comparison: %+v", c)
	}
}

func TestAPICases(t *testing.T) {
	f := newFixture(t, Config{})
	var list CaseList
	f.getJSON("/api/cases?suite=support-desk&q=REFUND", http.StatusOK, &list)
	if len(list.Cases) != 1 || list.Cases[0].ID != "case_003" || list.Cases[0].Version != 1 || list.Cases[0].Source != "cases.yaml:12" {
		t.Errorf("cases: %+v", list.Cases)
	}
	var h CaseHistory
	f.getJSON("/api/cases/support-desk/orders%2Fcancel%204", http.StatusOK, &h)
	if len(h.Versions) != 1 || !strings.Contains(h.Versions[0].Definition, "input: cancel order 4") {
		t.Errorf("history: %+v", h)
	}
}

func TestAPIErrors(t *testing.T) {
	f := newFixture(t, Config{})
	tests := []struct {
		method, path string
		status       int
		message      string
	}{
		{"GET", "/api/runs/20990101-000000-zzzz", 404, "no run 20990101-000000-zzzz"},
		{"GET", "/api/runs/20990101-000000-zzzz/info", 404, "no run 20990101-000000-zzzz"},
		{"GET", "/api/runs/" + f.latest + "/cases/nope", 404, "run " + f.latest + " has no case nope"},
		{"GET", "/api/cases/support-desk/nope", 404, "suite support-desk has no case nope"},
		{"GET", "/api/compare?a=" + f.latest, 400, "a and b: name the two runs to compare"},
		{"GET", "/api/compare?a=" + f.latest + "&b=nope", 404, "no run nope"},
		{"GET", "/api/trends", 400, "suite: name the suite"},
		{"GET", "/api/trends?suite=x&n=many", 400, `n "many"`},
		{"GET", "/api/runs?status=done", 400, `status "done"`},
		{"GET", "/api/runs?limit=0", 400, `limit "0": want a number from 1 to 500`},
		{"GET", "/api/nothing", 404, "no API route /api/nothing"},
		{"DELETE", "/api/runs/" + f.latest, 405, "DELETE is not allowed on /api/runs/" + f.latest},
	}
	for _, tt := range tests {
		res, body := f.do(tt.method, tt.path)
		var e struct {
			Error string `json:"error"`
		}
		if err := json.Unmarshal([]byte(body), &e); err != nil {
			t.Errorf("%s %s: not JSON: %v\n%s", tt.method, tt.path, err, body)
			continue
		}
		if res.StatusCode != tt.status || !strings.Contains(e.Error, tt.message) {
			t.Errorf("%s %s: %d %q, want %d and %q", tt.method, tt.path, res.StatusCode, e.Error, tt.status, tt.message)
		}
		if tt.status == 405 && res.Header.Get("Allow") != "GET, HEAD" {
			t.Errorf("%s %s: Allow %q", tt.method, tt.path, res.Header.Get("Allow"))
		}
	}
}
