package web

import (
	"context"
	"fmt"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"

	"github.com/gavelhq/gavel/auth"
	"github.com/gavelhq/gavel/judge"
	"github.com/gavelhq/gavel/store"
	"github.com/gavelhq/gavel/store/sqlite"
)

// The whole app, page by page, in headless Chromium: every page passes
// axe-core (the accessibility engine of Deque, installed from npm by
// testdata/install-axe.sh) with no violation, on a desktop in the light
// scheme and on a phone in the dark one, and no page is wider than a
// phone. screens_test.go takes the screenshots of the same pages.

// axeVersion is the axe-core testdata/install-axe.sh installs.
const axeVersion = "4.14.1"

// pagesTimeout bounds a test that visits every page in every look.
const pagesTimeout = 4 * time.Minute

// An appPage is a page of the app that the tests of the whole app visit.
type appPage struct {
	name string // its screenshots' file name: "case-result"
	path string
	// ready is a CSS selector visible once the page is drawn; "" waits
	// for main.
	ready string
	// screen is true for the pages a reviewer sees in screenshots; the
	// others are visited for their accessibility only. from, when set, is
	// a CSS selector of what the screenshots show first; "" shows the
	// page's top.
	screen bool
	from   string
}

// appPages are the pages of the app, one of each kind, over the
// fixture's runs, as its editor sees them. A new page gets a line here.
func appPages(f *fixture) []appPage {
	queue := fmt.Sprintf("/queues/%d", reviewQueue(f))
	return []appPage{
		{name: "home", path: "/", screen: true},
		{name: "queues", path: "/queues"},
		{name: "queue", path: queue, screen: true},
		{name: "review", path: queue + "/items/1", screen: true},
		{name: "runs", path: "/runs", screen: true},
		{name: "run", path: "/runs/" + f.latest, screen: true},
		{name: "run-running", path: "/runs/" + f.running},
		{name: "run-hostile", path: "/runs/" + f.hostile},
		{name: "case-result", path: "/runs/" + f.latest + "/cases/case_002", screen: true, from: "#trial-1 details.judgment"},
		{name: "case-result-hostile", path: "/runs/" + f.hostile + "/cases/case_x"},
		{name: "trends", path: "/trends?suite=support-desk", ready: `.chart[data-chart="cost"] canvas`, screen: true},
		{name: "compare", path: "/compare?a=" + f.old + "&b=" + f.latest, screen: true},
		{name: "compare-pick", path: "/compare"},
		{name: "flaky", path: "/flaky", screen: true},
		{name: "cases", path: "/cases", screen: true},
		{name: "case", path: "/cases/support-desk/case_001"},
		{name: "case-new", path: "/cases/new?suite=support-desk", screen: true},
		{name: "run-new", path: "/runs/new", screen: true},
		{name: "not-found", path: "/no/such/page"},
	}
}

// A look is how a page is seen: a window's size and a colour scheme.
type look struct {
	name          string // "desktop", "phone"
	width, height int64
	phone         bool // a phone's viewport: the page's meta viewport holds
	dark          bool // the dark colour scheme
}

// looks are the ways every page is seen: on a desktop in the light
// scheme, and on a phone (390 CSS pixels wide, as the commonest phones
// are) in the dark one.
var looks = []look{
	{name: "desktop", width: 1024, height: 768},
	{name: "phone", width: 390, height: 844, phone: true, dark: true},
}

// seeAs makes the tab see pages in l.
func (b *browserTab) seeAs(l look) {
	b.t.Helper()
	opts := []chromedp.EmulateViewportOption{chromedp.EmulatePortrait}
	if l.phone {
		opts = append(opts, chromedp.EmulateMobile, chromedp.EmulateTouch)
	}
	scheme := "light"
	if l.dark {
		scheme = "dark"
	}
	b.do("see pages as a "+l.name+" does",
		chromedp.EmulateViewport(l.width, l.height, opts...),
		chromedp.Func(func(ctx context.Context, t *chromedp.Target) error {
			_, err := cdp.Call(ctx, t, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{
				Features: []*emulation.MediaFeature{{Name: "prefers-color-scheme", Value: scheme}}})
			return err
		}),
	)
}

