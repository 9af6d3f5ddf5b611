package web

import (
	"context"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"

	"github.com/gavelhq/gavel/auth"
	"github.com/gavelhq/gavel/store"
)

// post serves a form's POST, with cookies.
func (f *fixture) post(path string, form url.Values, cookies ...*http.Cookie) (*http.Response, string) {
	f.t.Helper()
	header := []string{"Content-Type", "application/x-www-form-urlencoded"}
	for _, c := range cookies {
		header = append(header, "Cookie", c.String())
	}
	return f.send(http.MethodPost, path, form.Encode(), header...)
}

// newCase is the form of a valid new case of support-desk, with two
// rounds.
func newCase() url.Values {
	return url.Values{
		"suite": {"support-desk"}, "id": {"refund_late"}, "name": {"Refund a late order"},
		"description": {"A customer whose order is late asks for a refund."},
		"prompt":      {"My order 12345 is late.\r\n---\r\nI want a refund."},
		"tools":       {"get_order_status, refund_order"}, "judge_prompt": {"Apologizes and explains the refund."},
		"threshold": {"0.8"}, "tags": {"orders, refunds"}, "version": {"0"},
	}
}

// with returns a copy of form with the given name, value pairs set.
func with(form url.Values, kv ...string) url.Values {
	out := url.Values{}
	for k, v := range form {
		out[k] = append([]string{}, v...)
	}
	for i := 0; i+1 < len(kv); i += 2 {
		out.Set(kv[i], kv[i+1])
	}
	return out
}

func TestCaseFormCreateAndEdit(t *testing.T) {
	f := newFixture(t, Config{})
	ctx := context.Background()

	res, body := f.get("/cases/new?suite=support-desk")
	if res.StatusCode != http.StatusOK {
		t.Fatalf("GET /cases/new: %d", res.StatusCode)
	}
	mustContain(t, "new form", body, `action="/cases"`, `<select name="suite" required aria-describedby="suite-hint">`, `<option value="support-desk" selected>support-desk</option>`, `name="prompt"`, `name="judge_prompt"`)

	for _, tc := range []struct {
		name  string
		form  url.Values
		wants []string
	}{
		{"threshold out of range", with(newCase(), "threshold", "1.5"),
			[]string{"threshold 1.5 is out of range", `value="Refund a late order"`, "Apologizes and explains the refund.", "judge_threshold: 1.5"}},
		{"threshold not a number", with(newCase(), "threshold", "high"), []string{`&#34;high&#34; is not a number`}},
		{"threshold without criteria", with(newCase(), "judge_prompt", "", "tools", ""), []string{"judge_threshold without judge_prompt"}},
		{"nothing to judge", with(newCase(), "judge_prompt", "", "tools", "", "threshold", ""), []string{"nothing to judge"}},
		{"nothing to say", with(newCase(), "prompt", "\n---\n"), []string{"nothing to say to the agent"}},
		{"no id", with(newCase(), "id", " "), []string{"Give the case an id"}},
		{"an id taken", with(newCase(), "id", "case_001"), []string{"Suite support-desk already has a case case_001"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res, body := f.post("/cases", tc.form)
			if res.StatusCode != http.StatusUnprocessableEntity {
				t.Errorf("status %d, want 422", res.StatusCode)
			}
			mustContain(t, tc.name, body, tc.wants...)
		})
	}
	if h, _ := f.store.CaseHistory(ctx, "support-desk", "refund_late"); len(h) != 0 {
		t.Fatalf("an invalid case was saved: %+v", h)
	}

	res, _ = f.post("/cases", newCase())
	if res.StatusCode != http.StatusSeeOther || res.Header.Get("Location") != "/cases/support-desk/refund_late" {
		t.Fatalf("POST /cases: %d to %q, want 303 to the case", res.StatusCode, res.Header.Get("Location"))
	}
	h, err := f.store.CaseHistory(ctx, "support-desk", "refund_late")
	if err != nil || len(h) != 1 {
		t.Fatalf("history after creating: %+v, %v", h, err)
	}
	if v := h[0]; v.Source != "" || v.Name != "Refund a late order" || strings.Join(v.Tags, ",") != "orders,refunds" {
		t.Errorf("saved %+v", v.CaseDef)
	}
	mustContain(t, "definition", string(h[0].Definition), "id: refund_late", "rounds:", "- prompt: My order 12345 is late.",
		"- prompt: I want a refund.", "- get_order_status", "judge_threshold: 0.8")

	_, body = f.get("/cases/support-desk/refund_late")
	mustContain(t, "case page", body, `href="/cases/support-desk/refund_late/edit">Edit</a>`, "written in the web app")
	_, body = f.get("/cases/support-desk/refund_late/edit")
	mustContain(t, "edit form", body, `action="/cases/support-desk/refund_late/edit"`, `name="version" value="1"`,
		"My order 12345 is late.\n---\nI want a refund.", `value="get_order_status, refund_order"`, `value="0.8"`)
	mustNotContain(t, "edit form", body, `name="id"`)

	edit := with(newCase(), "name", "Refund an order that is late", "version", "1", "prompt", "Refund order 12345, it is late.")
	res, _ = f.post("/cases/support-desk/refund_late/edit", edit)
	if res.StatusCode != http.StatusSeeOther {
		t.Fatalf("POST edit: %d", res.StatusCode)
	}
	h, _ = f.store.CaseHistory(ctx, "support-desk", "refund_late")
	if len(h) != 2 || h[1].Version != 2 || h[1].Name != "Refund an order that is late" {
		t.Fatalf("history after editing: %+v", h)
	}
	mustContain(t, "version 2", string(h[1].Definition), "input: Refund order 12345, it is late.")
	_, body = f.get("/cases/support-desk/refund_late")
	mustContain(t, "case page", body, "Version 2 (latest)", "Version 1", "Refund order 12345, it is late.", "- prompt: I want a refund.")

	// A form of version 1 saved after version 2 is refused.
	res, body = f.post("/cases/support-desk/refund_late/edit", with(edit, "name", "Stale"))
	if res.StatusCode != http.StatusUnprocessableEntity {
		t.Errorf("a stale form: %d, want 422", res.StatusCode)
	}
	mustContain(t, "stale form", body, "Someone saved version 2 of this case while you edited version 1")

	_, body = f.get("/cases?suite=support-desk")
	mustContain(t, "cases list", body, `href="/cases/new?suite=support-desk"`, "refund_late")
}

