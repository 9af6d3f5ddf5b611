package web

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/gavelhq/gavel"
	"github.com/gavelhq/gavel/judge"
	"github.com/gavelhq/gavel/store"
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

// The trends are drawn by run order: ten runs a second apart and an
// eleventh an hour later sit evenly along the x axis, named (not
// numbered, nor times of day), a run's name and start in its label; and
// the cost chart's y axis is wide enough for its labels.
func TestBrowserTrendsByRunOrder(t *testing.T) {
	tab := newBrowser(t)
	app := newBrowserApp(t)
	ctx := t.Context()
	suite := &gavel.Suite{Name: "spread", File: "spread/gavel.yaml", Threshold: 0.8}
	for i := range 11 {
		started := base.Add(time.Duration(i) * time.Second)
		if i == 10 {
			started = base.Add(time.Hour)
		}
		info, err := app.store.CreateRun(ctx, store.RunInfo{Suite: suite.Name, SuiteFile: suite.File, Threshold: 0.8, Started: started,
			Label: fmt.Sprintf("try %d", i+1), StartedBy: "ada"})
		if err != nil {
			t.Fatal(err)
		}
		tr := passing("case_001", 1, 4)
		tr.Usage.Agent.CostUSD = 12.5 * float64(i+1) // dollars, wide labels
		if err := app.store.SaveTrial(ctx, info.ID, store.TrialRecord{Trial: tr}); err != nil {
			t.Fatal(err)
		}
		run := &gavel.Run{Suite: suite, Started: started, Duration: time.Second,
			Cases: []gavel.CaseResult{result(testCase("case_001", "Where is order 12345?"), tr)}}
		if err := app.store.FinishRun(ctx, info.ID, store.RunEnd{Status: store.Passed, Ended: started.Add(time.Second), Run: run}); err != nil {
			t.Fatal(err)
		}
	}
	tab.login(app.url, "vera")
	tab.do("open the trends",
		chromedp.Navigate(app.url+"/trends?suite=spread"),
		chromedp.WaitVisible(chromedp.CSS(`.chart[data-chart="cost"] canvas`)),
	)
	type axes struct {
		X          []float64
		XTicks     []string
		XPositions []float64
		Width      float64
		Legend     string
		YTicks     []string
		YSize      float64
		YWidest    float64
	}
	read := func(chart string) axes {
		return readPage(tab, "the "+chart+" chart's axes", chromedp.Evaluate[axes](`(() => {
			const u = document.querySelector('.chart[data-chart="`+chart+`"]').uplot;
			const ctx = document.createElement('canvas').getContext('2d');
			ctx.font = u.axes[1].font[0];
			const yTicks = (u.axes[1]._values || []).map(String);
			u.setCursor({left: u.valToPos(11, 'x'), top: 10});
			return {
				X: Array.from(u.data[0]),
				XTicks: (u.axes[0]._values || []).map(String),
				XPositions: Array.from(u.data[0]).map(v => u.valToPos(v, 'x')),
				Width: u.bbox.width / devicePixelRatio,
				Legend: u.root.querySelector('.u-legend .u-series:first-child .u-value').textContent,
				YTicks: yTicks,
				YSize: u.axes[1]._size,
				YWidest: Math.max(0, ...yTicks.map(s => ctx.measureText(s).width)),
			};
		})()`))
	}
	pass := read("pass_rate")
	if fmt.Sprint(pass.X) != "[1 2 3 4 5 6 7 8 9 10 11]" {
		t.Errorf("the pass rate's x values are %v, want the runs 1 to 11", pass.X)
	}
	named := 0
	for _, tick := range pass.XTicks {
		if tick != "" && !strings.HasPrefix(tick, "try ") {
			t.Errorf("an x tick reads %q, want a run's label", tick)
		}
		if tick != "" {
			named++
		}
	}
	if named < 2 {
		t.Errorf("the x ticks are %q: want runs' labels", pass.XTicks)
	}
	if len(pass.XPositions) == 11 {
		// Evenly spaced: run 10 is as far from run 11 as run 1 from run 2.
		first, last := pass.XPositions[1]-pass.XPositions[0], pass.XPositions[10]-pass.XPositions[9]
		if last < first*0.9 || last > first*1.1 || pass.XPositions[9] < pass.Width*0.7 {
			t.Errorf("the runs' x positions are %v in a width of %v: want them evenly spread", pass.XPositions, pass.Width)
		}
	}
	if !strings.HasPrefix(pass.Legend, "try 11 · by ada · ") || !strings.Contains(pass.Legend, "-11-21 ") {
		t.Errorf("the label of run 11 reads %q, want its name and its date", pass.Legend)
	}
	cost := read("cost")
	if len(cost.YTicks) == 0 || cost.YSize < cost.YWidest+10 {
		t.Errorf("the cost's y axis is %vpx wide for labels %v up to %vpx: they are clipped", cost.YSize, cost.YTicks, cost.YWidest)
	}
	mustContain(t, "the trend's table", tab.html("#trend-table"), `<th>Run</th>`, `>try 11 · by ada</a>`)
	mustNotContain(t, "the trend's table", tab.html("#trend-table"), `<th class="num">#</th>`)
}

