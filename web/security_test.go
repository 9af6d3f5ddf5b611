package web

import (
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"
)

// TestEscaping shows the hostile run, whose agent replies, tool calls,
// judges, case and suite file and git branch all write markup: every
// page shows it as text.
func TestEscaping(t *testing.T) {
	f := newFixture(t, Config{})
	run := "/runs/" + url.PathEscape(f.hostile)
	pages := map[string][]string{
		run + "/cases/case_x": {
			"&lt;script&gt;alert(1)&lt;/script&gt;",                   // the reply and the final response
			"&lt;/pre&gt;&lt;script&gt;alert(4)&lt;/script&gt;",       // a tool's result
			"&lt;script&gt;alert(5)&lt;/script&gt;",                   // a tool's arguments
			"&lt;b onmouseover=&#34;alert(6)&#34;&gt;hover&lt;/b&gt;", // a judge's reasoning
			"&lt;i&gt;criterion&lt;/i&gt;",                            // a judge's name
			"&lt;img src=x onerror=alert(2)&gt;",                      // the case's name
			"&#34;&gt;&lt;script&gt;alert(3)&lt;/script&gt;",          // its description
		},
		run: {
			"&lt;img src=x onerror=alert(2)&gt;",
			`<a href="/trends?suite=` + hostileQuery + `">hostile&lt;u&gt;suite&lt;/u&gt;</a>`,
			"&lt;script&gt;alert(7)&lt;/script&gt;@5d7e765a", // the git branch
			"suites/&lt;b&gt;hostile&lt;/b&gt;.yaml",
			"&lt;i&gt;criterion&lt;/i&gt;",
		},
		"/runs": {"&lt;script&gt;alert(7)&lt;/script&gt;@5d7e765a"},
		"/": { // the home page: the hostile suite's card
			`<a href="/trends?suite=` + hostileQuery + `" title="Trends of this suite">hostile&lt;u&gt;suite&lt;/u&gt;</a>`,
			"&lt;img src=x onerror=alert(8)&gt; · &lt;script&gt;alert(7)&lt;/script&gt;@5d7e765a · by ada", // its latest run's name
		},
		"/trends?suite=" + hostileQuery: {"&lt;i&gt;criterion&lt;/i&gt;", `data-api="/api/trends?n=100&amp;suite=` + hostileQuery + `"`, "Trends of hostile&lt;u&gt;suite&lt;/u&gt;"},
		"/trends?suite=support-desk&tag=" + hostileTagQuery: {
			"Trends of support-desk, tag &#34;&gt;&lt;b&gt;tag&lt;/b&gt;</h1>",
			`<option value="&#34;&gt;&lt;b&gt;tag&lt;/b&gt;" selected>&#34;&gt;&lt;b&gt;tag&lt;/b&gt;</option>`,
			"counting only the cases tagged &#34;&gt;&lt;b&gt;tag&lt;/b&gt;",
		},
		"/compare?a=" + f.latest + "&b=" + f.hostile: {"&lt;img src=x onerror=alert(2)&gt;"},
		"/cases?suite=" + hostileQuery:               nil,
	}
	for path, want := range pages {
		t.Run(path, func(t *testing.T) {
			res, body := f.get(path)
			if res.StatusCode != http.StatusOK {
				t.Fatalf("GET %s: %d", path, res.StatusCode)
			}
			mustContain(t, path, body, want...)
			for _, raw := range []string{"<script>alert", "<img src=x", "<b onmouseover", "<i>criterion", "<b>hostile", "<u>suite", "<b>tag"} {
				if strings.Contains(body, raw) {
					t.Errorf("GET %s: unescaped %q in the page", path, raw)
				}
			}
			checkScripts(t, path, body)
		})
	}
}

var (
	scriptTag = regexp.MustCompile(`(?is)<script\b([^>]*)>(.*?)</script>`)
	// eventAttr and styleAttr find attributes in tags (an escaped
	// "&lt;b onmouseover" is text, not a tag).
	eventAttr = regexp.MustCompile(`(?i)<[a-z][^<>]*\son[a-z]+\s*=`)
	styleAttr = regexp.MustCompile(`(?i)<[a-z][^<>]*\sstyle\s*=`)
)