func TestCaseFormEscapes(t *testing.T) {
	f := newFixture(t, Config{})
	res, _ := f.post("/cases", with(newCase(), "id", `x"><script>alert(1)</script>`, "name", evil, "description", evil, "tags", evil))
	if res.StatusCode != http.StatusSeeOther {
		t.Fatalf("POST: %d", res.StatusCode)
	}
	for _, path := range []string{res.Header.Get("Location"), res.Header.Get("Location") + "/edit", "/cases?suite=support-desk"} {
		res, body := f.get(path)
		if res.StatusCode != http.StatusOK {
			t.Errorf("GET %s: %d", path, res.StatusCode)
		}
		mustContain(t, path, body, "&lt;script&gt;alert(1)&lt;/script&gt;")
		mustNotContain(t, path, body, evil)
	}
	// Invalid, the form comes back with its values escaped.
	_, body := f.post("/cases", with(newCase(), "id", "y", "name", evil, "threshold", "2"))
	mustContain(t, "422", body, "&lt;script&gt;alert(1)&lt;/script&gt;")
	mustNotContain(t, "422", body, evil)
}

func TestCaseFormReadOnly(t *testing.T) {
	f := newFixture(t, Config{})
	ctx := context.Background()

	// A case from a suite file.
	_, body := f.get("/cases/support-desk/case_001")
	mustContain(t, "file case", body, "This case comes from a suite file, cases.yaml:12: edit it there.")
	mustNotContain(t, "file case", body, "/edit")
	for _, method := range []string{http.MethodGet, http.MethodPost} {
		var res *http.Response
		if method == http.MethodGet {
			res, body = f.get("/cases/support-desk/case_001/edit")
		} else {
			res, body = f.post("/cases/support-desk/case_001/edit", with(newCase(), "version", "1"))
		}
		if res.StatusCode != http.StatusForbidden {
			t.Errorf("%s edit of a file case: %d, want 403", method, res.StatusCode)
		}
		mustContain(t, method+" edit of a file case", body, "cases.yaml:12")
	}
	if h, _ := f.store.CaseHistory(ctx, "support-desk", "case_001"); len(h) != 1 {
		t.Errorf("a file case was edited: %d versions", len(h))
	}

	// A case written in the database with judges the form cannot write.
	def := "id: cleanup\ninput: delete my account\nchecks:\n  - command: [rm, -rf, /]\nrules:\n  - contains: deleted\n"
	if _, err := f.store.SaveCase(ctx, store.CaseDef{Suite: "support-desk", ID: "cleanup", Definition: []byte(def)}); err != nil {
		t.Fatal(err)
	}
	_, body = f.get("/cases/support-desk/cleanup")
	mustContain(t, "command case", body, "This case cannot be edited in the form", "(checks, rules)", "suite files only")
	mustNotContain(t, "command case", body, "/edit")
	res, body := f.get("/cases/support-desk/cleanup/edit")
	if res.StatusCode != http.StatusForbidden {
		t.Errorf("edit of a case with a command: %d, want 403", res.StatusCode)
	}
	mustContain(t, "edit of a case with a command", body, "checks, rules")
	res, _ = f.post("/cases/support-desk/cleanup/edit", with(newCase(), "version", "1"))
	if res.StatusCode != http.StatusForbidden {
		t.Errorf("POST edit of a case with a command: %d, want 403", res.StatusCode)
	}
	if h, _ := f.store.CaseHistory(ctx, "support-desk", "cleanup"); len(h) != 1 || string(h[0].Definition) != def {
		t.Errorf("the case with a command changed: %+v", h)
	}

	// A round with a field the form does not know.
	def = "id: event\nrounds:\n  - prompt: hi\n  - event: {name: paid}\njudge_prompt: fine\n"
	if _, err := f.store.SaveCase(ctx, store.CaseDef{Suite: "support-desk", ID: "event", Definition: []byte(def)}); err != nil {
		t.Fatal(err)
	}
	if res, body := f.get("/cases/support-desk/event/edit"); res.StatusCode != http.StatusForbidden || !strings.Contains(body, "rounds.event") {
		t.Errorf("edit of a case with an event: %d\n%s", res.StatusCode, shortBody(body))
	}
}

