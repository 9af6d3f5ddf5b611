package web

import (
	"errors"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gavelhq/gavel"
	"github.com/gavelhq/gavel/judge"
	"github.com/gavelhq/gavel/store"
	"github.com/gavelhq/gavel/store/sqlite"
)

// The runs list offers a button that starts a run, where the server runs
// suites; the form it leads to puts each field on its own line, its hint
// under it.
func TestStartRunButton(t *testing.T) {
	f := newFixture(t, Config{})
	get := func(srv *Server, path string) string {
		w := httptest.NewRecorder()
		srv.ServeHTTP(w, httptest.NewRequest("GET", path, nil))
		if w.Code != http.StatusOK {
			t.Fatalf("GET %s: %d", path, w.Code)
		}
		return w.Body.String()
	}
	launching := New(f.store, Config{Launcher: &fakeLauncher{}})
	mustContain(t, "the runs list", get(launching, "/runs"), `<a class="button" href="/runs/new">Start a run</a>`)
	mustContain(t, "the runs list of a suite", get(launching, "/runs?suite=support-desk"), `href="/runs/new?suite=support-desk">Start a run</a>`)
	mustNotContain(t, "the runs list of a server that runs no suites", get(New(f.store, Config{}), "/runs"), "/runs/new")

	form := get(launching, "/runs/new")
	mustContain(t, "the form", form, `<form class="launch-form"`,
		`<p class="hint" id="tags-hint">only cases with one of these tags; empty: all</p>`,
		`<p class="hint" id="ids-hint">only these case ids; empty: all</p>`)
	w := httptest.NewRecorder()
	launching.ServeHTTP(w, httptest.NewRequest("GET", "/static/gavel.css", nil))
	css := w.Body.String()
	mustContain(t, "the style sheet", css, "form.launch-form label { display: flex; flex-direction: column;",
		"form.launch-form .hint { display: block;")
	if strings.Contains(form, `class="muted">only`) {
		t.Error("the form's hints are still muted spans run on the field's line")
	}
}

// A run's page shows defaults as defaults: the values a run recorded are
// shown as they are, and the zeros of runs recorded before Gavel stored
// the values it used read as the suite's, else the runner's default.
func TestRunSettingsDefaults(t *testing.T) {
	f := newFixture(t, Config{})
	suite := &gavel.Suite{Name: "old", File: "old/gavel.yaml", Threshold: 1}
	info := func(settings map[string]string) store.RunInfo {
		return store.RunInfo{Suite: suite.Name, SuiteFile: suite.File, Threshold: 1, Started: base, Settings: settings}
	}
	old := f.save(info(map[string]string{"concurrency": "0", "timeout": "0s", "trials": "0"}),
		&gavel.Run{Suite: suite}, store.Passed)
	recorded := f.save(info(map[string]string{"concurrency": "4 (default)", "timeout": "90s", "trials": "2"}),
		&gavel.Run{Suite: suite}, store.Passed)

	_, page := f.get("/runs/" + old)
	settings := page[strings.Index(page, `<section class="settings">`):]
	mustContain(t, "an old run's settings", settings,
		"<th>concurrency</th><td>the suite&#39;s, else 4 (default)</td>",
		"<th>timeout</th><td>the suite&#39;s, else 5m (default)</td>",
		"<th>trials</th><td>each case&#39;s own, else the suite&#39;s, else 1 (default)</td>")
	mustNotContain(t, "an old run's settings", settings, "<td>0</td>", "<td>0s</td>")

	_, page = f.get("/runs/" + recorded)
	mustContain(t, "a run's recorded settings", page,
		"<th>concurrency</th><td>4 (default)</td>", "<th>timeout</th><td>90s</td>", "<th>trials</th><td>2</td>")
}

