package web

import (
	"net/http"
	"net/url"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/gavelhq/gavel/store/sqlite"
)

func TestPages(t *testing.T) {
	testPages(t, newFixture(t, Config{Version: "1.2.3"}))
}

// The pages are the same on PostgreSQL.
func TestPagesOnPostgres(t *testing.T) {
	testPages(t, newPostgresFixture(t, Config{Version: "1.2.3"}))
}

func testPages(t *testing.T, f *fixture) {
	run := func(id string) string { return "/runs/" + url.PathEscape(id) }
	tests := []struct {
		name   string
		path   string
		status int
		want   []string
		// notWant must not be in the page.
		notWant []string
	}{
		{"runs", "/runs", 200, []string{
			`<title>Runs · Gavel</title>`, `aria-current="page">Runs`, f.latest, f.older, f.running,
			`<span class="badge fail">failed</span>`, `<span class="badge running">running</span>`,
			`<span class="unmet">37.5%</span> / 80%`, `<span class="met">80%</span> / 80%`, `<td class="num">- / 80%</td>`, `<td class="num">1 (1 trial so far)</td>`, "main@5d7e765a", "Gavel 1.2.3",
			// Runs are named by label, git and who started them, their ids in small print.
			`<a class="run-name" href="/runs/` + f.latest + `" title="run ` + f.latest + `">shorter system prompt · fix/refunds@9c1e4f2a · by grace</a><br><small class="muted run-id"><code>` + f.latest + `</code></small>`,
			`>nightly · main@5d7e765a · by ada</a>`, `>main@5d7e765a · by ada</a>`, `>prompt v3 · fix/refunds@a0b1c2d3 · by eddie</a>`,
		}, nil},
		{"runs of a suite", "/runs?suite=" + hostileQuery, 200, []string{f.hostile}, []string{f.latest}},
		{"runs by status", "/runs?status=running", 200, []string{f.running}, []string{f.latest}},
		{"runs by branch", "/runs?branch=dev", 200, []string{"No runs match this filter"}, []string{f.latest}},
		{"runs, bad status", "/runs?status=done", 400, []string{`status &#34;done&#34;: want running, passed`}, nil},
		{"runs, bad before", "/runs?before=yesterday", 400, []string{"want a time in RFC 3339"}, nil},

		{"run", run(f.latest), 200, []string{
			"<title>Run shorter system prompt · fix/refunds@9c1e4f2a · by grace · Gavel</title>",
			`<span class="run-name" title="run ` + f.latest + `">shorter system prompt · fix/refunds@9c1e4f2a · by grace</span>`, "Run <code>" + f.latest + "</code>",
			"Pass rate 37.5%</strong> against a threshold of 80%",
			"5 cases (1 PASS · 1 FAIL · 1 FLAKY · 1 ERROR · 1 SKIPPED)", "8 trials", "Spent by role", "<td>agent</td>", "<td>judge</td>", "<td>simulated user</td>", "<td>follow-up</td>", "Spent by model", "openai:gpt-5-mini",
			"<h2>Criteria</h2>", "<td>helpfulness</td>", "<td>tone</td>",
			`href="/runs/` + f.latest + `/cases/case_002"`, `href="/runs/` + f.latest + `/cases/orders%2Fcancel%204"`,
			"<td>PASS</td><td>PASS</td>", "<td>FAIL</td><td>PASS</td>", "<td>1/2</td>",
			"forbidden_tools cancel_order: called forbidden tool cancel_order (call 2)",
			"the budget ran out", "conversation failed: agent did not answer within 30s",
			"pass^k: k=2", "Flaky: case_003 (1 of 2 trials passed)",
			// The picker compares it with its baseline (the newest finished run on main), the run before it, or any before it.
			`<input type="hidden" name="b" value="` + f.latest + `">`,
			`<option value="baseline">its baseline: nightly · main@5d7e765a · by ada · 2026-11-21 05:45:12 UTC</option>`,
			`<option value="previous">the run before it: nightly · main@5d7e765a · by ada · 2026-11-21 05:45:12 UTC</option>`,
			`<option value="` + f.older + `">main@5d7e765a · by ada · support-desk · passed · 2026-11-21 04:45:12 UTC</option>`,
			`href="/api/runs/` + f.latest + `"`,
		}, []string{"hx-trigger=\"every"}},
		{"run with an unpriced model", run(f.hostile), 200, []string{
			"&#43; unpriced", `<td class="num">unpriced</td>`, "has no price, so the costs that include it are lower bounds",
		}, []string{"$0.0000"}},
		{"run still running", run(f.running), 200, []string{"<strong>Running</strong> · 1 trial so far · 1 cases (1 PASS) · pass rate so far 100%, against a threshold of 80%", "case_001",
			`hx-get="/runs/` + f.running + `" hx-trigger="every 3s" hx-target="#main"`}, nil},
		{"unknown run", "/runs/20990101-000000-zzzz", 404, []string{"no run 20990101-000000-zzzz"}, nil},

		{"case result", run(f.latest) + "/cases/case_002", 200, []string{
			`<span class="badge fail">FAIL</span> <code>case_002</code> Case case_002`,
			"Trial 1 of 2", "Trial 2 of 2", "round 1 · user", "round 1 · agent",
			"round 1 · user (automatic follow-up)", "follow-up check by the model (162 tokens): needed (asks which order)", "round 2 · user (simulated)", "round 2 · event", "order 12345 delivered",
			`<li class="revival">🔄 session revived (how was not recorded)</li>`, // a run recorded before Gavel said
			"<code>get_order_status({&#34;order_id&#34;:&#34;12345&#34;})</code>",
			`<details class="call failed" open>`, "<strong>failed</strong>", "order has already shipped",
			"Final response", "Order 12345 has shipped (trial 1).",
			"tier 1 did not pass, so the tiers after it did not run", "forbidden_tools cancel_order", "called forbidden tool cancel_order (call 2)",
			"✗ call 2: cancel_order", "finding: max_bubbles 2: turn 2 has 3 bubbles",
			"jury, majority", `helpfulness</span> <span class="kind">(a model judge)</span> <span class="muted">score 2 (1..5)`, `tone</span> <span class="kind">(a model judge)</span> <span class="muted">score warm`,
			"looked it up\nthen answered", "Session <code>sess-1</code>",
			`href="/runs/` + f.latest + `/cases/case_001"`, `href="/runs/` + f.latest + `/cases/case_003"`,
		}, nil},
		{"case with a slash in its id", run(f.latest) + "/cases/orders%2Fcancel%204", 200, []string{
			"<code>orders/cancel 4</code>", "The conversation did not complete: TIMEOUT: agent did not answer within 30s",
		}, nil},
		{"skipped case", run(f.latest) + "/cases/case_005", 200, []string{"<dt>Skipped</dt><dd>the budget ran out</dd>"}, []string{"Trial 1"}},
		{"unknown case", run(f.latest) + "/cases/case_999", 404, []string{"has no case case_999"}, nil},
		{"case of an unknown run", "/runs/nope/cases/case_001", 404, []string{"no run nope"}, nil},

		{"trends", "/trends?suite=support-desk", 200, []string{
			"<h1>Trends of support-desk</h1>", `<div class="charts" id="charts" data-api="/api/trends?n=100&amp;suite=support-desk">`,
			`data-chart="pass_rate"`, `data-chart="criteria"`, `data-chart="cost"`,
			`<th class="num">helpfulness</th>`, `href="/runs/` + f.older + `"`, `href="/runs/` + f.latest + `"`,
			"the latest run's is 80%", `<option value="hostile&lt;u&gt;suite&lt;/u&gt;">hostile&lt;u&gt;suite&lt;/u&gt;</option>`,
		}, []string{`href="/runs/` + f.running + `"`}},
		{"trends, every case", "/trends?suite=support-desk", 200, []string{
			`<option value="" selected>every case</option>`, `<option value="refunds">refunds</option>`, `<option value="orders">orders</option>`,
		}, []string{", tag "}},
		{"trends of a tag", "/trends?suite=support-desk&tag=refunds", 200, []string{
			"<title>Trends of support-desk, tag refunds · Gavel</title>", "<h1>Trends of support-desk, tag refunds</h1>",
			`<option value="refunds" selected>refunds</option>`, `<option value="">every case</option>`,
			"The 3 of the suite's last 100 finished runs (passed, failed or incomplete) in which a case tagged refunds ran",
			"counting only the cases tagged refunds", `<td class="num">50%</td>`, `href="/runs/` + f.older + `"`,
		}, []string{`href="/runs/` + f.running + `"`, `<td class="num">37.5%</td>`}},
		{"trends of an unknown tag", "/trends?suite=support-desk&tag=nope", 200, []string{
			"No case tagged nope ran in suite support-desk", `<option value="nope" selected>nope</option>`,
		}, []string{`id="charts"`}},
		{"trends of the latest suite", "/trends", 200, []string{"<h1>Trends of support-desk</h1>"}, nil},
		{"trends of an unknown suite", "/trends?suite=nope", 200, []string{"Suite nope has no finished runs."}, nil},
		{"trends, bad n", "/trends?n=0", 400, []string{"want a number of runs from 1 to 1000"}, nil},

		{"compare form", "/compare", 200, []string{"<h1>Compare runs</h1>", `<option value="` + f.latest + `">shorter system prompt · fix/refunds@9c1e4f2a · by grace · support-desk · failed`,
			`<option value="baseline" selected>its baseline`, `<option value="previous">the run before it</option>`}, nil},
		{"compare with the baseline", "/compare?a=baseline&b=" + f.running, 200, []string{
			"<title>Compare nightly · main@5d7e765a · by ada → prompt v3 · fix/refunds@a0b1c2d3 · by eddie · Gavel</title>",
			`<a href="/runs/` + f.old + `" title="run ` + f.old + `">nightly · main@5d7e765a · by ada</a> <small class="muted"><code>` + f.old + `</code></small>`,
		}, nil},
		{"compare with the run before", "/compare?a=previous&b=" + f.running, 200, []string{
			"<title>Compare shorter system prompt · fix/refunds@9c1e4f2a · by grace → prompt v3",
			`href="/compare?a=baseline&amp;b=` + f.running + `">its baseline</a>`,
		}, nil},
		{"compare with no run before", "/compare?a=previous&b=" + f.older, 404, []string{"no run of suite support-desk started before run " + f.older}, nil},
		{"compare with no baseline", "/compare?a=baseline&b=" + f.hostile, 404, []string{"no baseline"}, nil},
		{"compare", "/compare?a=" + f.old + "&b=" + f.latest, 200, []string{
			"Compare: NO SIGNIFICANT CHANGE", "3 cases both runs judged alike: 2 worse, 0 better, p = 0.18", "Pass rate 80% → 37.5% (-42.5 points)",
			"<h2>Regressions (2)</h2>", `<a href="/runs/` + f.latest + `/cases/case_002"><code>case_002</code></a>`, "called forbidden tool cancel_order (call 2)",
			"<h2>Fixes (0)</h2>", "<h2>Score deltas</h2>", "<h2>Errored (1)</h2>", "<h2>Not compared (1)</h2>",
			"skipped in head: the budget ran out",
			`href="/runs/` + f.latest + `/cases/case_002"`, `href="/runs/` + f.old + `/cases/case_002"`,
		}, nil},
		{"compare, regressions before fixes before scores", "/compare?a=" + f.old + "&b=" + f.latest, 200, nil, nil},
		{"compare an unknown run", "/compare?a=nope&b=" + f.latest, 404, []string{"no run nope"}, nil},

		{"cases", "/cases", 200, []string{"<code>case_001</code>", `href="/cases/support-desk/orders%2Fcancel%204"`, "cases.yaml:12"}, nil},
		{"cases by text", "/cases?q=refund", 200, []string{"case_003"}, []string{"case_001"}},
		{"case", "/cases/support-desk/case_001", 200, []string{"Version 1 (latest)", "input: Where is order 12345?", "edit it in its file"}, nil},
		{"unknown case definition", "/cases/support-desk/nope", 404, []string{"suite support-desk has no case nope"}, nil},

		{"no such page", "/nowhere", 404, []string{"there is no page /nowhere"}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res, body := f.get(tt.path)
			if res.StatusCode != tt.status {
				t.Fatalf("GET %s: status %d, want %d\n%s", tt.path, res.StatusCode, tt.status, shortBody(body))
			}
			if ct := res.Header.Get("Content-Type"); ct != "text/html; charset=utf-8" {
				t.Errorf("Content-Type %q", ct)
			}
			mustContain(t, tt.path, body, append([]string{"<!DOCTYPE html>", "</html>"}, tt.want...)...)
			mustNotContain(t, tt.path, body, tt.notWant...)
		})
	}
}

