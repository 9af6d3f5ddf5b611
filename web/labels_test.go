package web

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/gavelhq/gavel"
	"github.com/gavelhq/gavel/auth"
	"github.com/gavelhq/gavel/judge"
	"github.com/gavelhq/gavel/report"
	"github.com/gavelhq/gavel/store"
)

func TestLabels(t *testing.T) {
	f := newFixture(t, Config{})
	path := "/runs/" + f.latest + "/cases/case_002"

	_, body := f.get(path)
	mustContain(t, "before", body, `action="`+path+`/labels"`, `name="trial" value="2"`, "No one has labelled this trial")

	res, _ := f.post(path+"/labels", url.Values{"trial": {"2"}, "verdict": {"wrong"}, "score": {"0.25"}, "comment": {evil}})
	if res.StatusCode != http.StatusSeeOther || res.Header.Get("Location") != path+"#trial-2" {
		t.Fatalf("POST a label: %d to %q", res.StatusCode, res.Header.Get("Location"))
	}
	if res, _ := f.post(path+"/labels", url.Values{"trial": {"1"}, "verdict": {"correct"}}); res.StatusCode != http.StatusSeeOther {
		t.Fatalf("POST a label without a score: %d", res.StatusCode)
	}
	// Another case's label is not listed here.
	if res, _ := f.post("/runs/"+f.latest+"/cases/case_001/labels", url.Values{"trial": {"1"}, "verdict": {"wrong"}, "comment": {"other case"}}); res.StatusCode != http.StatusSeeOther {
		t.Fatalf("POST a label of case_001: %d", res.StatusCode)
	}

	labels, err := f.store.Labels(context.Background(), f.latest)
	if err != nil || len(labels) != 3 {
		t.Fatalf("labels: %+v, %v", labels, err)
	}
	if l := labels[0]; l.CaseID != "case_002" || l.Trial != 2 || l.Verdict != "wrong" || l.Score == nil || *l.Score != 0.25 ||
		l.Comment != evil || l.Author != "local" {
		t.Errorf("label: %+v", l)
	}
	if labels[1].Score != nil {
		t.Errorf("a label without a score has one: %v", *labels[1].Score)
	}

	_, body = f.get(path)
	mustContain(t, "after", body, "<strong>wrong</strong> · score 0.25 · local", "&lt;script&gt;alert(1)&lt;/script&gt;", "<strong>correct</strong> · local")
	mustNotContain(t, "after", body, evil, "other case")

	for _, tc := range []struct {
		name   string
		form   url.Values
		status int
		want   string
	}{
		{"no verdict", url.Values{"trial": {"1"}}, http.StatusUnprocessableEntity, "correct or wrong"},
		{"score out of range", url.Values{"trial": {"1"}, "verdict": {"correct"}, "score": {"1.5"}}, http.StatusUnprocessableEntity, "not a number from 0 to 1"},
		{"bad trial", url.Values{"trial": {"x"}, "verdict": {"correct"}}, http.StatusBadRequest, "not a trial"},
		{"no such trial", url.Values{"trial": {"9"}, "verdict": {"correct"}}, http.StatusNotFound, "has no trial 9"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res, body := f.post(path+"/labels", tc.form)
			if res.StatusCode != tc.status {
				t.Errorf("status %d, want %d", res.StatusCode, tc.status)
			}
			mustContain(t, tc.name, body, tc.want)
		})
	}
	if res, _ := f.post("/runs/nope/cases/case_002/labels", url.Values{"trial": {"1"}, "verdict": {"correct"}}); res.StatusCode != http.StatusNotFound {
		t.Errorf("a label of no run: %d, want 404", res.StatusCode)
	}
}