// A new case's suite is picked from the suites the server knows (its
// launcher's, and those the store holds), and a suite it does not know is
// refused, in the form and in the API, naming those it knows: a case of
// an unknown suite would never run.
func TestCaseSuiteKnown(t *testing.T) {
	f := newFixture(t, Config{})
	f.srv = New(f.store, Config{Launcher: &fakeLauncher{}})

	_, form := f.get("/cases/new")
	mustContain(t, "the new case form", form, `<select name="suite" required aria-describedby="suite-hint">`,
		`<option value="" selected>pick a suite</option>`,
		`<option value="support-desk">support-desk</option>`,                         // stored, and the launcher's
		`<option value="&lt;b&gt;other&lt;/b&gt;">&lt;b&gt;other&lt;/b&gt;</option>`, // the launcher's only
		`<option value="hostile&lt;u&gt;suite&lt;/u&gt;">`)                           // stored only
	mustNotContain(t, "the new case form", form, `<input name="suite"`)

	res, page := f.post("/cases", with(newCase(), "suite", "drfit"))
	if res.StatusCode != http.StatusUnprocessableEntity {
		t.Errorf("a case of suite drfit from the form: %d, want 422", res.StatusCode)
	}
	mustContain(t, "the form again", page, `This server knows no suite &#34;drfit&#34;`, `&#34;support-desk&#34;`,
		`<option value="drfit" selected>drfit (unknown)</option>`)

	var refused struct {
		Error    string            `json:"error"`
		Fields   map[string]string `json:"fields"`
		Problems []string          `json:"problems"`
	}
	f.sendJSON("POST", "/api/cases", strings.Replace(refundLate, `"support-desk"`, `"drfit"`, 1), http.StatusUnprocessableEntity, &refused)
	if got := refused.Fields["suite"]; !strings.Contains(got, `no suite "drfit"`) || !strings.Contains(got, `"support-desk"`) || !strings.Contains(got, `"<b>other</b>"`) {
		t.Errorf("POST /api/cases of suite drfit: fields.suite %q, want the suites known named", got)
	}
	versions, err := f.store.CaseHistory(t.Context(), "drfit", "refund_late")
	if !errors.Is(err, store.ErrNotFound) || len(versions) != 0 {
		t.Errorf("the refused case was stored: %v, %v", versions, err)
	}
	// A known suite is taken.
	f.sendJSON("POST", "/api/cases", refundLate, http.StatusCreated, nil)
	if res, _ := f.post("/cases", with(newCase(), "suite", "<b>other</b>")); res.StatusCode != http.StatusSeeOther {
		t.Errorf("a case of the launcher's suite from the form: %d, want 303", res.StatusCode)
	}

	// A server that knows no suite says how to give it one.
	empty := newFixtureEmpty(t)
	empty.sendJSON("POST", "/api/cases", refundLate, http.StatusUnprocessableEntity, &refused)
	mustContain(t, "a server that knows no suite", refused.Fields["suite"], "start gavel serve with its suite")
}

