package web

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/gavelhq/gavel"
	"github.com/gavelhq/gavel/store"
)

// The flaky page lists the fixture's cases that flipped over its three
// finished runs of support-desk: case_002 (PASS PASS FAIL) and case_003
// (PASS PASS FLAKY), each unstable in one run of three; the case that
// errored and the one that failed every time are stable. A case
// quarantined by hand says so.
func TestFlakyPage(t *testing.T) {
	f := newFixture(t, Config{})
	if err := f.store.(store.Quarantines).Quarantine(context.Background(), store.Quarantine{Suite: "support-desk", CaseID: "case_003", Reason: "the weekday", By: "ada"}); err != nil {
		t.Fatal(err)
	}
	resp, body := f.get("/flaky")
	if resp.StatusCode != 200 {
		t.Fatalf("status %d", resp.StatusCode)
	}
	for _, want := range []string{
		`<code>case_002</code></a></td><td class="num">33.3%</td><td><span class="badge pass">PASS</span> <span class="badge pass">PASS</span> <span class="badge fail">FAIL</span>`,
		`<code>case_003</code></a></td><td class="num">33.3%</td>`,
		"quarantined by ada: the weekday",
		`<a href="/flaky" aria-current="page">Flaky</a>`,
	} {
		if !strings.Contains(body, want) {
			t.Errorf("the page lacks %q:\n%s", want, body)
		}
	}
	if strings.Contains(body, "case_005") || strings.Contains(body, "orders/cancel 4") {
		t.Errorf("a stable case is listed")
	}
	if resp, _ := f.get("/flaky?runs=1"); resp.StatusCode != 400 {
		t.Errorf("runs=1: status %d, want 400", resp.StatusCode)
	}
}

// In Chromium, a viewer reaches the flaky page from the menu and sees the
// case that flipped.
func TestBrowserFlaky(t *testing.T) {
	tab := newBrowser(t)
	app := newBrowserApp(t)
	ctx := t.Context()
	suite := &gavel.Suite{Name: "desk", File: "desk/gavel.yaml", Threshold: 0.5}
	for i, passed := range []bool{true, false, true} {
		started := base.Add(time.Duration(i) * time.Minute)
		info, err := app.store.CreateRun(ctx, store.RunInfo{Suite: suite.Name, SuiteFile: suite.File, Threshold: 0.5, Started: started})
		if err != nil {
			t.Fatal(err)
		}
		tr := passing("refund_late", 1, 4)
		if !passed {
			tr = failing("refund_late", 1)
		}
		run := &gavel.Run{Suite: suite, Started: started, Duration: time.Second, Cases: []gavel.CaseResult{result(testCase("refund_late", "My order is late."), tr)}}
		if err := app.store.FinishRun(ctx, info.ID, store.RunEnd{Status: store.Passed, Ended: started.Add(time.Second), Run: run}); err != nil {
			t.Fatal(err)
		}
	}
	tab.login(app.url, "vera")
	tab.do("open the flaky cases from the menu",
		chromedp.Click(chromedp.CSS(`nav a[href="/flaky"]`)),
		chromedp.WaitVisible(chromedp.CSS(`table.flaky`)),
	)
	mustContain(t, "the flaky page", tab.text("main"), "refund_late", "66.7%", "PASS FAIL PASS")
}

// A run's page says which cases were left out of its gate, and why.
func TestRunPageSaysQuarantined(t *testing.T) {
	f := newFixture(t, Config{})
	suite := &gavel.Suite{Name: "support-desk", Threshold: 0.8}
	cr := result(testCase("case_002", "cancel my order 12345"), failing("case_002", 1))
	cr.Quarantined = "quarantined by ada: the weekday"
	id := f.save(runInfo(suite, base.Add(5*time.Hour)), &gavel.Run{Suite: suite, Cases: []gavel.CaseResult{cr}}, store.Failed)
	_, body := f.get("/runs/" + id)
	if want := "Quarantined: case_002 (quarantined by ada: the weekday): FAIL, left out of the gate"; !strings.Contains(body, want) {
		t.Errorf("the run page lacks %q", want)
	}
}
