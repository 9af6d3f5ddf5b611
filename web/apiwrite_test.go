package web

import (
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"github.com/gavelhq/gavel/auth"
	"github.com/gavelhq/gavel/store"
)

// sendJSON serves a request with a JSON body, checks its status and
// decodes the answer into v (when not nil); header holds name, value
// pairs.
func (f *fixture) sendJSON(method, path, body string, status int, v any, header ...string) *http.Response {
	f.t.Helper()
	res, answer := f.send(method, path, body, append([]string{"Content-Type", "application/json"}, header...)...)
	if res.StatusCode != status {
		f.t.Fatalf("%s %s: status %d, want %d\n%s", method, path, res.StatusCode, status, shortBody(answer))
	}
	if v != nil {
		dec := json.NewDecoder(strings.NewReader(answer))
		dec.DisallowUnknownFields()
		if err := dec.Decode(v); err != nil {
			f.t.Fatalf("%s %s: decoding %T: %v\n%s", method, path, v, err, shortBody(answer))
		}
	}
	return res
}

// refundLate is a valid new case of support-desk, with two rounds, as
// POST /api/cases takes it.
const refundLate = `{
  "suite": "support-desk", "id": "refund_late", "name": "Refund a late order", "tags": ["orders", "refunds"],
  "rounds": [{"prompt": "My order 12345 is late."}, {"prompt": "I want a refund."}],
  "expected_tools": ["get_order_status", "refund_order"],
  "judge_prompt": "Apologizes and explains the refund.", "judge_threshold": 0.8
}`

func TestAPIWriteCases(t *testing.T) {
	testAPIWriteCases(t, newFixture(t, Config{}))
}

// Cases are written the same on PostgreSQL.
func TestAPIWriteCasesOnPostgres(t *testing.T) {
	testAPIWriteCases(t, newPostgresFixture(t, Config{}))
}

func testAPIWriteCases(t *testing.T, f *fixture) {
	var saved CaseVersion
	res := f.sendJSON("POST", "/api/cases", refundLate, http.StatusCreated, &saved)
	if loc := res.Header.Get("Location"); loc != "/api/cases/support-desk/refund_late" {
		t.Errorf("Location %q", loc)
	}
	if saved.Version != 1 || saved.Source != "" || saved.Name != "Refund a late order" {
		t.Errorf("saved %+v", saved.CaseSummary)
	}
	mustContain(t, "definition", saved.Definition, "- prompt: I want a refund.", "- refund_order", "judge_threshold: 0.8")

	var apiErr apiError
	f.sendJSON("POST", "/api/cases", refundLate, http.StatusConflict, &apiErr)
	mustContain(t, "a second POST", apiErr.Error, "already has a case refund_late", "PUT /api/cases/support-desk/refund_late")

	// A new version, from the latest; then a stale one is refused.
	edit := `{"version": 1, "input": "Where is my refund?", "judge_prompt": "Explains when the refund arrives."}`
	f.sendJSON("PUT", "/api/cases/support-desk/refund_late", edit, http.StatusOK, &saved)
	if saved.Version != 2 || !strings.Contains(saved.Definition, "input: Where is my refund?") {
		t.Errorf("edited: version %d\n%s", saved.Version, saved.Definition)
	}
	f.sendJSON("PUT", "/api/cases/support-desk/refund_late", edit, http.StatusConflict, &apiErr)
	mustContain(t, "a stale PUT", apiErr.Error, "Someone saved version 2 of this case while you edited version 1")
	var history CaseHistory
	f.getJSON("/api/cases/support-desk/refund_late", http.StatusOK, &history)
	if len(history.Versions) != 2 {
		t.Errorf("%d versions, want 2", len(history.Versions))
	}

	for _, tc := range []struct {
		name, method, path, body string
		status                   int
		want                     []string
	}{
		{"no id", "POST", "/api/cases", `{"suite": "support-desk", "input": "Hi"}`,
			http.StatusUnprocessableEntity, []string{`"id": "Give the case an id`}},
		{"a problem the loader finds", "POST", "/api/cases", strings.NewReplacer("0.8", "1.5", "refund_late", "refund_later").Replace(refundLate),
			http.StatusUnprocessableEntity, []string{"threshold 1.5 is out of range", `"problems"`}},
		{"a judge that runs a command", "POST", "/api/cases", `{"suite": "s", "id": "x", "input": "Hi", "judge_command": "rm -rf /"}`,
			http.StatusBadRequest, []string{`unknown field \"judge_command\"`, "written in suite files only"}},
		{"two values", "POST", "/api/cases", refundLate + refundLate,
			http.StatusBadRequest, []string{"more than one JSON value"}},
		{"a case from a suite file", "PUT", "/api/cases/support-desk/case_001", `{"input": "Hi"}`,
			http.StatusForbidden, []string{"comes from a suite file, cases.yaml:12: edit it there"}},
		{"another id", "PUT", "/api/cases/support-desk/refund_late", `{"id": "other", "input": "Hi"}`,
			http.StatusUnprocessableEntity, []string{"A case keeps its suite and id"}},
		{"no such case", "PUT", "/api/cases/support-desk/nope", `{"input": "Hi"}`,
			http.StatusNotFound, []string{"suite support-desk has no case nope"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res, body := f.send(tc.method, tc.path, tc.body, "Content-Type", "application/json")
			if res.StatusCode != tc.status {
				t.Errorf("status %d, want %d\n%s", res.StatusCode, tc.status, shortBody(body))
			}
			mustContain(t, "the answer", body, tc.want...)
		})
	}

	// Not JSON, or too much of it.
	if res, _ := f.send("POST", "/api/cases", "suite=s&id=x", "Content-Type", "application/x-www-form-urlencoded"); res.StatusCode != http.StatusUnsupportedMediaType {
		t.Errorf("a form's body: %d, want 415", res.StatusCode)
	}
	huge := `{"suite": "s", "id": "x", "input": "` + strings.Repeat("a", maxBody) + `"}`
	if res, _ := f.send("POST", "/api/cases", huge, "Content-Type", "application/json"); res.StatusCode != http.StatusRequestEntityTooLarge {
		t.Errorf("a body over %d bytes: %d, want 413", maxBody, res.StatusCode)
	}
}

