package web

import (
	"context"
	"fmt"
	"math"
	"net/http"
	"net/url"
	"os"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/gavelhq/gavel"
	"github.com/gavelhq/gavel/auth"
	"github.com/gavelhq/gavel/store"
)

// queueOfFails is the form of a queue of support-desk's FAIL and ERROR
// verdicts. The fixture has 7: the latest run's case_002#1 and #2,
// case_003#2, orders/cancel 4#1 and #2, then the old and the older
// run's case_005#1.
func queueOfFails() url.Values {
	return url.Values{"name": {"Fails"}, "suite": {"support-desk"}, "verdict": {"FAIL", "ERROR"}, "labels_per_item": {"1"},
		"description": {"Why did these fail?"}}
}

// A person creates a queue in the form, works it item by item (labels,
// a judge's label, a skip) until it is done; the review page shows the
// trial, the verdict and one label form with nothing chosen, and not
// other people's labels.
func TestQueueWorkflow(t *testing.T) {
	f := newFixture(t, Config{})
	res, body := f.post("/queues", queueOfFails())
	if res.StatusCode != http.StatusSeeOther || res.Header.Get("Location") != "/queues/1" {
		t.Fatalf("POST /queues: %d to %q\n%s", res.StatusCode, res.Header.Get("Location"), shortBody(body))
	}
	_, body = f.get("/queues")
	mustContain(t, "the queues", body, `<a href="/queues/1">Fails</a>`, "FAIL or ERROR verdicts, of suite support-desk",
		"0 of 7 items done", `<a href="/queues"`+` aria-current="page">Queues</a>`)
	_, body = f.get("/queues/1")
	mustContain(t, "the queue", body, "Why did these fail?", `href="/queues/1/next?after=0"`, "case_002#1", "orders/cancel 4#2", "case_005#1",
		"No item has labels by two people yet")

	next := func(after int, want string) {
		t.Helper()
		res, _ := f.get(fmt.Sprintf("/queues/1/next?after=%d", after))
		if res.StatusCode != http.StatusSeeOther || res.Header.Get("Location") != want {
			t.Fatalf("next after %d: %d to %q, want %s", after, res.StatusCode, res.Header.Get("Location"), want)
		}
	}
	next(0, "/queues/1/items/1")

	// Someone else's label is not shown to the person labelling.
	if _, err := f.store.AddLabel(context.Background(), store.Label{RunID: f.latest, CaseID: "case_002", Trial: 1, Category: "pass",
		Comment: "grace thinks it passed", Author: "grace"}); err != nil {
		t.Fatal(err)
	}
	_, body = f.get("/queues/1/items/1")
	mustContain(t, "the review page", body, "item 1 of 7", "called forbidden tool cancel_order", "cancel my order 12345",
		`<form class="label-form trial-label" method="post" action="/queues/1/items/1/labels">`, `value="fail">`,
		`data-skip="/queues/1/next?after=1"`, `<summary>Show the judges</summary>`, `src="/static/review.js`)
	mustNotContain(t, "the review page", body, "checked", "grace")
	checkScripts(t, "/queues/1/items/1", body)

	label := func(item int, form url.Values, wantStatus int, wantTo string) {
		t.Helper()
		res, body := f.post(fmt.Sprintf("/queues/1/items/%d/labels", item), form)
		if res.StatusCode != wantStatus || res.Header.Get("Location") != wantTo {
			t.Fatalf("label item %d with %v: %d to %q, want %d to %q\n%s", item, form, res.StatusCode, res.Header.Get("Location"), wantStatus, wantTo, shortBody(body))
		}
	}
	label(1, url.Values{"category": {"fail"}, "comment": {"it cancelled"}}, http.StatusSeeOther, "/queues/1/next?after=1")
	next(0, "/queues/1/items/2")
	label(2, url.Values{"judgment": {"tiered/jury/tone"}, "category": {"cold"}}, http.StatusSeeOther, "/queues/1/items/2#judges")
	label(2, url.Values{"comment": {"no choice"}}, http.StatusUnprocessableEntity, "")
	next(2, "/queues/1/items/3") // skipped
	_, body = f.get("/queues/1/items/1")
	mustContain(t, "an item labelled", body, "Your label: <strong>fail</strong>")
	for item := 2; item <= 7; item++ {
		label(item, url.Values{"category": {"pass"}}, http.StatusSeeOther, fmt.Sprintf("/queues/1/next?after=%d", item))
	}
	next(7, "/queues/1?done=1")
	_, body = f.get("/queues/1?done=1")
	mustContain(t, "a queue done", body, "You have labelled every item this queue asks of you.", "7 of 7 items done",
		"<td>local</td><td class=\"num\">7 of 7</td>", "<td>grace</td><td class=\"num\">1 of 7</td>",
		"1 item has two labels or more", "grace and local: 0 of 1 (0%), kappa 0.00") // grace's label, given elsewhere, counts
	_, body = f.get("/queues/1/items/99")
	mustContain(t, "no such item", body, "queue 1 has no item 99")
	if res, _ := f.get("/queues/9"); res.StatusCode != http.StatusNotFound {
		t.Errorf("GET /queues/9: %d, want 404", res.StatusCode)
	}
}

