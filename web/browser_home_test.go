package web

import (
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/gavelhq/gavel"
	"github.com/gavelhq/gavel/store"
)

// A run that has just started shows its progress, not a red "Pass rate
// 0%" that "does not pass": on its page, and on the home page, whose
// "Running now" follows it as its trials are saved, without a reload.
func TestBrowserRunJustStarted(t *testing.T) {
	tab := newBrowser(t)
	app := newBrowserApp(t)
	suite := &gavel.Suite{Name: "desk", File: "testdata/desk/gavel.yaml", Threshold: 0.8}
	created, err := app.store.CreateRun(t.Context(), store.RunInfo{Suite: suite.Name, SuiteFile: suite.File, Threshold: 0.8,
		Label: "warmer greeting", StartedBy: "eddie"})
	if err != nil {
		t.Fatal(err)
	}
	tab.login(app.url, "vera")

	tab.do("open the run", chromedp.Navigate(app.url+"/runs/"+created.ID), chromedp.WaitVisible(chromedp.CSS(`p.headline`)))
	page := tab.text("main")
	mustContain(t, "the page of a run just started", page, "warmer greeting · by eddie", "Running · 0 trials so far")
	mustNotContain(t, "the page of a run just started", page, "Pass rate 0%", "does not pass", "FAIL")
	if n := tab.count(`main .unmet`); n != 0 {
		t.Errorf("the page of a run just started has %d numbers in red", n)
	}

	tab.do("open the home page", chromedp.Navigate(app.url+"/"), chromedp.WaitVisible(chromedp.CSS(`#running`)))
	mustContain(t, "running now", tab.text("#running"), "warmer greeting · by eddie", "0 (0 trials so far)")
	if err := app.store.SaveTrial(t.Context(), created.ID, store.TrialRecord{Trial: failing("case_002", 1)}); err != nil {
		t.Fatal(err)
	}
	tab.do("wait for the home page to follow the run",
		chromedp.Poll[chromedp.Void](`document.querySelector('#running').innerText.includes('1 (1 trial so far)')`))
	if got := tab.text("#running"); strings.Contains(got, "0%") {
		t.Errorf("running now reads %q: no pass rate before the verdict", got)
	}
}