// checkScripts fails the test unless every script of the page is a file
// of /static/ or a JSON block, and no tag has an event handler or a style
// attribute: what the Content-Security-Policy would block anyway.
func checkScripts(t *testing.T, path, body string) {
	t.Helper()
	for _, m := range scriptTag.FindAllStringSubmatch(body, -1) {
		attrs, content := m[1], m[2]
		switch {
		case strings.Contains(attrs, `src="/static/`) && strings.TrimSpace(content) == "":
		case strings.Contains(attrs, `type="application/json"`):
		default:
			t.Errorf("GET %s: inline script %s", path, m[0])
		}
	}
	if m := eventAttr.FindString(body); m != "" {
		t.Errorf("GET %s: event handler attribute in %s", path, m)
	}
	if m := styleAttr.FindString(body); m != "" {
		t.Errorf("GET %s: style attribute in %s", path, m)
	}
}

func TestSecurityHeaders(t *testing.T) {
	f := newFixture(t, Config{})
	for _, path := range []string{"/runs", "/runs/" + f.latest, "/trends", "/nowhere", "/api/runs", "/api/runs/nope", "/static/gavel.css", "/static/nope.js"} {
		res, _ := f.get(path)
		csp := res.Header.Get("Content-Security-Policy")
		for _, want := range []string{"default-src 'none'", "script-src 'self'", "style-src 'self'", "frame-ancestors 'none'", "base-uri 'none'"} {
			if !strings.Contains(csp, want) {
				t.Errorf("GET %s: Content-Security-Policy %q lacks %q", path, csp, want)
			}
		}
		if strings.Contains(csp, "unsafe") {
			t.Errorf("GET %s: Content-Security-Policy %q allows something unsafe", path, csp)
		}
		for name, want := range map[string]string{
			"X-Content-Type-Options": "nosniff",
			"Referrer-Policy":        "same-origin",
			"X-Frame-Options":        "DENY",
		} {
			if got := res.Header.Get(name); got != want {
				t.Errorf("GET %s: %s %q, want %q", path, name, got, want)
			}
		}
	}
}

// TestNoSecrets reads every page and API answer of the fixture: the
// password and the key in the hostile run's model reference appear in
// none, but the rest of the reference does.
func TestNoSecrets(t *testing.T) {
	f := newFixture(t, Config{})
	run := "/runs/" + f.hostile
	for _, path := range []string{
		"/", "/runs", run, run + "/cases/case_x", "/trends?suite=" + hostileQuery, "/compare?a=" + f.latest + "&b=" + f.hostile,
		"/api/runs", "/api" + run, "/api" + run + "/info", "/api" + run + "/cases/case_x",
		"/api/trends?suite=" + hostileQuery, "/api/compare?a=" + f.latest + "&b=" + f.hostile,
	} {
		res, body := f.get(path)
		if res.StatusCode != http.StatusOK {
			t.Errorf("GET %s: %d", path, res.StatusCode)
		}
		mustNotContain(t, path, body, secrets...)
		if path == run || path == "/api"+run || path == "/api"+run+"/info" {
			mustContain(t, path, body, "openai:qwen@https://gateway.example/v1")
		}
	}
}

// TestGuard checks the authentication seam: the guard sees every route
// with the role it needs, and what it refuses does not get through.
func TestGuard(t *testing.T) {
	needs := map[string]Role{}
	guard := func(need Role, next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			needs[r.URL.Path] = need
			if need > Anyone && r.Header.Get("Authorization") != "Bearer let-me-in" {
				http.Error(w, "log in first", http.StatusUnauthorized)
				return
			}
			next.ServeHTTP(w, r)
		})
	}
	f := newFixture(t, Config{Guard: guard})
	for _, tt := range []struct {
		path   string
		need   Role
		status int
	}{
		{"/runs", Viewer, http.StatusUnauthorized},
		{"/api/runs", Viewer, http.StatusUnauthorized},
		{"/nowhere", Viewer, http.StatusUnauthorized},
		{"/static/gavel.css", Anyone, http.StatusOK},
	} {
		res, _ := f.get(tt.path)
		if res.StatusCode != tt.status || needs[tt.path] != tt.need {
			t.Errorf("GET %s: status %d, guard told %s; want %d, %s", tt.path, res.StatusCode, needs[tt.path], tt.status, tt.need)
		}
	}
	if res, _ := f.get("/runs", "Authorization", "Bearer let-me-in"); res.StatusCode != http.StatusOK {
		t.Errorf("GET /runs with a token: %d", res.StatusCode)
	}
}