// Runs that cost nothing (a local model, a cache) draw the cost chart at
// $0 on an axis near it, not one running to $100.
func TestBrowserTrendsCostOfFreeRuns(t *testing.T) {
	tab := newBrowser(t)
	app := newBrowserApp(t)
	c := testCase("case_001", "Where is order 12345?")
	for i := range 3 {
		started := base.Add(time.Duration(i) * time.Minute)
		tr := passing("case_001", 1, 4)
		tr.Usage = gavel.RoleUsage{} // nothing spent
		run := &gavel.Run{Suite: &gavel.Suite{Name: "free", Threshold: 0.8}, Started: started, Cases: []gavel.CaseResult{result(c, tr)}}
		info := store.RunInfo{Suite: "free", Threshold: 0.8, Started: started}
		if _, err := app.store.ImportRun(t.Context(), info, store.RunEnd{Status: store.Passed, Ended: started, Run: run}); err != nil {
			t.Fatal(err)
		}
	}
	tab.login(app.url, "vera")
	tab.do("open the trends",
		chromedp.Navigate(app.url+"/trends?suite=free"),
		chromedp.WaitVisible(chromedp.CSS(`.chart[data-chart="cost"] canvas`)),
	)
	type scale struct {
		Min, Max float64
		Ticks    []string
	}
	got := readPage(tab, "the cost chart's y scale", chromedp.Evaluate[scale](`(() => {
		const u = document.querySelector('.chart[data-chart="cost"]').uplot;
		return {Min: u.scales.y.min, Max: u.scales.y.max, Ticks: (u.axes[1]._values || []).map(String)};
	})()`))
	if got.Min != 0 || got.Max > 1 {
		t.Errorf("the cost axis of runs that cost $0 runs from %v to %v (ticks %q): want $0 to at most $1", got.Min, got.Max, got.Ticks)
	}
}