// With the local user (login not required), forms carry the CSRF token
// of the local user's cookie, and a POST without it is refused.
func TestCaseFormCSRF(t *testing.T) {
	f := newFixture(t, Config{})
	f.srv = New(f.store, Config{Auth: auth.New(auth.Config{Accounts: f.store.(store.Accounts)})})
	res, body := f.get("/cases/new?suite=support-desk")
	var cookie *http.Cookie
	for _, c := range res.Cookies() {
		if c.Name == "gavel_csrf" {
			cookie = c
		}
	}
	field := regexp.MustCompile(`name="csrf" value="([^"]+)"`).FindStringSubmatch(body)
	if cookie == nil || field == nil || field[1] != cookie.Value {
		t.Fatalf("the form has no CSRF token of the cookie: %v\n%s", res.Cookies(), shortBody(body))
	}
	if res, _ := f.post("/cases", newCase(), cookie); res.StatusCode != http.StatusForbidden {
		t.Errorf("POST without the token: %d, want 403", res.StatusCode)
	}
	if res, _ := f.post("/cases", with(newCase(), "csrf", "forged"), cookie); res.StatusCode != http.StatusForbidden {
		t.Errorf("POST with a wrong token: %d, want 403", res.StatusCode)
	}
	res, _ = f.post("/cases", with(newCase(), "csrf", cookie.Value), cookie)
	if res.StatusCode != http.StatusSeeOther {
		t.Fatalf("POST with the token: %d, want 303", res.StatusCode)
	}
	_, body = f.get("/cases/support-desk/refund_late/edit", "Cookie", cookie.String())
	mustContain(t, "edit form", body, `name="csrf" value="`+cookie.Value+`"`)
	_, body = f.get("/runs/"+f.latest+"/cases/case_002", "Cookie", cookie.String())
	mustContain(t, "label form", body, `class="label-form`, `name="csrf" value="`+cookie.Value+`"`)
}