// newFixtureEmpty serves an empty store, with no launcher.
func newFixtureEmpty(t *testing.T) *fixture {
	t.Helper()
	st, err := sqlite.Open(filepath.Join(t.TempDir(), "gavel.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	return &fixture{t: t, store: st, srv: New(st, Config{})}
}

// A case's page shows each version's difference from the one before,
// the changed lines marked, and far unchanged lines folded.
func TestCaseVersionDiff(t *testing.T) {
	f := newFixture(t, Config{})
	ctx := t.Context()
	long := "id: late\nname: Late order\ninput: My order is late.\njudge_prompt: Apologizes.\ntags: [a]\nexpected_tools: [x]\n" +
		"judge_threshold: 0.7\ndescription: d\nturns: 1\nx1: 1\nx2: 2\nx3: 3\nx4: 4\n"
	for _, def := range []string{long, strings.Replace(long, "input: My order is late.", "input: My order is <b>very</b> late.", 1)} {
		if _, err := f.store.SaveCase(ctx, store.CaseDef{Suite: "support-desk", ID: "late", Name: "Late order", Definition: []byte(def)}); err != nil {
			t.Fatal(err)
		}
	}
	_, page := f.get("/cases/support-desk/late")
	mustContain(t, "the case's page", page, "<h3>Changes from version 1</h3>", "1 line removed, 1 added",
		"<del>- input: My order is late.</del>", "<ins>+ input: My order is &lt;b&gt;very&lt;/b&gt; late.</ins>",
		"<span>  name: Late order</span>", "<span class=\"skip\">⋯ 7 unchanged lines</span>")
	mustNotContain(t, "the case's page", page, "<b>very</b>")
	if strings.Count(page, "Changes from version") != 1 {
		t.Error("the first version shows a difference from none")
	}

}

// The verdict says in words which judge decided it, of what kind, and a
// model judge's score against its own threshold, as the judgment recorded
// it (the reasoning here holds no number); a composite's mean over its
// parts, rules included, is not shown as a score.
func TestVerdictInWords(t *testing.T) {
	f := newFixture(t, Config{})
	rubric := func(status judge.Status, score float64, reasoning string) judge.Judgment {
		j := wordsRubric(status, score, reasoning)
		j.Threshold = judge.AtLeast(score, 0.7)
		return j
	}
	id := saveWordsRun(t, f, rubric(judge.StatusPass, 0.9, "apologized and explained"),
		rubric(judge.StatusFail, 0.55, "no apology\nand more"), rubric(judge.StatusFail, 0.6, "curt"))

	for _, tc := range []struct {
		caseID     string
		want, dont []string
	}{
		{"rule_failed", []string{`<p class="decision">FAIL: decided by forbidden_tools (a rule): called cancel_order</p>`,
			`rubric</span> <span class="kind">(a model judge)</span> <span class="muted">scored 0.9, above its threshold 0.7</span>`}, []string{"score 0.8/1"}},
		{"judge_failed", []string{`<p class="decision">FAIL: decided by rubric (a model judge): scored 0.55, below its threshold 0.7</p>`,
			`rubric</span> <span class="kind">(a model judge)</span> <span class="muted">scored 0.55, below its threshold 0.7</span>`}, []string{"score 0.85/1", "score 0.55/1"}},
		{"sampled", []string{`<p class="decision">FAIL: decided by rubric (a model judge): scored 0.6, below its threshold 0.7</p>`}, []string{"score 0.6/1"}},
	} {
		_, page := f.get("/runs/" + id + "/cases/" + tc.caseID)
		mustContain(t, tc.caseID, page, tc.want...)
		mustNotContain(t, tc.caseID, page, tc.dont...)
	}
}

// A run stored before judgments recorded their threshold still reads: the
// words name the judge that decided and its reasoning, and a model
// judge's own score; a composite's mean is still no score to read.
func TestVerdictInWordsOfAnOldRun(t *testing.T) {
	f := newFixture(t, Config{})
	id := saveWordsRun(t, f, wordsRubric(judge.StatusPass, 0.9, "score 0.9 ≥ 0.7: apologized and explained"),
		wordsRubric(judge.StatusFail, 0.55, "score 0.55 < 0.7: no apology\nand more"),
		wordsRubric(judge.StatusFail, 0.6, "median score of 3 samples 0.6 < 0.7 (range 0.5..0.8)\nsample 1, score 0.5: curt"))

	for _, tc := range []struct {
		caseID     string
		want, dont []string
	}{
		{"rule_failed", []string{`<p class="decision">FAIL: decided by forbidden_tools (a rule): called cancel_order</p>`,
			`rubric</span> <span class="kind">(a model judge)</span> <span class="muted">score 0.9/1</span>`}, []string{"score 0.8/1"}},
		{"judge_failed", []string{`<p class="decision">FAIL: decided by rubric (a model judge): score 0.55 &lt; 0.7: no apology</p>`,
			`rubric</span> <span class="kind">(a model judge)</span> <span class="muted">score 0.55/1</span>`}, []string{"score 0.85/1"}},
		{"sampled", []string{`<p class="decision">FAIL: decided by rubric (a model judge): median score of 3 samples 0.6 &lt; 0.7 (range 0.5..0.8)</p>`}, nil},
	} {
		_, page := f.get("/runs/" + id + "/cases/" + tc.caseID)
		mustContain(t, tc.caseID, page, tc.want...)
		mustNotContain(t, tc.caseID, page, tc.dont...)
	}
}

// wordsRubric is a model judge's judgment, without a threshold.
func wordsRubric(status judge.Status, score float64, reasoning string) judge.Judgment {
	return judge.Judgment{Name: "rubric", Status: status, Score: judge.Unit(score), Reasoning: reasoning, Prompt: "p1a2b3",
		Usage: judge.Usage{InputTokens: 900, OutputTokens: 40}}
}

// saveWordsRun stores a run of three failed cases and returns its id:
// rule_failed (a rule failed, the model judge passed), judge_failed (the
// model judge failed, a rule passed) and sampled (the model judge alone
// failed).
func saveWordsRun(t *testing.T, f *fixture, passed, failed, sampled judge.Judgment) string {
	t.Helper()
	suite := &gavel.Suite{Name: "words", File: "words/gavel.yaml", Threshold: 1}
	withVerdict := func(id string, v judge.Judgment) gavel.CaseResult {
		tr := passing(id, 1, 4)
		tr.Verdict = v
		return result(testCase(id, "cancel my order"), tr)
	}
	run := &gavel.Run{Suite: suite, Cases: []gavel.CaseResult{
		// A rule failed, the model judge passed: the mean, 0.8, is no score to read.
		withVerdict("rule_failed", judge.Judgment{Name: "all", Status: judge.StatusFail, Score: judge.Unit(0.8), Parts: []judge.Judgment{
			{Name: "forbidden_tools", Status: judge.StatusFail, Score: judge.Bool(false), Reasoning: "called cancel_order"},
			passed,
			{Name: "contains refund", Status: judge.StatusPass, Score: judge.Bool(true), Reasoning: "says refund"},
		}}),
		// The model judge failed, on its own threshold.
		withVerdict("judge_failed", judge.Judgment{Name: "all", Status: judge.StatusFail, Score: judge.Unit(0.85), Parts: []judge.Judgment{
			{Name: "contains refund", Status: judge.StatusPass, Score: judge.Bool(true), Reasoning: "says refund"},
			failed,
		}}),
		withVerdict("sampled", judge.Judgment{Name: "all", Status: judge.StatusFail, Score: judge.Unit(0.6), Parts: []judge.Judgment{sampled}}),
	}}
	return f.save(store.RunInfo{Suite: suite.Name, SuiteFile: suite.File, Threshold: 1, Started: base}, run, store.Failed)
}

// The trends' table names the runs as the charts' x axis does, and the
// charts plot by run order, not by time.
func TestTrendsByRunOrder(t *testing.T) {
	f := newFixture(t, Config{})
	_, page := f.get("/trends?suite=support-desk")
	mustContain(t, "the trends page", page, `<tr><th>Run</th><th>Started</th>`,
		`<tr><td><a href="/runs/`+f.older+`" title="run `+f.older+`">main@5d7e765a · by ada</a></td>`,
		`<tr><td><a href="/runs/`+f.latest+`" title="run `+f.latest+`">shorter system prompt · fix/refunds@9c1e4f2a · by grace</a></td>`,
		"named as in the table")
	_, js := f.get("/static/trends.js")
	mustContain(t, "trends.js", js, "x: { time: false", `label: "run, oldest first"`, "size: ySize")
	mustNotContain(t, "trends.js", js, "time: true")
}
