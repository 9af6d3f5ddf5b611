package web

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/chromedp/cdproto/accessibility"
	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"
)

// accessible returns the accessible name and description Chromium
// computes for the first element matching css: what a screen reader
// says of it.
func (b *browserTab) accessible(css string) (name, description string) {
	b.t.Helper()
	el := readPage(b, "find "+css, chromedp.Evaluate[*runtime.RemoteObject](`document.querySelector('`+css+`')`))
	if el.ObjectID == "" {
		b.t.Fatalf("no %s on %s", css, b.location())
	}
	tree := readPage(b, "the accessibility of "+css, chromedp.Action[*accessibility.GetPartialAXTreeResult](
		func(ctx context.Context, t *chromedp.Target) (*accessibility.GetPartialAXTreeResult, error) {
			r, err := cdp.Call(ctx, t, accessibility.GetPartialAXTree, accessibility.GetPartialAXTreeParams{ObjectID: el.ObjectID, FetchRelatives: new(false)})
			return &r, err
		}))
	if len(tree.Nodes) == 0 {
		b.t.Fatalf("%s has no accessibility node", css)
	}
	text := func(v *accessibility.Value) string {
		var s string
		if v != nil {
			json.Unmarshal(v.Value, &s)
		}
		return s
	}
	return text(tree.Nodes[0].Name), text(tree.Nodes[0].Description)
}

// A form field's name is its label alone, and its hint is its
// description (aria-describedby), not part of its name: a screen reader
// says "Tags, edit text, only cases with one of these tags; empty: all".
func TestBrowserFormHints(t *testing.T) {
	tab := newBrowser(t)
	app := newBrowserApp(t)
	tab.login(app.url, "eddie")
	for _, page := range []struct {
		path   string
		fields map[string][2]string // by selector: name, description
	}{
		{"/runs/new", map[string][2]string{
			`input[name="tags"]`:   {"Tags", "only cases with one of these tags; empty: all"},
			`input[name="ids"]`:    {"Cases", "only these case ids; empty: all"},
			`input[name="trials"]`: {"Trials", "how many times each case runs"},
		}},
		{"/cases/new?suite=desk", map[string][2]string{
			`select[name="suite"]`:          {"Suite", "The suites this server runs or has stored: a case runs with its suite."},
			`input[name="id"]`:              {"Id", "Unique in the suite, and fixed once saved: runs and reports name the case by it."},
			`textarea[name="prompt"]`:       {"What the user says", "One message; or a conversation of several rounds, each round's message separated from the next by a line holding only ---."},
			`input[name="threshold"]`:       {"Passing score", "From 0 to 1; the judge's score must reach it. Empty: 0.7."},
			`input[name="tags"]`:            {"Tags", "Separated by commas: orders, refunds."},
			`select[name="add_kind"]`:       {"Add a judge", ""},
			`input[name="tools"]`:           {"Tools the agent must call", "Tool names, separated by commas: get_order_status, cancel_order."},
			`textarea[name="judge_prompt"]`: {"What a good answer does, in plain words", "A judge model scores the agent's final answer against this from 0 to 1."},
		}},
	} {
		tab.do("open "+page.path, chromedp.Navigate(app.url+page.path), chromedp.WaitVisible(chromedp.CSS("main form")))
		for css, want := range page.fields {
			name, description := tab.accessible(css)
			if name != want[0] || description != want[1] {
				t.Errorf("%s %s: named %q, described %q; want %q, %q", page.path, css, name, description, want[0], want[1])
			}
		}
	}

	// A judge's field is named by its path in the suite format, and
	// described by its type and doc.
	tab.do("add a contains judge",
		chromedp.SetValue(chromedp.CSS(`select[name="add_kind"]`), "contains"),
		chromedp.Click(chromedp.CSS(`button[value="add"]`)),
		chromedp.WaitVisible(chromedp.CSS(`input[name="judges.0.f.contains"]`)),
	)
	name, description := tab.accessible(`input[name="judges.0.f.contains"]`)
	if name != "contains" || description != "text. The text to find." {
		t.Errorf("the contains judge's field: named %q, described %q; want contains, \"text. The text to find.\"", name, description)
	}
}
