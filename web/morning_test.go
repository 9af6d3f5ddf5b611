package web

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

// A PM's morning, in headless Chromium, by clicks and keys only (the
// first page aside): the home page's newest regression, its case's
// result and why it failed, a queue of failures made in the queues'
// form, the next item labelled by keyboard shortcuts with a note, and
// the regression's run compared with its baseline. Every page passes
// axe-core; with -screens, each is saved as testdata/screens/morning-*.png
// (the desktop look only), as TestScreens saves the app's pages.
func TestBrowserPMMorning(t *testing.T) {
	script := axeScript(t)
	tab := newBrowserWithin(t, pagesTimeout)
	f, url := newPagesApp(t)
	desktop := looks[0]
	tab.seeAs(desktop)
	tab.login(url, "eddie")

	// seen checks the page the tab shows, as the PM sees it: it reads
	// want, breaks no rule of axe-core, and with -screens is saved as
	// morning-<name>.png, from the element from matches ("" for the
	// page's top).
	seen := func(name, from string, want ...string) {
		t.Helper()
		tab.holdStill()
		mustContain(t, name+" ("+tab.location()+")", tab.text("main"), want...)
		for _, v := range tab.axe(script) {
			t.Errorf("%s (%s): %s", name, tab.location(), v)
		}
		if *screens {
			path := filepath.Join(screensDir, "morning-"+name+".png")
			if err := os.WriteFile(path, compressPNG(t, tab.screenshot(desktop, from)), 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}

	// 1. Home: what regressed overnight.
	tab.do("open the home page", chromedp.Navigate(url+"/"), chromedp.WaitVisible(chromedp.CSS(`section.regressions`)))
	mustContain(t, "the newest regression", tab.text(`section.regressions tbody tr`), "case_002", "support-desk", "shorter system prompt", "nightly")
	seen("1-home", "", "Newest regressions", "case_002")

	// 2. The regression's case: why it failed.
	tab.do("open the newest regression",
		chromedp.Click(chromedp.CSS(`section.regressions tbody tr td:first-child a`)),
		chromedp.WaitVisible(chromedp.CSS(`section.trial`)),
	)
	if got, want := tab.location(), url+caseResultHref(f.latest, "case_002"); got != want {
		t.Fatalf("the regression's link led to %s, want %s", got, want)
	}
	seen("2-case", "", "FAIL", "case_002", "shorter system prompt", "called forbidden tool cancel_order")

	// 3. A queue of the suite's failures, made in the form.
	tab.do("make a queue of failures",
		chromedp.Click(chromedp.CSS(`nav a[href="/queues"]`)),
		chromedp.WaitVisible(chromedp.CSS(`form.queue-form`)),
		chromedp.SendKeys(chromedp.CSS(`form.queue-form input[name="name"]`), "Support desk failures"),
		chromedp.SetValue(chromedp.CSS(`form.queue-form select[name="suite"]`), "support-desk"),
		chromedp.Click(chromedp.CSS(`input[name="verdict"][value="FAIL"]`)),
		chromedp.SendKeys(chromedp.CSS(`input[name="assignees"]`), "eddie"),
		chromedp.Click(chromedp.CSS(`form.queue-form button[type="submit"]`)),
		chromedp.WaitVisible(chromedp.CSS(`section.progress`)),
	)
	seen("3-queue", "", "Support desk failures", "FAIL verdicts", "0 of 5 items done")

	// 4. The next item, labelled by keys with a note.
	tab.do("take the next item",
		chromedp.Click(chromedp.CSS(`nav a[href="/queues"]`)),
		chromedp.WaitVisible(chromedp.CSS(`table.queues`)),
		chromedp.Click(chromedp.CSS(`table.queues a.button`)),
		chromedp.WaitVisible(chromedp.CSS(`form.trial-label`)),
	)
	tab.do("go to the note", tab.press('c'))
	if got := readPage(tab, "the focus", chromedp.Evaluate[string](`document.activeElement.name || ""`)); got != "comment" {
		t.Errorf("after c, the focus is on %q, want the note", got)
	}
	tab.do("write a note and choose fail",
		chromedp.SendKeys(chromedp.CSS(`form.trial-label textarea[name="comment"]`), "cancels an order that shipped"),
		chromedp.KeyEvent("\x1b"), // Esc leaves the note
		chromedp.KeyEvent("f"),
	)
	if got := readPage(tab, "the label chosen", chromedp.Evaluate[string](`(document.querySelector('form.trial-label input[name="category"]:checked') || {}).value || ""`)); got != "fail" {
		t.Errorf("after f, the label chosen is %q, want fail", got)
	}
	if got := readPage(tab, "the note", chromedp.Evaluate[string](`document.querySelector('form.trial-label textarea[name="comment"]').value`)); got != "cancels an order that shipped" {
		t.Errorf("the note reads %q, want what was typed after c", got)
	}
	seen("4-review", "#label", "item 1 of 5", "FAIL", "The trial should")
	tab.do("save the label", chromedp.KeyEvent("n"), chromedp.WaitVisible(chromedp.CSS(`p.crumbs`)))
	mustContain(t, "the next item", tab.text("p.crumbs"), "item 2 of 5", "you have labelled 1 of its 5 items")
	tab.do("back to the queue",
		chromedp.Click(chromedp.CSS(`p.crumbs a[href^="/queues/"]`)),
		chromedp.WaitVisible(chromedp.CSS(`section.progress`)),
	)
	mustContain(t, "the queue's progress", tab.text("section.progress"), "1 of 5 items done · 1 of 5 labels", "eddie\t1 of 5")

	// 5. The regression's run against its baseline.
	tab.do("open the regression's run",
		chromedp.Click(chromedp.CSS(`nav a[href="/"]`)),
		chromedp.WaitVisible(chromedp.CSS(`section.regressions`)),
		chromedp.Click(chromedp.CSS(`section.regressions tbody tr td:nth-child(3) a.run-name`)),
		chromedp.WaitVisible(chromedp.CSS(`form.compare-picker`)),
	)
	mustContain(t, "the run's compare picker", tab.text(`form.compare-picker`), "Compare with", "its baseline")
	tab.do("compare it with its baseline",
		chromedp.Click(chromedp.CSS(`form.compare-picker button[type="submit"]`)),
		chromedp.WaitVisible(chromedp.CSS(`p.compared`)),
	)
	mustContain(t, "the comparison", tab.text(`p.compared`), "nightly", "shorter system prompt")
	mustContain(t, "the comparison's regressions", tab.text(`section.regressions`), "case_002", "PASS 1/1", "FAIL 0/2",
		"called forbidden tool cancel_order")
	seen("5-compare", "", "Regressions (2)")
}

// holdStill stops htmx's requests on the page the tab shows (the home
// page follows the runs under way every few seconds), so that axe-core
// and the screenshot see one page.
func (b *browserTab) holdStill() {
	b.t.Helper()
	b.do("hold the page still",
		chromedp.Evaluate[chromedp.Void](`document.body.addEventListener('htmx:beforeRequest', e => e.preventDefault())`))
}

// press presses a key as a keyboard does: a raw key down, then its
// character, then key up. chromedp.KeyEvent sends a key down that the
// browser does not treat as a keyboard's, so a shortcut that prevents
// its key's default (c, which moves to the note) still gets its
// character typed where it moved to; a person's key does not.
func (b *browserTab) press(key rune) chromedp.Action[chromedp.Void] {
	return chromedp.Func(func(ctx context.Context, t *chromedp.Target) error {
		for _, e := range kb.Encode(key) {
			if e.Type == kb.KeyDown {
				e.Type = input.DispatchKeyEventTypeRawKeyDown
			}
			if _, err := cdp.Call(ctx, t, input.DispatchKeyEvent, *e); err != nil {
				return err
			}
		}
		return nil
	})
}