// visit opens a page of the app and waits until it is drawn; then holds
// it still: htmx sends no more requests (the page of a running run
// refreshes itself every few seconds).
func (b *browserTab) visit(url string, p appPage) {
	b.t.Helper()
	ready := p.ready
	if ready == "" {
		ready = "main"
	}
	b.do("open "+p.path,
		chromedp.Navigate(url+p.path),
		chromedp.WaitVisible(chromedp.CSS(ready)),
		chromedp.Evaluate[chromedp.Void](`document.body.addEventListener('htmx:beforeRequest', e => e.preventDefault())`),
	)
}

// newPagesApp serves the fixture on a loopback port with login
// required, an editor eddie (tab.login logs him in), and a launcher (of
// testdata/desk) so that the form that starts runs shows. It returns the
// fixture and the app's URL.
func newPagesApp(t *testing.T) (*fixture, string) {
	t.Helper()
	st, err := sqlite.Open(filepath.Join(t.TempDir(), "gavel.db"))
	if err != nil {
		t.Fatal(err)
	}
	hash, err := auth.HashPassword(browserPassword)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := st.CreateUser(context.Background(), "eddie", store.Editor, hash); err != nil {
		t.Fatal(err)
	}
	f := newFixtureOn(t, Config{
		Version:  "v1.0.0",
		Auth:     auth.New(auth.Config{Accounts: st, Required: true}),
		Launcher: &deskLauncher{path: filepath.Join("testdata", "desk", "gavel.yaml"), store: st},
	}, st)
	srv := httptest.NewServer(f.srv) // on 127.0.0.1
	t.Cleanup(srv.Close)
	return f, srv.URL
}

// axeScript returns axe-core's script, installed by
// testdata/install-axe.sh in testdata/axe or in $GAVEL_AXE; without it
// the test skips, or fails when GAVEL_REQUIRE_INTEGRATION=1.
func axeScript(t *testing.T) string {
	t.Helper()
	prefix := os.Getenv("GAVEL_AXE")
	if prefix == "" {
		prefix = filepath.Join("testdata", "axe")
	}
	path := filepath.Join(prefix, "node_modules", "axe-core", "axe.min.js")
	src, err := os.ReadFile(path)
	if err != nil {
		if os.Getenv("GAVEL_REQUIRE_INTEGRATION") == "1" {
			t.Fatalf("no axe-core (%v), and GAVEL_REQUIRE_INTEGRATION=1 requires it: run sh web/testdata/install-axe.sh", err)
		}
		t.Skipf("no axe-core (%v): sh web/testdata/install-axe.sh installs it", err)
	}
	return string(src)
}

// An axeViolation is a rule of axe-core a page breaks, and where.
type axeViolation struct {
	ID      string   `json:"id"`
	Impact  string   `json:"impact"`
	Help    string   `json:"help"`
	HelpURL string   `json:"helpUrl"`
	Targets []string `json:"targets"`
}

func (v axeViolation) String() string {
	return fmt.Sprintf("%s (%s): %s, on %s; see %s", v.ID, v.Impact, v.Help, strings.Join(v.Targets, ", "), v.HelpURL)
}

// axe runs axe-core's every rule (all but its experimental ones) on the
// page the tab shows, and returns the rules it breaks.
func (b *browserTab) axe(script string) []axeViolation {
	b.t.Helper()
	version := readPage(b, "load axe-core", chromedp.Evaluate[string](script+";\naxe.version"))
	if version != axeVersion {
		b.t.Fatalf("axe-core %s is installed, the tests want %s: run sh web/testdata/install-axe.sh", version, axeVersion)
	}
	return readPage(b, "run axe-core", chromedp.Evaluate[[]axeViolation](`axe.run(document, {resultTypes: ['violations']}).then(r =>
		r.violations.map(v => ({id: v.id, impact: v.impact, help: v.help, helpUrl: v.helpUrl,
			targets: v.nodes.map(n => n.target.join(' '))})))`, chromedp.EvalAwaitPromise))
}