// The queue form shows what is wrong, with what was typed.
func TestQueueFormProblems(t *testing.T) {
	f := newFixture(t, Config{})
	if res, _ := f.post("/queues", queueOfFails()); res.StatusCode != http.StatusSeeOther {
		t.Fatalf("the first queue: %d", res.StatusCode)
	}
	for _, tc := range []struct {
		name   string
		change url.Values
		status int
		want   string
	}{
		{"no name", url.Values{"name": {" "}}, http.StatusUnprocessableEntity, "a queue needs a name"},
		{"a name taken", url.Values{}, http.StatusConflict, "a queue is named &#34;Fails&#34; already"},
		{"a date", url.Values{"name": {"x"}, "since": {"last week"}}, http.StatusUnprocessableEntity, "since &#34;last week&#34; is not a date"},
		{"dates the wrong way round", url.Values{"name": {"x"}, "since": {"2026-11-21"}, "until": {"2026-11-01"}}, http.StatusUnprocessableEntity, "no run can be both"},
		{"a run not there", url.Values{"name": {"x"}, "run": {"nope"}}, http.StatusUnprocessableEntity, "there is no run nope"},
		{"more labels than people", url.Values{"name": {"x"}, "assignees": {"ada"}, "labels_per_item": {"2"}}, http.StatusUnprocessableEntity,
			"2 labels per item need at least 2 people assigned"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			form := queueOfFails()
			for k, v := range tc.change {
				form[k] = v
			}
			res, body := f.post("/queues", form)
			if res.StatusCode != tc.status {
				t.Errorf("status %d, want %d", res.StatusCode, tc.status)
			}
			mustContain(t, tc.name, body, tc.want, `<input type="checkbox" name="verdict" value="FAIL" checked>`, "Why did these fail?")
		})
	}
}