// A person reading a failed case sees the verdict in words: which judge
// decided it and, for a model judge, its score against its own threshold
// as the judgment recorded it; the composite's mean (0.8: two of three
// parts passed) is nowhere on the page.
func TestBrowserVerdictInWords(t *testing.T) {
	tab := newBrowser(t)
	app := newBrowserApp(t)
	ctx := t.Context()
	suite := &gavel.Suite{Name: "words", File: "words/gavel.yaml", Threshold: 1}
	info, err := app.store.CreateRun(ctx, store.RunInfo{Suite: suite.Name, SuiteFile: suite.File, Threshold: 1, Started: base})
	if err != nil {
		t.Fatal(err)
	}
	tone := wordsRubric(judge.StatusPass, 0.9, "apologized and explained")
	tone.Threshold = judge.AtLeast(0.9, 0.7)
	tr := passing("rule_failed", 1, 4)
	tr.Verdict = judge.Judgment{Name: "all", Status: judge.StatusFail, Score: judge.Unit(0.8), Parts: []judge.Judgment{
		{Name: "forbidden_tools", Status: judge.StatusFail, Score: judge.Bool(false), Reasoning: "called cancel_order"},
		tone,
		{Name: "contains refund", Status: judge.StatusPass, Score: judge.Bool(true), Reasoning: "says refund"},
	}}
	if err := app.store.SaveTrial(ctx, info.ID, store.TrialRecord{Trial: tr}); err != nil {
		t.Fatal(err)
	}
	run := &gavel.Run{Suite: suite, Started: base, Duration: time.Second,
		Cases: []gavel.CaseResult{result(testCase("rule_failed", "cancel my order"), tr)}}
	if err := app.store.FinishRun(ctx, info.ID, store.RunEnd{Status: store.Failed, Ended: base.Add(time.Second), Run: run}); err != nil {
		t.Fatal(err)
	}

	tab.login(app.url, "vera")
	tab.do("open the failed case",
		chromedp.Navigate(app.url+"/runs/"+info.ID+"/cases/rule_failed"),
		chromedp.WaitVisible(chromedp.CSS(`p.decision`)),
	)
	if got, want := tab.text("p.decision"), "FAIL: decided by forbidden_tools (a rule): called cancel_order"; got != want {
		t.Errorf("the verdict reads %q, want %q", got, want)
	}
	mustContain(t, "the model judge's line", tab.text("main"), "rubric (a model judge) scored 0.9, above its threshold 0.7")
	mustNotContain(t, "the case's page", tab.text("main"), "0.8/1", "score 0.8")
}

// The pass rate's chart draws each run against its own threshold, not
// the latest run's, and a run in which nothing was judged (imported
// without verdicts) as a gap, not a 0% point.
func TestBrowserTrendsOwnThresholdsAndGaps(t *testing.T) {
	tab := newBrowser(t)
	app := newBrowserApp(t)
	c := testCase("case_001", "Where is order 12345?")
	notJudged := passing("case_001", 1, 4)
	notJudged.Verdict = judge.Judgment{Name: "not judged", Status: judge.StatusAbstain, Reasoning: "imported without a verdict"}
	for i, r := range []struct {
		threshold float64
		result    gavel.CaseResult
		stopped   gavel.StopCause
		status    store.Status
	}{
		{0.8, result(c, passing("case_001", 1, 4)), "", store.Passed},
		{0.5, gavel.CaseResult{Case: c, Trials: []gavel.Trial{notJudged}, Outcome: gavel.Skipped, SkipReason: "not judged"}, gavel.StopNotJudged, store.Incomplete},
		{0.9, result(c, failing("case_001", 1)), "", store.Failed},
	} {
		started := base.Add(time.Duration(i) * time.Minute)
		run := &gavel.Run{Suite: &gavel.Suite{Name: "moving", Threshold: r.threshold}, Started: started, Cases: []gavel.CaseResult{r.result}, Stopped: r.stopped}
		info := store.RunInfo{Suite: "moving", Threshold: r.threshold, Started: started}
		if _, err := app.store.ImportRun(t.Context(), info, store.RunEnd{Status: r.status, Ended: started, Run: run}); err != nil {
			t.Fatal(err)
		}
	}
	tab.login(app.url, "vera")
	tab.do("open the trends",
		chromedp.Navigate(app.url+"/trends?suite=moving"),
		chromedp.WaitVisible(chromedp.CSS(`.chart[data-chart="pass_rate"] canvas`)),
	)
	lines := readPage(tab, "the pass rate chart's lines", chromedp.Evaluate[[][]*float64](`(() => {
		const u = document.querySelector('.chart[data-chart="pass_rate"]').uplot;
		return [Array.from(u.data[1]), Array.from(u.data[2])];
	})()`))
	show := func(vs []*float64) string {
		var out []string
		for _, v := range vs {
			if v == nil {
				out = append(out, "null")
			} else {
				out = append(out, fmt.Sprint(*v))
			}
		}
		return strings.Join(out, " ")
	}
	if len(lines) != 2 || show(lines[0]) != "1 null 0" || show(lines[1]) != "0.8 0.5 0.9" {
		var got []string
		for _, l := range lines {
			got = append(got, show(l))
		}
		t.Errorf("pass rate and threshold lines: %q; want [1 null 0] and [0.8 0.5 0.9]", got)
	}
}