// background is the colour the page is drawn on.
func (b *browserTab) background() string {
	b.t.Helper()
	return readPage(b, "the page's background", chromedp.Evaluate[string](`getComputedStyle(document.body).backgroundColor`))
}

// overflow returns what sticks out to the right of the window when the
// page as a whole scrolls sideways (the elements whose right edge is
// past it, the outermost first, at most five), or nil.
func (b *browserTab) overflow() []string {
	b.t.Helper()
	return readPage(b, "measure the page's width", chromedp.Evaluate[[]string](`(() => {
		const root = document.documentElement;
		if (root.scrollWidth <= root.clientWidth) return null;
		const out = [];
		for (const e of document.body.querySelectorAll('*')) {
			const r = e.getBoundingClientRect();
			if (r.right > root.clientWidth + 1 && !out.some(o => o.contains(e))) out.push(e);
		}
		return out.slice(0, 5).map(e => e.tagName.toLowerCase() + (e.className ? '.' + String(e.className).split(' ').join('.') : '') +
			' (' + Math.round(e.getBoundingClientRect().right) + 'px)');
	})()`))
}

// Every page of the app passes axe-core, on a desktop in the light
// scheme and on a phone in the dark one (colour contrast included), and
// on the phone no page scrolls sideways as a whole: what is wider (a
// table) scrolls within itself.
func TestBrowserAccessible(t *testing.T) {
	script := axeScript(t)
	tab := newBrowserWithin(t, pagesTimeout)
	f, url := newPagesApp(t)

	// The login form, before logging in; then every page, as an editor.
	login := appPage{name: "login", path: "/login", ready: `form[action="/login"]`}
	check := func(p appPage, l look) {
		t.Helper()
		tab.visit(url, p)
		// The scheme took: the page is drawn on its --bg (#ffffff, #11131a).
		if got, want := tab.background(), map[bool]string{false: "rgb(255, 255, 255)", true: "rgb(17, 19, 26)"}[l.dark]; got != want {
			t.Errorf("%s on a %s: the page's background is %s, want %s (the scheme's --bg)", p.path, l.name, got, want)
		}
		for _, v := range tab.axe(script) {
			t.Errorf("%s on a %s: %s", p.path, l.name, v)
		}
		if !l.phone {
			return
		}
		if wide := tab.overflow(); wide != nil {
			t.Errorf("%s on a %s (%dpx) scrolls sideways: %s", p.path, l.name, l.width, strings.Join(wide, ", "))
		}
	}
	for _, l := range looks {
		tab.seeAs(l)
		check(login, l)
	}
	tab.login(url, "eddie")
	for _, l := range looks {
		tab.seeAs(l)
		for _, p := range appPages(f) {
			check(p, l)
		}
	}
}

// reviewQueue is the fixture's annotation queue (made on first use): the
// support-desk trials that failed, for eddie and grace to label twice.
func reviewQueue(f *fixture) int64 {
	f.t.Helper()
	qs := f.store.(store.Queues)
	ctx := context.Background()
	all, err := qs.ListQueues(ctx)
	if err != nil {
		f.t.Fatal(err)
	}
	for _, q := range all {
		if q.Name == "Failures to review" {
			return q.ID
		}
	}
	q, err := qs.CreateQueue(ctx, store.Queue{
		Name:          "Failures to review",
		Filter:        store.QueueFilter{Suite: "support-desk", Verdicts: []judge.Status{judge.StatusFail}},
		Assignees:     []string{"eddie", "grace"},
		LabelsPerItem: 2,
		CreatedBy:     "eddie",
	})
	if err != nil {
		f.t.Fatal(err)
	}
	return q.ID
}
