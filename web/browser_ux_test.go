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

// An editor changes what the user says in a case, and reads on the
// case's page what changed: the old line marked removed, the new one
// added, the lines around them unchanged.
func TestBrowserVersionDifference(t *testing.T) {
	tab := newBrowser(t)
	app := newBrowserApp(t)
	tab.login(app.url, "eddie")

	tab.do("write a case",
		chromedp.Navigate(app.url+"/cases/new?suite=desk"),
		chromedp.SendKeys(chromedp.CSS(`input[name="id"]`), "late_order"),
		chromedp.SendKeys(chromedp.CSS(`input[name="name"]`), "A late order"),
		chromedp.SendKeys(chromedp.CSS(`textarea[name="prompt"]`), "My order is late."),
		chromedp.SendKeys(chromedp.CSS(`textarea[name="judge_prompt"]`), "Apologizes."),
		chromedp.Click(chromedp.CSS(`form.case-form button.save`)),
		chromedp.WaitVisible(chromedp.CSS(`section.version`)),
	)
	tab.do("change what the user says",
		chromedp.Click(chromedp.CSS(`p.actions a[href$="/edit"]`)),
		chromedp.WaitVisible(chromedp.CSS(`textarea[name="prompt"]`)),
		chromedp.SetValue(chromedp.CSS(`textarea[name="prompt"]`), "My order is a week late."),
		chromedp.Click(chromedp.CSS(`form.case-form button.save`)),
		chromedp.WaitVisible(chromedp.CSS(`section.version`)),
	)
	if n := tab.count(`section.version pre.diff`); n != 1 {
		t.Fatalf("the case's page shows %d differences between versions, want 1:\n%s", n, tab.text("main"))
	}
	mustContain(t, "the latest version", tab.text("section.version"), "Version 2 (latest)", "Changes from version 1", "1 line removed, 1 added")
	if got, want := tab.text("pre.diff del"), "- input: My order is late."; got != want {
		t.Errorf("the removed line reads %q, want %q", got, want)
	}
	if got, want := tab.text("pre.diff ins"), "+ input: My order is a week late."; got != want {
		t.Errorf("the added line reads %q, want %q", got, want)
	}
	// The marks are seen, not only in the markup: the lines are colored
	// apart from the unchanged ones.
	colors := readPage(tab, "the lines' colors", chromedp.Evaluate[[]string](`['pre.diff del', 'pre.diff ins', 'pre.diff > span'].map(s => getComputedStyle(document.querySelector(s)).backgroundColor)`))
	if len(colors) != 3 || colors[0] == colors[2] || colors[1] == colors[2] || colors[0] == colors[1] {
		t.Errorf("the removed, added and unchanged lines' backgrounds are %v: want three apart", colors)
	}
	mustContain(t, "the unchanged lines", tab.text("pre.diff"), "name: A late order")
}