// login starts a session of a new user with a role, and returns its
// cookie and CSRF token.
func login(t *testing.T, f *fixture, a *auth.Authenticator, name string, role store.Role) (*http.Cookie, string) {
	t.Helper()
	hash, _ := auth.HashPassword("a long password")
	if _, err := f.store.(store.Accounts).CreateUser(context.Background(), name, role, hash); err != nil {
		t.Fatal(err)
	}
	cookie, err := a.Login(context.Background(), name, "a long password", "192.0.2.1:1234")
	if err != nil {
		t.Fatal(err)
	}
	_, body := f.get("/runs", "Cookie", cookie.String())
	csrf := regexp.MustCompile(`name="csrf" value="([^"]+)"`).FindStringSubmatch(body)
	if csrf == nil {
		t.Fatalf("no CSRF token for %s", name)
	}
	return cookie, csrf[1]
}

// A viewer reads cases but cannot write them or label results; an editor
// can.
func TestCaseFormRoles(t *testing.T) {
	f := newFixture(t, Config{})
	a := auth.New(auth.Config{Accounts: f.store.(store.Accounts), Required: true})
	f.srv = New(f.store, Config{Auth: a})
	vera, veraCSRF := login(t, f, a, "vera", store.Viewer)
	edna, ednaCSRF := login(t, f, a, "edna", store.Editor)
	label := url.Values{"trial": {"1"}, "verdict": {"correct"}}

	_, body := f.get("/cases?suite=support-desk", "Cookie", vera.String())
	mustNotContain(t, "viewer's cases", body, "/cases/new")
	_, body = f.get("/runs/"+f.latest+"/cases/case_002", "Cookie", vera.String())
	mustNotContain(t, "viewer's case result", body, `class="label-form`)
	if res, _ := f.get("/cases/new", "Cookie", vera.String()); res.StatusCode != http.StatusForbidden {
		t.Errorf("viewer GET /cases/new: %d, want 403", res.StatusCode)
	}
	if res, _ := f.post("/cases", with(newCase(), "csrf", veraCSRF), vera); res.StatusCode != http.StatusForbidden {
		t.Errorf("viewer POST /cases: %d, want 403", res.StatusCode)
	}
	if res, _ := f.post("/runs/"+f.latest+"/cases/case_002/labels", with(label, "csrf", veraCSRF), vera); res.StatusCode != http.StatusForbidden {
		t.Errorf("viewer POST a label: %d, want 403", res.StatusCode)
	}

	if res, _ := f.post("/cases", with(newCase(), "csrf", ednaCSRF), edna); res.StatusCode != http.StatusSeeOther {
		t.Errorf("editor POST /cases: %d, want 303", res.StatusCode)
	}
	_, body = f.get("/cases/support-desk/refund_late", "Cookie", edna.String())
	mustContain(t, "editor's case", body, "/cases/support-desk/refund_late/edit")
	_, body = f.get("/cases/support-desk/refund_late", "Cookie", vera.String())
	mustNotContain(t, "viewer's case", body, "/edit")
	if res, _ := f.post("/runs/"+f.latest+"/cases/case_002/labels", with(label, "csrf", ednaCSRF), edna); res.StatusCode != http.StatusSeeOther {
		t.Errorf("editor POST a label: %d, want 303", res.StatusCode)
	}
	labels, _ := f.store.Labels(context.Background(), f.latest)
	if len(labels) != 1 || labels[0].Author != "edna" {
		t.Errorf("labels: %+v, want one by edna", labels)
	}
}
