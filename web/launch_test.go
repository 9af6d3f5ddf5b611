package web

import (
	"context"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"

	"github.com/gavelhq/gavel/store"
)

// fakeLauncher records what it was asked to start; with a store, it
// stores each run as it starts, as gavel serve's launcher does.
type fakeLauncher struct {
	got   []LaunchRequest
	store store.Store
}

func (l *fakeLauncher) Suites() []string { return []string{"support-desk", "<b>other</b>"} }

func (l *fakeLauncher) Launch(ctx context.Context, r LaunchRequest) (string, error) {
	if r.Suite != "support-desk" {
		return "", Refused(`no suite %q here`, r.Suite)
	}
	l.got = append(l.got, r)
	if l.store == nil {
		return "20261121-101500-a1b2c3", nil
	}
	info, err := l.store.CreateRun(ctx, store.RunInfo{Suite: r.Suite, StartedBy: r.By, Started: base})
	return info.ID, err
}

func TestStartRun(t *testing.T) {
	f := newFixture(t, Config{})
	launcher := &fakeLauncher{}
	srv := New(f.store, Config{Launcher: launcher})
	post := func(form url.Values) *httptest.ResponseRecorder {
		r := httptest.NewRequest("POST", "/runs", strings.NewReader(form.Encode()))
		r.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		w := httptest.NewRecorder()
		srv.ServeHTTP(w, r)
		return w
	}

	w := httptest.NewRecorder()
	srv.ServeHTTP(w, httptest.NewRequest("GET", "/runs/new", nil))
	mustContain(t, "the form", w.Body.String(), "<option>support-desk</option>", "&lt;b&gt;other&lt;/b&gt;")

	w = post(url.Values{"suite": {"support-desk"}, "tags": {"policy, cancel"}, "ids": {""}, "trials": {"3"}})
	if w.Code != http.StatusSeeOther || w.Header().Get("Location") != "/runs/20261121-101500-a1b2c3" {
		t.Fatalf("start: %d to %q", w.Code, w.Header().Get("Location"))
	}
	if got := launcher.got[0]; got.Trials != 3 || len(got.Tags) != 2 || got.Tags[1] != "cancel" || got.IDs != nil || got.By != "local" {
		t.Errorf("launched %+v", got)
	}
	for _, tc := range []struct {
		form url.Values
		want string
	}{
		{url.Values{"suite": {"support-desk"}, "trials": {"0"}}, "give a number from 1 to 100"},
		{url.Values{"suite": {"elsewhere"}, "trials": {"1"}}, "no suite &#34;elsewhere&#34; here"},
	} {
		w := post(tc.form)
		if w.Code != http.StatusUnprocessableEntity {
			t.Errorf("%v: %d, want 422", tc.form, w.Code)
		}
		mustContain(t, "the form again", w.Body.String(), tc.want)
	}

	// A server given no suites says how to give it some.
	w = httptest.NewRecorder()
	New(f.store, Config{}).ServeHTTP(w, httptest.NewRequest("GET", "/runs/new", nil))
	mustContain(t, "no launcher", w.Body.String(), "gavel serve examples/support-desk")
}