func TestCompareOrder(t *testing.T) {
	f := newFixture(t, Config{})
	_, body := f.get("/compare?a=" + f.old + "&b=" + f.latest)
	last := -1
	for _, h := range []string{"<h2>Regressions", "<h2>Fixes", "<h2>Score deltas", "<h2>Errored", "<h2>Not compared"} {
		i := strings.Index(body, h)
		if i < last {
			t.Errorf("%q comes before what should precede it", h)
		}
		last = i
	}
}

// The app opens on the team's home: what runs now, each suite's latest
// verdict with its interval and sparklines, the newest regressions and
// the flaky cases; the runs list is a click away.
func TestHomePage(t *testing.T) {
	f := newFixture(t, Config{})
	res, body := f.get("/")
	if res.StatusCode != http.StatusOK {
		t.Fatalf("GET /: %d, want 200\n%s", res.StatusCode, shortBody(body))
	}
	section := func(id string) string {
		start := strings.Index(body, `<section id="`+id+`"`)
		if start < 0 {
			start = strings.Index(body, `<section class="`+id+`"`)
		}
		if start < 0 {
			t.Fatalf("the home page has no section %s:\n%s", id, body)
		}
		end := strings.Index(body[start:], "</section>")
		return body[start : start+end]
	}
	mustContain(t, "the home page", body, "<title>Home · Gavel</title>", `<a href="/" aria-current="page">Home</a>`, `<a href="/runs">Runs</a>`)
	mustContain(t, "running now", section("running"), `hx-get="/running" hx-trigger="every 3s"`,
		`>prompt v3 · fix/refunds@a0b1c2d3 · by eddie</a>`, `<td class="num">1 (1 trial so far)</td>`)
	mustNotContain(t, "running now", section("running"), f.latest, "37.5%")
	suites := section("suites")
	mustContain(t, "the suites", suites,
		// support-desk's latest run fails its gate, with its interval.
		`<a href="/trends?suite=support-desk" title="Trends of this suite">support-desk</a>`,
		`<span class="badge fail">FAIL</span> <span class="unmet">37.5%</span> / 80%<br><small class="muted">95% interval 0–75%</small>`,
		`>shorter system prompt · fix/refunds@9c1e4f2a · by grace</a>`,
		// Its sparklines, in words too: the pass rate of its 3 finished runs against 80%, and their cost.
		`aria-label="Pass rate of the last 3 runs, oldest first: 80%, 80%, 37.5%; threshold 80%"`,
		`<line class="spark-threshold" x1="0" x2="120" y1="6.8" y2="6.8"/><polyline class="spark-line" points="2,6.8 60,6.8 118,17"/>`,
		`aria-label="Cost of the last 3 runs, oldest first: $0.0840, $0.0840, $0.1008"`,
		// The hostile suite's name and label are text.
		`hostile&lt;u&gt;suite&lt;/u&gt;`, `&lt;img src=x onerror=alert(8)&gt;`,
	)
	mustNotContain(t, "the suites", suites, `<img src=x`)
	regressions := section("regressions")
	mustContain(t, "the regressions", regressions,
		`<a href="/runs/`+f.latest+`/cases/case_002"><code>case_002</code></a> Case case_002`,
		`<a href="/runs/`+f.latest+`/cases/case_003"><code>case_003</code></a>`,
		`>nightly · main@5d7e765a · by ada</a>`, // passed in its baseline
		`href="/compare?a=`+f.old+`&amp;b=`+f.latest+`">compare</a>`)
	mustContain(t, "the flaky cases", section("flaky"), `<code>case_003</code>`, `<a href="/flaky">Every flaky case</a>`)

	_, running := f.get("/running", "HX-Request", "true")
	mustContain(t, "GET /running, from htmx", running, `<section id="running"`, `1 (1 trial so far)`)
	mustNotContain(t, "GET /running, from htmx", running, "<!DOCTYPE html>", `class="suites"`)
}

