package web

import (
	"context"
	"fmt"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"

	"github.com/gavelhq/gavel/auth"
	"github.com/gavelhq/gavel/llm/providers"
	"github.com/gavelhq/gavel/runner"
	"github.com/gavelhq/gavel/spec"
	"github.com/gavelhq/gavel/store"
	"github.com/gavelhq/gavel/store/sqlite"
)

// The browser tests drive the app in headless Chromium, as a person
// would: they log in, fill the forms and read the pages. The app is the
// real one (New over a SQLite store, login required) on a loopback port,
// and runs are real runs of testdata/desk, a suite of scripted models.
// They skip without Chromium, unless GAVEL_REQUIRE_INTEGRATION=1.

// browserTimeout bounds each browser test, browser start included.
const browserTimeout = 60 * time.Second

// An editor logs in, writes a case in the form, runs the suite, and reads
// the judge's reasoning on the case's result; the agent's reply, a
// <script>, shows as text and runs nothing.
func TestBrowserEditor(t *testing.T) {
	tab := newBrowser(t)
	dialogs := countDialogs(tab.ctx)
	app := newBrowserApp(t)

	tab.login(app.url, "eddie")

	// A case written in the form.
	tab.do("fill the case form",
		chromedp.Navigate(app.url+"/cases/new?suite=desk"),
		chromedp.SendKeys(chromedp.CSS(`input[name="id"]`), "markup_reply"),
		chromedp.SendKeys(chromedp.CSS(`input[name="name"]`), "Answers in words"),
		chromedp.SendKeys(chromedp.CSS(`textarea[name="prompt"]`), "Show me your markup."),
		chromedp.SendKeys(chromedp.CSS(`textarea[name="judge_prompt"]`), "The agent answers about the order in plain words."),
		chromedp.SendKeys(chromedp.CSS(`input[name="threshold"]`), "0.7"),
		chromedp.Click(chromedp.CSS(`form.case-form button.save`)),
		chromedp.WaitVisible(chromedp.CSS(`section.version`)),
	)
	if got := tab.location(); got != app.url+"/cases/desk/markup_reply" {
		t.Fatalf("after saving the case: at %s, want its page", got)
	}
	mustContain(t, "the case's page", tab.text("main"), "Version 1 (latest)", "written in the web app", "Show me your markup.")

	// A run of the suite, the written case included.
	tab.do("start a run",
		chromedp.Navigate(app.url+"/runs/new"),
		chromedp.Click(chromedp.CSS(`form[action="/runs"] button[type="submit"]`)),
		chromedp.WaitVisible(chromedp.CSS(`a[href$="/cases/markup_reply"]`)),
	)
	mustContain(t, "the run's page", tab.text("main"), "greeting", "markup_reply")

	// The case's result: the judge's reasoning, and the reply as text.
	tab.do("open the case's result",
		chromedp.Click(chromedp.CSS(`a[href$="/cases/markup_reply"]`)),
		chromedp.WaitVisible(chromedp.CSS(`div.reasoning`)),
	)
	if got, want := tab.text("div.reasoning"), "The reply is a script tag, not an answer about an order."; !strings.Contains(got, want) {
		t.Errorf("the judge's reasoning reads %q, want %q in it", got, want)
	}
	if got := tab.text("li.turn.agent div.content"); got != evil {
		t.Errorf("the agent's reply reads %q, want %q as text", got, evil)
	}
	mustContain(t, "the case's result", tab.text("main"), "Show me your markup.", evil)

	// The trends, drawn from the JSON API.
	tab.do("open the trends",
		chromedp.Navigate(app.url+"/trends?suite=desk"),
		chromedp.WaitVisible(chromedp.CSS(`.chart[data-chart="pass_rate"] canvas`)),
	)
	if n := tab.count(`#charts canvas`); n < 3 {
		t.Errorf("the trends page drew %d charts, want pass rate, criteria and cost", n)
	}
	mustContain(t, "the trends' calibration", tab.text("#calibration"), "Judges against people", "No result of this suite is labelled yet")
	if n := dialogs.Load(); n > 0 {
		t.Errorf("%d JavaScript dialogs opened: the agent's reply ran as a script", n)
	}
}