func TestAPIStartRun(t *testing.T) {
	f := newFixture(t, Config{})
	launcher := &fakeLauncher{store: f.store}
	f.srv = New(f.store, Config{Launcher: launcher})
	var run RunSummary
	res := f.sendJSON("POST", "/api/runs", `{"suite": "support-desk", "tags": ["orders"], "trials": 3}`, http.StatusAccepted, &run)
	if run.Status != store.Running || run.Suite != "support-desk" || run.StartedBy != "local" || res.Header.Get("Location") != "/api/runs/"+run.ID+"/info" {
		t.Errorf("started %+v at %q", run, res.Header.Get("Location"))
	}
	if got := launcher.got[0]; got.Trials != 3 || len(got.Tags) != 1 || got.By != "local" {
		t.Errorf("launched %+v", got)
	}

	var apiErr apiError
	f.sendJSON("POST", "/api/runs", `{"suite": "elsewhere"}`, http.StatusUnprocessableEntity, &apiErr)
	mustContain(t, "an unknown suite", apiErr.Error, `no suite "elsewhere" here`)
	f.sendJSON("POST", "/api/runs", `{"suite": "support-desk", "trials": 1000}`, http.StatusUnprocessableEntity, &apiErr)
	mustContain(t, "too many trials", apiErr.Error, "give a number from 1 to 100")

	f.srv = New(f.store, Config{})
	f.sendJSON("POST", "/api/runs", `{"suite": "support-desk"}`, http.StatusConflict, &apiErr)
	mustContain(t, "no launcher", apiErr.Error, "gavel serve SUITE")
}

func TestAPILabels(t *testing.T) {
	testAPILabels(t, newFixture(t, Config{}))
}

// Labels are kept the same on PostgreSQL.
func TestAPILabelsOnPostgres(t *testing.T) {
	testAPILabels(t, newPostgresFixture(t, Config{}))
}

