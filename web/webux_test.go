package web

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/gavelhq/gavel"
	"github.com/gavelhq/gavel/store"
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
		`<span class="hint">only cases with one of these tags; empty: all</span>`,
		`<span class="hint">only these case ids; empty: all</span>`)
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