// A viewer reads a case written in the app but finds no way to edit it,
// and the forms answer 403.
func TestBrowserViewer(t *testing.T) {
	tab := newBrowser(t)
	app := newBrowserApp(t)
	def := "id: refund_late\nname: Refund a late order\ninput: My order is late.\njudge_prompt: Apologizes.\n"
	if _, err := app.store.SaveCase(context.Background(), store.CaseDef{Suite: "desk", ID: "refund_late",
		Name: "Refund a late order", Definition: []byte(def)}); err != nil {
		t.Fatal(err)
	}

	tab.login(app.url, "vera")
	if got := tab.text("header"); !strings.Contains(got, "vera (viewer)") {
		t.Errorf("the header after logging in reads %q, want vera (viewer)", got)
	}
	tab.do("open the case", chromedp.Navigate(app.url+"/cases/desk/refund_late"), chromedp.WaitVisible(chromedp.CSS(`section.version`)))
	mustContain(t, "the case's page", tab.text("main"), "refund_late", "written in the web app")
	mustNotContain(t, "the case's page, to a viewer", tab.html("main"), "/edit", ">Edit<")
	tab.do("open the cases", chromedp.Navigate(app.url+"/cases"), chromedp.WaitVisible(chromedp.CSS(`main`)))
	mustNotContain(t, "the cases, to a viewer", tab.html("main"), "/cases/new")

	for _, path := range []string{"/cases/desk/refund_late/edit", "/cases/new?suite=desk", "/runs/new"} {
		tab.do("open "+path, chromedp.Navigate(app.url+path), chromedp.WaitVisible(chromedp.CSS(`body`)))
		if got := tab.text("body"); !strings.Contains(got, "this needs the editor role") {
			t.Errorf("%s, to a viewer, reads %q: want the 403 of a role too low", path, got)
		}
		if n := tab.count("form"); n != 0 {
			t.Errorf("%s, to a viewer, has %d forms, want none", path, n)
		}
	}
}

// A browserApp is the app served on a loopback port, with login required,
// an editor (eddie) and a viewer (vera), and a launcher of testdata/desk.
type browserApp struct {
	url   string
	store store.Store
}

// browserPassword is every browser test user's password.
const browserPassword = "a long password"

