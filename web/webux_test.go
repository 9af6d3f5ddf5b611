package web

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
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