// Each judgment of a verdict's tree has a label form; a label on a
// judge of the jury is saved with its path; labelling again replaces the
// visitor's label (the earlier one kept in the history), and the visitor
// may delete it.
func TestLabelJudgments(t *testing.T) {
	f := newFixture(t, Config{})
	path := "/runs/" + f.latest + "/cases/case_002"
	_, body := f.get(path)
	mustContain(t, "the tree", body,
		`name="judgment" value=""`, `name="judgment" value="tiered/jury/tone"`, `name="judgment" value="tiered/jury/helpfulness"`)
	// Each judge's form offers its scale: tone its categories, helpfulness
	// 1..5, the jury's 0..1 aggregate no numbers.
	for path, want := range map[string][]string{
		"tiered/jury/tone":        {"pass", "fail", "cold", "warm"},
		"tiered/jury/helpfulness": {"pass", "fail", "1", "2", "3", "4", "5"},
		"tiered/jury":             {"pass", "fail"},
	} {
		_, form, _ := strings.Cut(body, `name="judgment" value="`+path+`"`)
		form, _, _ = strings.Cut(form, "</form>")
		var got []string
		for _, radio := range strings.Split(form, `type="radio" name="category" value="`)[1:] {
			value, _, _ := strings.Cut(radio, `"`)
			got = append(got, value)
		}
		if strings.Join(got, ",") != strings.Join(want, ",") {
			t.Errorf("the form of %s offers %v, want %v", path, got, want)
		}
	}

	label := func(form url.Values, status int) {
		t.Helper()
		form.Set("trial", "1")
		if res, body := f.post(path+"/labels", form); res.StatusCode != status {
			t.Fatalf("POST %v: %d, want %d\n%s", form, res.StatusCode, status, body)
		}
	}
	label(url.Values{"judgment": {"tiered/jury/tone"}, "category": {"cold"}}, http.StatusSeeOther)
	label(url.Values{"judgment": {"tiered/jury/tone"}, "category": {"warm"}, "comment": {"on second thought"}}, http.StatusSeeOther)
	label(url.Values{"category": {"fail"}}, http.StatusSeeOther)
	label(url.Values{"judgment": {"tiered/jury/nobody"}, "category": {"pass"}}, http.StatusUnprocessableEntity)
	label(url.Values{"category": {"pass"}, "verdict": {"correct"}}, http.StatusUnprocessableEntity)

	ctx := context.Background()
	labels, err := f.store.Labels(ctx, f.latest)
	if err != nil || len(labels) != 2 {
		t.Fatalf("current labels: %+v, %v; want 2", labels, err)
	}
	tone := labels[0]
	if tone.Judgment != "tiered/jury/tone" || tone.Category != "warm" || tone.Author != "local" {
		t.Errorf("the tone label: %+v", tone)
	}
	history, err := f.store.LabelHistory(ctx, f.latest)
	if err != nil || len(history) != 3 || history[0].Replaced.IsZero() {
		t.Errorf("history: %+v, %v; want 3, the first replaced", history, err)
	}
	_, body = f.get(path)
	mustContain(t, "labelled", body, "<code>tiered/jury/tone</code>: <strong>warm</strong>", `<span class="label-chip"><strong>warm</strong> · local</span>`,
		fmt.Sprintf(`action="%s/labels/%d/delete"`, path, tone.ID))

	if res, _ := f.post(fmt.Sprintf("%s/labels/%d/delete", path, tone.ID), url.Values{}); res.StatusCode != http.StatusSeeOther {
		t.Fatalf("delete: %d", res.StatusCode)
	}
	if res, _ := f.post(fmt.Sprintf("%s/labels/%d/delete", path, tone.ID), url.Values{}); res.StatusCode != http.StatusNotFound {
		t.Errorf("delete again: %d, want 404", res.StatusCode)
	}
	if labels, _ := f.store.Labels(ctx, f.latest); len(labels) != 1 {
		t.Errorf("after the delete: %d current labels, want 1", len(labels))
	}
}

// Through the API: a category label on a judge of a jury, the history,
// and a delete that only the label's author may make.
func TestAPILabelJudgments(t *testing.T) {
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
	ada, bob := token("ada", store.Editor), token("bob", store.Editor)
	labels := "/api/runs/" + f.latest + "/cases/case_002/labels"
	var first, second Label
	f.sendJSON("POST", labels, `{"trial": 1, "judgment": "tiered/jury/helpfulness", "category": "2"}`, http.StatusCreated, &first, "Authorization", ada)
	f.sendJSON("POST", labels, `{"trial": 1, "judgment": "tiered/jury/helpfulness", "category": "4.0"}`, http.StatusCreated, &second, "Authorization", ada)
	if second.Category != "4" || second.Judgment != "tiered/jury/helpfulness" || second.ID == first.ID {
		t.Errorf("relabelled: %+v", second)
	}
	var list LabelList
	f.sendJSON("GET", "/api/runs/"+f.latest+"/labels?history=1", "", http.StatusOK, &list, "Authorization", bob)
	if len(list.Labels) != 2 || list.Labels[0].Replaced == nil || list.Labels[1].Replaced != nil {
		t.Errorf("history: %+v", list.Labels)
	}
	del := fmt.Sprintf("/api/runs/%s/labels/%d", f.latest, second.ID)
	f.sendJSON("DELETE", del, "", http.StatusForbidden, nil, "Authorization", bob)
	var gone Label
	f.sendJSON("DELETE", del, "", http.StatusOK, &gone, "Authorization", ada)
	if !gone.Deleted {
		t.Errorf("deleted: %+v", gone)
	}
	f.sendJSON("GET", "/api/runs/"+f.latest+"/labels", "", http.StatusOK, &list, "Authorization", bob)
	if len(list.Labels) != 0 {
		t.Errorf("current labels after the delete: %+v", list.Labels)
	}
}