func newBrowserApp(t *testing.T) *browserApp {
	t.Helper()
	st, err := sqlite.Open(filepath.Join(t.TempDir(), "gavel.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	var accounts store.Accounts = st
	hash, err := auth.HashPassword(browserPassword)
	if err != nil {
		t.Fatal(err)
	}
	for name, role := range map[string]store.Role{"eddie": store.Editor, "vera": store.Viewer} {
		if _, err := accounts.CreateUser(context.Background(), name, role, hash); err != nil {
			t.Fatal(err)
		}
	}
	app := New(st, Config{
		Auth:     auth.New(auth.Config{Accounts: accounts, Required: true}),
		Launcher: &deskLauncher{path: filepath.Join("testdata", "desk", "gavel.yaml"), store: st},
	})
	srv := httptest.NewServer(app) // on 127.0.0.1
	t.Cleanup(srv.Close)
	return &browserApp{url: srv.URL, store: st}
}

// A deskLauncher runs testdata/desk with the cases written in the app
// added, as gavel serve's launcher does, but runs it to its end before
// it answers, so that the run's page shows it finished.
type deskLauncher struct {
	path  string
	store store.Store
}

func (l *deskLauncher) Suites() []string { return []string{"desk"} }

func (l *deskLauncher) Launch(ctx context.Context, r LaunchRequest) (string, error) {
	loaded, err := spec.Load(l.path)
	if err != nil {
		return "", err
	}
	written, err := l.store.Cases(ctx, r.Suite)
	if err != nil {
		return "", err
	}
	for _, c := range written {
		lc, err := spec.ParseCase("the web app's case "+c.ID, c.Definition)
		if err != nil {
			return "", err
		}
		loaded.Cases = append(loaded.Cases, lc)
	}
	b, err := spec.Build(loaded, spec.Env{Registry: providers.Registry()})
	if err != nil {
		return "", err
	}
	defer b.Close()
	created, err := l.store.CreateRun(ctx, store.RunInfo{Suite: b.Suite.Name, SuiteFile: b.Suite.File, StartedBy: r.By, Label: r.Label,
		Models: b.Suite.Models, Threshold: b.Suite.Threshold, Started: time.Now()})
	if err != nil {
		return "", err
	}
	run := runner.Run(ctx, b.Suite, runner.Config{Trials: r.Trials, Timeout: b.Timeout, FollowUps: b.FollowUps})
	for _, c := range run.Cases {
		for _, tr := range c.Trials {
			if err := l.store.SaveTrial(ctx, created.ID, store.TrialRecord{Trial: tr}); err != nil {
				return "", err
			}
		}
	}
	status := store.Passed
	if !run.Met() {
		status = store.Failed
	}
	return created.ID, l.store.FinishRun(ctx, created.ID, store.RunEnd{Status: status, Ended: time.Now(), Run: run})
}

// A browserTab is a browser tab of a test, its steps failing the test.
type browserTab struct {
	t   *testing.T
	ctx context.Context
}

// newBrowser starts headless Chromium for the test and returns its tab,
// whose context ends with the test or after browserTimeout.
func newBrowser(t *testing.T) *browserTab {
	t.Helper()
	return newBrowserWithin(t, browserTimeout)
}

// newBrowserWithin is newBrowser for a test that visits many pages: its
// tab's context ends with the test or after timeout.
func newBrowserWithin(t *testing.T, timeout time.Duration) *browserTab {
	t.Helper()
	path := chromium(t)
	profile := t.TempDir() // registered first, so removed after the browser quits
	ctx, cancel := context.WithTimeout(t.Context(), timeout)
	t.Cleanup(cancel)
	opts := append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(path),
		chromedp.NoSandbox, // CI runs as root
		chromedp.UserDataDir(profile),
	)
	ctx, cancelAlloc := chromedp.NewExecAllocator(ctx, opts...)
	t.Cleanup(cancelAlloc) // quits the browser and waits for it
	ctx, cancelTab := chromedp.NewContext(ctx)
	t.Cleanup(cancelTab)
	if err := chromedp.Do(ctx); err != nil { // starts the browser
		t.Fatalf("start %s: %v", path, err)
	}
	return &browserTab{t: t, ctx: ctx}
}

// chromium finds a Chromium or Chrome binary, or skips the test (fails
// it when GAVEL_REQUIRE_INTEGRATION=1).
func chromium(t *testing.T) string {
	t.Helper()
	names := []string{"chromium", "chromium-browser", "google-chrome"}
	for _, name := range names {
		if path, err := exec.LookPath(name); err == nil {
			return path
		}
	}
	if os.Getenv("GAVEL_REQUIRE_INTEGRATION") == "1" {
		t.Fatalf("none of %s is on PATH, and GAVEL_REQUIRE_INTEGRATION=1 requires the browser tests (apt-get install chromium)", strings.Join(names, ", "))
	}
	t.Skipf("no Chromium: none of %s is on PATH", strings.Join(names, ", "))
	return ""
}

// countDialogs counts the JavaScript dialogs (alert, confirm, prompt)
// that open in the tab, and dismisses them so the page goes on.
func countDialogs(ctx context.Context) *atomic.Int32 {
	var n atomic.Int32
	dialogs := chromedp.Events(ctx, page.JavascriptDialogOpening)
	go func() {
		for _, err := range dialogs {
			if err != nil {
				return
			}
			n.Add(1)
			chromedp.Call(ctx, page.HandleJavaScriptDialog, page.HandleJavaScriptDialogParams{Accept: false})
		}
	}()
	return &n
}

// login logs name in with the login form, and waits for a page that
// says who is logged in.
func (b *browserTab) login(url, name string) {
	b.t.Helper()
	b.do("log in as "+name,
		chromedp.Navigate(url+"/runs"), // redirected to the login form
		chromedp.SendKeys(chromedp.CSS(`input[name="name"]`), name),
		chromedp.SendKeys(chromedp.CSS(`input[name="password"]`), browserPassword),
		chromedp.Click(chromedp.CSS(`form[action="/login"] button[type="submit"]`)),
		chromedp.WaitVisible(chromedp.CSS(`form.who`)), // the header's "name (role)" and Log out
	)
}

// do runs the steps, failing the test with what was being done.
func (b *browserTab) do(what string, steps ...chromedp.Action[chromedp.Void]) {
	b.t.Helper()
	if err := chromedp.Do(b.ctx, steps...); err != nil {
		b.t.Fatalf("%s: %v (at %s)", what, err, b.location())
	}
}

// readPage runs an action that reads the page.
func readPage[T any](b *browserTab, what string, a chromedp.Action[T]) T {
	b.t.Helper()
	v, err := chromedp.Run(b.ctx, a)
	if err != nil {
		b.t.Fatalf("%s: %v (at %s)", what, err, b.location())
	}
	return v
}

// text is what a person sees of the first element matching a CSS selector
// (its innerText).
func (b *browserTab) text(css string) string {
	b.t.Helper()
	return readPage(b, "the text of "+css, chromedp.Text(chromedp.CSS(css)))
}

// html is the HTML of the first element matching a CSS selector.
func (b *browserTab) html(css string) string {
	b.t.Helper()
	return readPage(b, "the HTML of "+css, chromedp.OuterHTML(chromedp.CSS(css)))
}

// count counts the elements matching a CSS selector (with no quotes).
func (b *browserTab) count(css string) int {
	b.t.Helper()
	return readPage(b, "count "+css, chromedp.Evaluate[int]("document.querySelectorAll('"+css+"').length"))
}

// location is the tab's URL.
func (b *browserTab) location() string {
	url, err := chromedp.Run(b.ctx, chromedp.Location())
	if err != nil {
		return fmt.Sprintf("unknown: %v", err)
	}
	return url
}

// An editor adds judges to a case in the form: picks a kind (the form
// says what it does), fills its fields, adds another, and saves; the case
// opens in the form again with the same values, and a value the suite
// format refuses comes back next to its judge.
func TestBrowserJudges(t *testing.T) {
	tab := newBrowser(t)
	app := newBrowserApp(t)
	tab.login(app.url, "eddie")

	tab.do("pick a kind",
		chromedp.Navigate(app.url+"/cases/new?suite=desk"),
		chromedp.SendKeys(chromedp.CSS(`input[name="id"]`), "warm_refund"),
		chromedp.SendKeys(chromedp.CSS(`textarea[name="prompt"]`), "My order is late."),
		chromedp.SendKeys(chromedp.CSS(`select[name="add_kind"]`), "criteria"),
	)
	if got := tab.text("#add-kind-doc"); !strings.Contains(got, "axes") || !strings.Contains(got, "It asks a model.") {
		t.Errorf("under the select, after picking criteria: %q, want criteria's doc", got)
	}
	tab.do("add a criteria judge and fill it",
		chromedp.Click(chromedp.CSS(`button[value="add"]`)),
		chromedp.WaitVisible(chromedp.CSS(`textarea[name="judges.0.f.criteria"]`)),
		chromedp.SendKeys(chromedp.CSS(`textarea[name="judges.0.f.criteria"]`), "warmth: Is it warm?\naccuracy: Are the facts right?"),
		chromedp.SendKeys(chromedp.CSS(`input[name="judges.0.f.min_mean"]`), "6.5"),
		chromedp.SetValue(chromedp.CSS(`select[name="judges.0.f.aggregate"]`), "median"),
	)
	tab.do("add a contains judge",
		chromedp.SetValue(chromedp.CSS(`select[name="add_kind"]`), "contains"),
		chromedp.Click(chromedp.CSS(`button[value="add"]`)),
		chromedp.WaitVisible(chromedp.CSS(`input[name="judges.1.f.contains"]`)),
	)
	tab.do("fill it and save",
		chromedp.SendKeys(chromedp.CSS(`input[name="judges.1.f.contains"]`), "refund"),
		chromedp.Click(chromedp.CSS(`input[name="judges.1.f.ignore_case"]`)),
		chromedp.Click(chromedp.CSS(`form.case-form button.save`)),
		chromedp.WaitVisible(chromedp.CSS(`section.version`)),
	)
	if got := tab.location(); got != app.url+"/cases/desk/warm_refund" {
		t.Fatalf("after saving: at %s, want the case's page\n%s", got, tab.text("main"))
	}
	mustContain(t, "the case's page", tab.text("main"), "criteria:", "warmth: Is it warm?", "accuracy: Are the facts right?", "min_mean: 6.5",
		"aggregate: median", "contains: refund", "ignore_case: true")

	value := func(name string) string {
		return readPage(tab, "the value of "+name, chromedp.Evaluate[string](`document.querySelector('[name="`+name+`"]').value`))
	}
	tab.do("open the form again", chromedp.Navigate(app.url+"/cases/desk/warm_refund/edit"), chromedp.WaitVisible(chromedp.CSS(`fieldset.judges`)))
	for name, want := range map[string]string{
		"judges.0.kind": "criteria", "judges.0.f.criteria": "warmth: Is it warm?\naccuracy: Are the facts right?",
		"judges.0.f.min_mean": "6.5", "judges.0.f.aggregate": "median", "judges.1.kind": "contains", "judges.1.f.contains": "refund",
	} {
		if got := value(name); got != want {
			t.Errorf("the form's %s is %q, want %q", name, got, want)
		}
	}
	if !readPage(tab, "the checkbox", chromedp.Evaluate[bool](`document.querySelector('[name="judges.1.f.ignore_case"]').checked`)) {
		t.Error("ignore_case is not checked in the form")
	}

	// Enter in a field saves, as in any form: it does not press the
	// first judge's Remove.
	tab.do("press Enter in the name",
		chromedp.SendKeys(chromedp.CSS(`input[name="name"]`), "Warm refund\r"),
		chromedp.WaitVisible(chromedp.CSS(`section.version`)),
	)
	mustContain(t, "the case's page after Enter", tab.text("main"), "Version 2 (latest)", "name: Warm refund", "min_mean: 6.5", "contains: refund")

	tab.do("save a mean the suite format refuses",
		chromedp.Navigate(app.url+"/cases/desk/warm_refund/edit"),
		chromedp.WaitVisible(chromedp.CSS(`fieldset.judges`)),
		chromedp.SetValue(chromedp.CSS(`input[name="judges.0.f.min_mean"]`), ""),
		chromedp.SendKeys(chromedp.CSS(`input[name="judges.0.f.min_mean"]`), "12"),
		chromedp.Click(chromedp.CSS(`form.case-form button.save`)),
		chromedp.WaitVisible(chromedp.CSS(`p.error-message[data-field="judges.0"]`)),
	)
	mustContain(t, "the message next to the judge", tab.text(`p.error-message[data-field="judges.0"]`), "judges[0] (criteria)", "min mean 12")
	if got := value("judges.1.f.contains"); got != "refund" {
		t.Errorf("the form shown again lost the other judge's value: %q", got)
	}
}