// Through the API, two editors label the same queue: its progress and
// their agreement (Cohen's kappa) follow; a viewer may not be assigned.
func TestQueueAPI(t *testing.T) {
	f := newFixture(t, Config{})
	a := auth.New(auth.Config{Accounts: f.store.(store.Accounts), Required: true})
	f.srv = New(f.store, Config{Auth: a})
	ada, bob, vera := apiToken(t, f, "ada", store.Editor), apiToken(t, f, "bob", store.Editor), apiToken(t, f, "vera", store.Viewer)

	f.sendJSON("POST", "/api/queues", `{"name": "x", "filter": {"suite": "support-desk"}, "assignees": ["ada", "vera"]}`,
		http.StatusUnprocessableEntity, nil, "Authorization", ada)
	f.sendJSON("POST", "/api/queues", `{"name": "x"}`, http.StatusForbidden, nil, "Authorization", vera)
	var q QueueDetail
	res := f.sendJSON("POST", "/api/queues", `{"name": "FAILs twice", "filter": {"suite": "support-desk", "verdicts": ["FAIL"]},
		"assignees": ["ada", "bob"], "labels_per_item": 2}`, http.StatusCreated, &q, "Authorization", ada)
	if loc := res.Header.Get("Location"); loc != fmt.Sprintf("/api/queues/%d", q.ID) || q.Progress.Items != 5 || q.Progress.Needed != 10 || q.CreatedBy != "ada" {
		t.Fatalf("created at %s: %+v", loc, q)
	}
	base := fmt.Sprintf("/api/queues/%d", q.ID)

	// ada: fail fail fail pass pass; bob: fail pass fail pass fail. The
	// table [[2 1] [1 1]]: observed 3/5, chance 0.6×0.6 + 0.4×0.4 = 0.52,
	// kappa (0.6 - 0.52) / (1 - 0.52) = 1/6.
	said := map[string][]string{"ada": {"fail", "fail", "fail", "pass", "pass"}, "bob": {"fail", "pass", "fail", "pass", "fail"}}
	for _, person := range []string{"ada", "bob"} {
		token := map[string]string{"ada": ada, "bob": bob}[person]
		for i := 0; ; i++ {
			var next NextItem
			f.sendJSON("GET", fmt.Sprintf("%s/next?after=%d", base, i), "", http.StatusOK, &next, "Authorization", token)
			if next.Done {
				if i != 5 {
					t.Fatalf("%s is done after %d items, want 5", person, i)
				}
				break
			}
			if next.Item.Position != i+1 {
				t.Fatalf("%s's next item after %d: %d", person, i, next.Item.Position)
			}
			f.sendJSON("POST", fmt.Sprintf("/api/runs/%s/cases/%s/labels", next.Item.RunID, url.PathEscape(next.Item.CaseID)),
				fmt.Sprintf(`{"trial": %d, "category": %q}`, next.Item.Trial, said[person][i]), http.StatusCreated, nil, "Authorization", token)
		}
	}
	f.sendJSON("GET", base, "", http.StatusOK, &q, "Authorization", vera)
	if p := q.Progress; p.Done != 5 || p.Given != 10 || len(p.People) != 2 || p.People[1] != (PersonProgress{Name: "bob", Assigned: true, Labelled: 5}) {
		t.Errorf("progress: %+v", p)
	}
	if a := q.Agreement; a.People != 2 || a.Items != 5 || len(a.Pairs) != 1 || a.Pairs[0].Kappa == nil || math.Abs(*a.Pairs[0].Kappa-1.0/6) > 1e-12 || len(a.Alpha) != 0 {
		t.Errorf("agreement: %+v, want ada and bob's kappa 1/6", a)
	}
	var items QueueItemList
	f.sendJSON("GET", base+"/items", "", http.StatusOK, &items, "Authorization", vera)
	if len(items.Items) != 5 || len(items.Items[0].Labels) != 2 || items.Items[4].Review != fmt.Sprintf("/queues/%d/items/5", q.ID) {
		t.Errorf("items: %+v", items.Items)
	}

	f.sendJSON("PUT", base, `{"name": "FAILs", "assignees": ["bob"], "labels_per_item": 1}`, http.StatusOK, &q, "Authorization", ada)
	if q.Name != "FAILs" || len(q.Assignees) != 1 || q.Progress.People[1].Assigned {
		t.Errorf("after the PUT: %+v", q)
	}
	f.sendJSON("PUT", base, `{"name": "FAILs", "filter": {"suite": "other"}}`, http.StatusUnprocessableEntity, nil, "Authorization", ada)
	var added struct{ Added int }
	f.sendJSON("POST", base+"/refresh", "", http.StatusOK, &added, "Authorization", ada)
	var list struct{ Queues []QueueSummary }
	f.sendJSON("GET", "/api/queues", "", http.StatusOK, &list, "Authorization", vera)
	if len(list.Queues) != 1 || list.Queues[0].Selects != "FAIL verdicts, of suite support-desk" {
		t.Errorf("GET /api/queues: %+v", list.Queues)
	}
	f.sendJSON("DELETE", base, "", http.StatusOK, nil, "Authorization", ada)
	f.sendJSON("GET", base, "", http.StatusNotFound, nil, "Authorization", ada)
}

// apiToken makes a user with a role and returns the Authorization header
// of an API token of theirs.
func apiToken(t *testing.T, f *fixture, name string, role store.Role) string {
	t.Helper()
	accounts := f.store.(store.Accounts)
	hash, _ := auth.HashPassword("a long password")
	user, err := accounts.CreateUser(context.Background(), name, role, hash)
	if err != nil {
		t.Fatal(err)
	}
	tok, tokenHash := auth.NewToken()
	if _, err := accounts.CreateToken(context.Background(), store.Token{UserID: user.ID, Name: "script", Hash: tokenHash}); err != nil {
		t.Fatal(err)
	}
	return "Bearer " + tok
}