// A label must be on the labelled judgment's scale, through the form and
// the API alike (issue 22: maybe on a pass/fail verdict was recorded and
// changed the kappa), and labels on judgments Gavel's cache answered
// count (108 labels in the web app, 2 counted).
func TestLabelsOnTheJudgmentsScale(t *testing.T) {
	f := newFixture(t, Config{})
	path := "/runs/" + f.latest + "/cases/case_002"
	for _, tc := range []struct {
		name string
		form url.Values
		want string
	}{
		{"maybe on the verdict", url.Values{"category": {"maybe"}}, "trial 1 of case case_002: &#34;maybe&#34; is not a category of the verdict: pass or fail"},
		{"0.5 on the verdict", url.Values{"category": {"0.5"}}, "&#34;0.5&#34; is not a category of the verdict"},
		{"7 of 1..5", url.Values{"judgment": {"tiered/jury/helpfulness"}, "category": {"7"}}, "pass, fail, 1, 2, 3, 4 or 5"},
		{"a judgment the verdict lacks", url.Values{"judgment": {"tiered/jury/nobody"}, "category": {"pass"}}, "the verdict has no judgment &#34;tiered/jury/nobody&#34;"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tc.form.Set("trial", "1")
			res, body := f.post(path+"/labels", tc.form)
			if res.StatusCode != http.StatusUnprocessableEntity {
				t.Errorf("status %d, want 422", res.StatusCode)
			}
			mustContain(t, tc.name, body, tc.want)
		})
	}
	res, body := f.send("POST", "/api"+path+"/labels", `{"trial": 1, "category": "win"}`, "Content-Type", "application/json")
	if res.StatusCode != http.StatusUnprocessableEntity || !strings.Contains(body, `\"win\" is not a category of the verdict`) {
		t.Errorf("API: a label win on a pass/fail verdict: %d %s, want 422 saying so", res.StatusCode, body)
	}
	if labels, err := f.store.Labels(context.Background(), f.latest); err != nil || len(labels) != 0 {
		t.Errorf("after refused labels: %+v, %v; want none", labels, err)
	}

	// A run whose judges were answered from Gavel's cache: each model
	// judgment records its call and no tokens.
	cached := passing("case_001", 1, 4)
	cachedUsage := judge.Usage{Calls: 1, CacheHits: 1}
	cached.Verdict.Usage, cached.Verdict.Parts[1].Usage = cachedUsage.Add(cachedUsage), cachedUsage.Add(cachedUsage)
	cached.Verdict.Parts[1].Parts[0].Usage, cached.Verdict.Parts[1].Parts[1].Usage = cachedUsage, cachedUsage
	cached.Usage.Judge = cached.Verdict.Usage
	suite := &gavel.Suite{Name: "replayed", File: "replayed.yaml", Threshold: 1}
	id := f.save(runInfo(suite, base.Add(5*time.Hour)), &gavel.Run{Suite: suite, Cases: []gavel.CaseResult{result(testCase("case_001", "hi"), cached)}}, store.Passed)
	labels := "/api/runs/" + id + "/cases/case_001/labels"
	f.sendJSON("POST", labels, `{"trial": 1, "category": "pass"}`, http.StatusCreated, nil)
	f.sendJSON("POST", labels, `{"trial": 1, "judgment": "tiered/jury/helpfulness", "category": "3"}`, http.StatusCreated, nil)
	var c report.JSONCalibration
	f.getJSON("/api/calibration?suite=replayed", http.StatusOK, &c)
	if c.Labels != 2 || c.Counted != 2 || c.Agreed != 1 {
		t.Errorf("labels on judgments the cache answered: %d labels, %d counted, %d agreed; want 2, 2, 1", c.Labels, c.Counted, c.Agreed)
	}
}

// A trial has one label form, for its verdict; the judges of its jury
// and tiers have theirs behind "Show the judges", and the verdict's
// tree has none (issue 28: every node of the tree had its own form).
func TestOneLabelFormPerTrial(t *testing.T) {
	f := newFixture(t, Config{})
	_, body := f.get("/runs/" + f.latest + "/cases/case_002")
	trials := strings.Split(body, `<section class="trial"`)[1:]
	if len(trials) != 2 {
		t.Fatalf("%d trials on the page, want 2", len(trials))
	}
	for i, trial := range trials {
		mine, judges, ok := strings.Cut(trial, `<details class="label-judges">`)
		if !ok {
			t.Errorf("trial %d: no disclosure of the judges' label forms:\n%s", i+1, shortBody(trial))
			continue
		}
		if n := strings.Count(mine, "<form"); n != 1 {
			t.Errorf("trial %d: %d forms outside the judges' disclosure, want 1: the trial's own", i+1, n)
		}
		mustContain(t, fmt.Sprintf("trial %d's judges", i+1), judges, "<summary>Show the judges</summary>",
			`name="judgment" value="tiered/jury/tone"`, `name="judgment" value="tiered/jury/helpfulness"`)
	}
}

// No label form chooses for the person: on a FAIL result no radio is
// checked and no select offers "pass" as its first, chosen option (issue
// 28: "pass" was preselected on FAIL results).
func TestNoLabelPreselected(t *testing.T) {
	f := newFixture(t, Config{})
	_, body := f.get("/runs/" + f.latest + "/cases/case_002") // both trials FAIL
	mustContain(t, "a FAIL result's label forms", body, `<input type="radio" name="category" value="pass" required>`,
		`<input type="radio" name="category" value="fail">`)
	mustNotContain(t, "a FAIL result's label forms", body, "checked", "<select")
}