func testAPILabels(t *testing.T, f *fixture) {
	path := "/api/runs/" + f.latest + "/cases/case_002/labels"
	var l Label
	res := f.sendJSON("POST", path, `{"trial": 1, "verdict": "wrong", "score": 0.4, "comment": "It never said sorry."}`, http.StatusCreated, &l)
	if l.ID == 0 || l.RunID != f.latest || l.CaseID != "case_002" || l.Verdict != "wrong" || l.Score == nil || *l.Score != 0.4 ||
		l.Author != "local" || res.Header.Get("Location") != "/api/runs/"+f.latest+"/labels" {
		t.Errorf("label %+v", l)
	}
	var list LabelList
	f.getJSON("/api/runs/"+f.latest+"/labels", http.StatusOK, &list)
	if len(list.Labels) != 1 || list.Labels[0].Comment != "It never said sorry." {
		t.Errorf("labels %+v", list.Labels)
	}

	for _, tc := range []struct {
		name, path, body string
		status           int
		want             string
	}{
		{"no verdict", path, `{"trial": 1}`, http.StatusUnprocessableEntity, "correct or wrong"},
		{"a score out of range", path, `{"trial": 1, "verdict": "correct", "score": 5}`, http.StatusUnprocessableEntity, "from 0 to 1"},
		{"no such trial", path, `{"trial": 9, "verdict": "correct"}`, http.StatusNotFound, "has no trial 9 of case case_002"},
		{"no such run", "/api/runs/20990101-000000-zzzz/cases/case_002/labels", `{"trial": 1, "verdict": "correct"}`, http.StatusNotFound, "has no trial 1"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res, body := f.send("POST", tc.path, tc.body, "Content-Type", "application/json")
			if res.StatusCode != tc.status {
				t.Errorf("status %d, want %d\n%s", res.StatusCode, tc.status, shortBody(body))
			}
			mustContain(t, "the answer", body, tc.want)
		})
	}
	f.getJSON("/api/runs/20990101-000000-zzzz/labels", http.StatusNotFound, &apiError{})
}

// Scripts write with API tokens, which need no CSRF token and act with
// their user's role; a browser's session still needs its CSRF token.
func TestAPIWriteAuth(t *testing.T) {
	f := newFixture(t, Config{})
	a := auth.New(auth.Config{Accounts: f.store.(store.Accounts), Required: true})
	f.srv = New(f.store, Config{Auth: a})
	token := func(name string, role store.Role) string {
		hash, _ := auth.HashPassword("a long password")
		user, err := f.store.(store.Accounts).CreateUser(context.Background(), name, role, hash)
		if err != nil {
			t.Fatal(err)
		}
		tok, hash := auth.NewToken()
		if _, err := f.store.(store.Accounts).CreateToken(context.Background(), store.Token{UserID: user.ID, Name: "ci", Hash: hash}); err != nil {
			t.Fatal(err)
		}
		return "Bearer " + tok
	}
	editor, viewer := token("ci-bot", store.Editor), token("reader", store.Viewer)

	var saved CaseVersion
	f.sendJSON("POST", "/api/cases", refundLate, http.StatusCreated, &saved, "Authorization", editor)
	label := `{"trial": 1, "verdict": "correct"}`
	var l Label
	f.sendJSON("POST", "/api/runs/"+f.latest+"/cases/case_002/labels", label, http.StatusCreated, &l, "Authorization", editor)
	if l.Author != "ci-bot" {
		t.Errorf("label by %q, want ci-bot", l.Author)
	}
	f.sendJSON("POST", "/api/runs/"+f.latest+"/cases/case_002/labels", label, http.StatusForbidden, nil, "Authorization", viewer)
	f.sendJSON("POST", "/api/runs/"+f.latest+"/cases/case_002/labels", label, http.StatusUnauthorized, nil)

	cookie, csrf := login(t, f, a, "edna", store.Editor)
	f.sendJSON("POST", "/api/runs/"+f.latest+"/cases/case_002/labels", label, http.StatusForbidden, nil, "Cookie", cookie.String())
	f.sendJSON("POST", "/api/runs/"+f.latest+"/cases/case_002/labels", label, http.StatusCreated, nil,
		"Cookie", cookie.String(), "X-CSRF-Token", csrf)
}