// An empty store's home says how to store a run.
func TestHomePageEmpty(t *testing.T) {
	st, err := sqlite.Open(filepath.Join(t.TempDir(), "gavel.db"))
	if err != nil {
		t.Fatal(err)
	}
	f := &fixture{t: t, store: st, srv: New(st, Config{})}
	t.Cleanup(func() { st.Close() })
	res, body := f.get("/")
	if res.StatusCode != http.StatusOK {
		t.Fatalf("GET /: %d", res.StatusCode)
	}
	mustContain(t, "the empty home page", body, "Nothing is running.", "No runs stored yet", "No regressions", "No case flipped")
}

func TestMethodNotAllowed(t *testing.T) {
	f := newFixture(t, Config{})
	for _, path := range []string{"/trends", "/", "/runs/" + f.latest} {
		res, body := f.do(http.MethodPost, path)
		if res.StatusCode != http.StatusMethodNotAllowed || res.Header.Get("Allow") != "GET, HEAD" {
			t.Errorf("POST %s: %d, Allow %q; want 405, GET, HEAD", path, res.StatusCode, res.Header.Get("Allow"))
		}
		mustContain(t, "POST "+path, body, "POST is not allowed on "+path)
	}
}

// TestPaging walks the runs list page by page: every run once, newest
// first.
func TestPaging(t *testing.T) {
	f := newFixture(t, Config{PageSize: 2})
	want := []string{f.running, f.hostile, f.latest, f.old, f.older}
	link := regexp.MustCompile(`<a href="(/runs\?[^"]*)" hx-get="[^"]*" hx-target="#main" hx-push-url="true">Older runs`)
	runID := regexp.MustCompile(`<td><a class="run-name" href="/runs/([^"]+)"`)
	var got []string
	path := "/runs"
	for pages := 0; path != ""; pages++ {
		if pages > 5 {
			t.Fatal("too many pages")
		}
		res, body := f.get(path)
		if res.StatusCode != http.StatusOK {
			t.Fatalf("GET %s: %d", path, res.StatusCode)
		}
		for _, m := range runID.FindAllStringSubmatch(body, -1) {
			got = append(got, m[1])
		}
		path = ""
		if m := link.FindStringSubmatch(body); m != nil {
			path = strings.ReplaceAll(m[1], "&amp;", "&")
		}
		if pages > 0 {
			mustContain(t, "a later page", body, "← Newest")
		}
	}
	if strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("runs page by page:\ngot  %v\nwant %v", got, want)
	}
}

