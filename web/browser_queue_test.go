package web

import (
	"context"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/gavelhq/gavel"
	"github.com/gavelhq/gavel/auth"
	"github.com/gavelhq/gavel/store"
)

// Two editors label the same queue of FAIL results: eddie makes it and
// labels by keyboard shortcuts, edna by clicking the plain form; no
// radio is chosen for them on a FAIL result, neither sees the other's
// labels, and the queue's page shows its progress and their agreement.
func TestBrowserQueue(t *testing.T) {
	tab := newBrowser(t)
	app := newBrowserApp(t)
	hash, err := auth.HashPassword(browserPassword)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := app.store.(store.Accounts).CreateUser(context.Background(), "edna", store.Editor, hash); err != nil {
		t.Fatal(err)
	}
	runID := saveFailingRun(t, app.store, "case_001", "case_002", "case_003")

	tab.login(app.url, "eddie")
	tab.do("create a queue",
		chromedp.Navigate(app.url+"/queues"),
		chromedp.SendKeys(chromedp.CSS(`form.queue-form input[name="name"]`), "Fails of desk"),
		chromedp.Click(chromedp.CSS(`input[name="verdict"][value="FAIL"]`)),
		chromedp.SendKeys(chromedp.CSS(`input[name="assignees"]`), "eddie, edna"),
		chromedp.SendKeys(chromedp.CSS(`input[name="labels_per_item"]`), "2"),
		chromedp.Click(chromedp.CSS(`form.queue-form button[type="submit"]`)),
		chromedp.WaitVisible(chromedp.CSS(`section.progress`)),
	)
	mustContain(t, "the new queue", tab.text("main"), "FAIL verdicts", "0 of 3 items done", "eddie", "edna")

	// The case's page chooses nothing either, judges' forms included.
	tab.do("open a FAIL result", chromedp.Navigate(app.url+caseResultHref(runID, "case_001")), chromedp.WaitVisible(chromedp.CSS(`form.trial-label`)))
	if n := tab.count(`form.label-form input:checked`) + tab.count(`form.label-form select`); n != 0 {
		t.Errorf("the case's page: %d label choices made for the person, want none", n)
	}

	tab.do("start labelling", chromedp.Navigate(app.url+"/queues/1"), chromedp.Click(chromedp.CSS(`a.button[href$="/next?after=0"]`)),
		chromedp.WaitVisible(chromedp.CSS(`form.trial-label`)))
	if got := tab.text("h1 .badge"); got != "FAIL" {
		t.Errorf("the first item's verdict reads %q, want FAIL", got)
	}
	if n := tab.count(`input[type=radio]:checked`); n != 0 {
		t.Errorf("%d radios are chosen on a FAIL result, want none", n)
	}
	if n := tab.count(`form.label-form`) - tab.count(`details.label-judges form.label-form`); n != 1 {
		t.Errorf("%d label forms outside the judges' disclosure, want 1", n)
	}
	tab.do("show the shortcuts", chromedp.KeyEvent("?"))
	if !readPage(tab, "the shortcuts' help", chromedp.Evaluate[bool](`document.getElementById("shortcuts").open`)) {
		t.Error("? did not show the keyboard shortcuts")
	}
	for i, key := range []string{"f", "p", "f"} {
		next := `form[action="/queues/1/items/` + string(rune('2'+i)) + `/labels"]`
		if i == 2 {
			next = `p.notice` // the queue's page: done
		}
		tab.do("label item "+string(rune('1'+i))+" by keys", chromedp.KeyEvent(key), chromedp.KeyEvent("n"), chromedp.WaitVisible(chromedp.CSS(next)))
	}
	mustContain(t, "the queue after eddie", tab.text("main"), "You have labelled every item", "0 of 3 items done · 3 of 6 labels",
		"No item has labels by two people yet")

	tab.do("log out", chromedp.Click(chromedp.CSS(`form.who button`)), chromedp.WaitVisible(chromedp.CSS(`form[action="/login"]`)))
	tab.login(app.url, "edna")
	tab.do("start labelling", chromedp.Navigate(app.url+"/queues/1"), chromedp.Click(chromedp.CSS(`a.button[href$="/next?after=0"]`)),
		chromedp.WaitVisible(chromedp.CSS(`form.trial-label`)))
	mustNotContain(t, "edna's first item", tab.text("main"), "eddie")
	for i := range 3 {
		next := `form[action="/queues/1/items/` + string(rune('2'+i)) + `/labels"]`
		if i == 2 {
			next = `p.notice`
		}
		tab.do("label an item by hand",
			chromedp.Click(chromedp.CSS(`form.trial-label input[value="fail"]`)),
			chromedp.Click(chromedp.CSS(`form.trial-label button[type="submit"]`)),
			chromedp.WaitVisible(chromedp.CSS(next)),
		)
	}
	// eddie said fail, pass, fail; edna fail three times: 2 of 3 agreed,
	// and kappa 0, since edna's one category is all chance explains.
	mustContain(t, "the queue after both", tab.text("main"), "3 of 3 items done · 6 of 6 labels", "eddie\t3 of 3", "edna\t3 of 3",
		"2 people labelled; 3 items have two labels or more", "eddie and edna: 2 of 3 (66.7%), kappa 0.00")
}

// saveFailingRun stores a finished run of suite desk whose cases each
// failed their one trial, and returns its id.
func saveFailingRun(t *testing.T, st store.Store, cases ...string) string {
	t.Helper()
	ctx := context.Background()
	suite := &gavel.Suite{Name: "desk", File: "desk.yaml", Threshold: 1}
	run := &gavel.Run{Suite: suite, Started: base, Duration: time.Minute}
	for _, id := range cases {
		run.Cases = append(run.Cases, result(testCase(id, "cancel my order"), failing(id, 1)))
	}
	info, err := st.CreateRun(ctx, runInfo(suite, base))
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range run.Cases {
		if err := st.SaveTrial(ctx, info.ID, store.TrialRecord{Trial: c.Trials[0]}); err != nil {
			t.Fatal(err)
		}
	}
	if err := st.FinishRun(ctx, info.ID, store.RunEnd{Status: store.Failed, Ended: base.Add(time.Minute), Run: run}); err != nil {
		t.Fatal(err)
	}
	return info.ID
}