// Every route of the API is documented in api.md, with a heading of its
// method and path.
func TestAPIDocumented(t *testing.T) {
	doc, err := os.ReadFile("api.md")
	if err != nil {
		t.Fatal(err)
	}
	s := New(nil, Config{})
	routes := append(append(append(s.routes(), s.launchRoutes()...), s.writeRoutes()...), s.queueRoutes()...)
	method := regexp.MustCompile(`^(GET|POST|PUT|DELETE) (/api/.+)$`)
	for _, rt := range routes {
		m := method.FindStringSubmatch(rt.pattern)
		if m == nil {
			continue
		}
		if heading := fmt.Sprintf("## `%s %s`", m[1], m[2]); !strings.Contains(string(doc), heading+"\n") {
			t.Errorf("api.md has no heading %s", heading)
		}
	}
}

// An editor changes a queue in its page's form, adds what its filter
// chooses since, and deletes it; its labels stay.
func TestQueueChangeRefreshDelete(t *testing.T) {
	f := newFixture(t, Config{})
	if res, _ := f.post("/queues", queueOfFails()); res.StatusCode != http.StatusSeeOther {
		t.Fatalf("POST /queues: %d", res.StatusCode)
	}
	if res, _ := f.post("/queues/1/items/1/labels", url.Values{"category": {"fail"}}); res.StatusCode != http.StatusSeeOther {
		t.Fatalf("a label: %d", res.StatusCode)
	}
	res, body := f.post("/queues/1", url.Values{"name": {"Fails, twice"}, "assignees": {"local, grace"}, "labels_per_item": {"2"}})
	if res.StatusCode != http.StatusSeeOther {
		t.Fatalf("POST /queues/1: %d\n%s", res.StatusCode, shortBody(body))
	}
	_, body = f.get("/queues/1")
	mustContain(t, "the queue changed", body, "<h1>Fails, twice</h1>", "<dd>2</dd>", "0 of 7 items done · 1 of 14 labels", "<td>grace</td>")
	res, body = f.post("/queues/1", url.Values{"name": {"x"}, "assignees": {"local"}, "labels_per_item": {"2"}})
	if res.StatusCode != http.StatusUnprocessableEntity || !strings.Contains(body, "2 labels per item need at least 2 people assigned") {
		t.Errorf("more labels than people: %d\n%s", res.StatusCode, shortBody(body))
	}

	c := testCase("case_002", "cancel my order")
	f.save(runInfo(&gavelSuite, base.Add(6*time.Hour)), &gavel.Run{Suite: &gavelSuite, Cases: []gavel.CaseResult{result(c, failing("case_002", 1))}}, store.Failed)
	if res, _ := f.post("/queues/1/refresh", url.Values{}); res.StatusCode != http.StatusSeeOther {
		t.Fatalf("refresh: %d", res.StatusCode)
	}
	_, body = f.get("/queues/1")
	mustContain(t, "the queue refreshed", body, "0 of 8 items done")

	if res, _ := f.post("/queues/1/delete", url.Values{}); res.StatusCode != http.StatusSeeOther || res.Header.Get("Location") != "/queues" {
		t.Fatalf("delete: %d to %s", res.StatusCode, res.Header.Get("Location"))
	}
	if res, _ := f.get("/queues/1"); res.StatusCode != http.StatusNotFound {
		t.Errorf("the deleted queue: %d, want 404", res.StatusCode)
	}
	if labels, err := f.store.Labels(context.Background(), f.latest); err != nil || len(labels) != 1 {
		t.Errorf("the labels after the queue's deletion: %d (%v), want 1", len(labels), err)
	}
}

// gavelSuite is the fixture's suite, for runs stored by a test.
var gavelSuite = gavel.Suite{Name: "support-desk", File: "examples/support-desk/gavel.yaml", Threshold: 0.8}

// On loopback, where the app's visitor may be its local user, a queue
// may be assigned to them; a name that is no user is refused.
func TestQueueAssignedToTheLocalUser(t *testing.T) {
	f := newFixture(t, Config{})
	f.srv = New(f.store, Config{Auth: auth.New(auth.Config{Accounts: f.store.(store.Accounts)})})
	f.sendJSON("POST", "/api/queues", `{"name": "mine", "assignees": ["local"]}`, http.StatusCreated, nil)
	res, body := f.send("POST", "/api/queues", `{"name": "theirs", "assignees": ["nobody"]}`, "Content-Type", "application/json")
	if res.StatusCode != http.StatusUnprocessableEntity || !strings.Contains(body, "nobody cannot label: assign users whose role is editor or admin (local)") {
		t.Errorf("a queue assigned to no user: %d %s", res.StatusCode, body)
	}
}