// TestFragments checks that an htmx request gets the page's content
// alone, and a history restore the whole page.
func TestFragments(t *testing.T) {
	f := newFixture(t, Config{})
	_, body := f.get("/runs?status=failed", "HX-Request", "true")
	mustContain(t, "htmx request", body, "<title>Runs · Gavel</title>", f.latest)
	mustNotContain(t, "htmx request", body, "<!DOCTYPE html>", "<nav aria-label=\"Main\">")
	res, body := f.get("/runs", "HX-Request", "true", "HX-History-Restore-Request", "true")
	mustContain(t, "history restore", body, "<!DOCTYPE html>")
	if v := res.Header.Get("Vary"); v != "HX-Request" {
		t.Errorf("Vary %q, want HX-Request", v)
	}
}

// TestEveryPageRenders walks the links of the pages from /runs, a page
// deep: every link to a page of the app answers 200 or a redirect.
func TestEveryPageRenders(t *testing.T) {
	f := newFixture(t, Config{})
	href := regexp.MustCompile(`href="(/[^"]*)"`)
	seen := map[string]bool{}
	queue := []string{"/runs", "/cases", "/trends", "/compare", "/runs/" + f.latest, "/runs/" + f.hostile}
	for len(queue) > 0 && len(seen) < 200 {
		path := queue[0]
		queue = queue[1:]
		if seen[path] {
			continue
		}
		seen[path] = true
		res, body := f.get(path)
		if res.StatusCode != http.StatusOK {
			t.Errorf("GET %s: %d", path, res.StatusCode)
			continue
		}
		if strings.HasPrefix(path, "/static/") || strings.HasPrefix(path, "/api/") {
			continue
		}
		for _, m := range href.FindAllStringSubmatch(body, -1) {
			link := strings.ReplaceAll(m[1], "&amp;", "&")
			if !seen[link] {
				queue = append(queue, link)
			}
		}
	}
	if len(seen) < 20 {
		t.Errorf("only %d pages reached", len(seen))
	}
}

// A run's page leads with its verdict and its cases; what it spent comes
// after them.
func TestRunPageLeadsWithVerdictAndCases(t *testing.T) {
	f := newFixture(t, Config{})
	_, body := f.get("/runs/" + f.latest)
	order := []string{`<p class="headline">`, "<h2>Cases</h2>", "<h2>Spent by role</h2>", "<h2>Spent by model</h2>", "<h2>Criteria</h2>", "<h2>Settings</h2>"}
	last := -1
	for _, s := range order {
		i := strings.Index(body, s)
		if i < 0 || i < last {
			t.Errorf("the run's page: %q at %d, want it after %q (at %d): in the order %q", s, i, order[max(0, slices.Index(order, s)-1)], last, order)
		}
		last = i
	}
}
