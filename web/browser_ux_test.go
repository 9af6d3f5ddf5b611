package web

import (
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

// An editor starts a run from the runs list's button: the form shows
// each field on its own line with its hint under it, and Start opens
// the run's page.
func TestBrowserStartRunFromButton(t *testing.T) {
	tab := newBrowser(t)
	app := newBrowserApp(t)
	tab.login(app.url, "eddie")

	tab.do("press Start a run on the runs list",
		chromedp.Navigate(app.url+"/runs"),
		chromedp.WaitVisible(chromedp.CSS(`main`)),
	)
	if n := tab.count(`main a.button[href="/runs/new"]`); n != 1 {
		t.Fatalf("the runs list has %d Start a run buttons, want 1:\n%s", n, tab.text("main"))
	}
	tab.do("open the form",
		chromedp.Click(chromedp.CSS(`main a.button[href="/runs/new"]`)),
		chromedp.WaitVisible(chromedp.CSS(`form[action="/runs"]`)),
	)
	// Each field on its own line: every label below the one before, and
	// each hint below its field.
	layout := readPage(tab, "the form's layout", chromedp.Evaluate[string](`(() => {
		const out = [];
		let prev = null;
		for (const l of document.querySelectorAll('form[action="/runs"] label')) {
			const r = l.getBoundingClientRect();
			if (prev && r.top < prev.bottom - 1) out.push(l.textContent.trim().split(' ')[0] + ' is on the line of the field before');
			prev = r;
			const input = l.querySelector('input, select'), hint = l.querySelector('.hint');
			if (input && hint && hint.getBoundingClientRect().top < input.getBoundingClientRect().bottom - 1) out.push('the hint of ' + input.name + ' is beside it, not under it');
		}
		return out.join('; ');
	})()`))
	if layout != "" {
		t.Errorf("the form's layout: %s", layout)
	}
	tab.do("start the run",
		chromedp.Click(chromedp.CSS(`form[action="/runs"] button[type="submit"]`)),
		chromedp.WaitVisible(chromedp.CSS(`a[href$="/cases/greeting"]`)),
	)
	if got := tab.location(); !strings.HasPrefix(got, app.url+"/runs/") || strings.HasSuffix(got, "/runs/new") {
		t.Errorf("after Start: at %s, want the run's page", got)
	}
	mustContain(t, "the run's page", tab.text("main"), "desk", "greeting")
}
