package web

import (
	"net/http"
	"regexp"
	"strings"
	"testing"

	"github.com/gavelhq/gavel/auth"
	"github.com/gavelhq/gavel/store"
)

func TestStatic(t *testing.T) {
	f := newFixture(t, Config{})
	types := map[string]string{
		"gavel.css":         "text/css; charset=utf-8",
		"trends.js":         "text/javascript; charset=utf-8",
		"caseform.js":       "text/javascript; charset=utf-8",
		"review.js":         "text/javascript; charset=utf-8",
		"htmx.min.js":       "text/javascript; charset=utf-8",
		"uPlot.iife.min.js": "text/javascript; charset=utf-8",
		"uPlot.min.css":     "text/css; charset=utf-8",
		"LICENSE-htmx":      "text/plain; charset=utf-8",
		"LICENSE-uplot":     "text/plain; charset=utf-8",
		"favicon.svg":       "image/svg+xml",
	}
	if len(assets) != len(types) {
		t.Errorf("%d static files, want %d: a new one needs a line here", len(assets), len(types))
	}
	for name, ct := range types {
		url := staticURL(name)
		res, body := f.get(url)
		if res.StatusCode != http.StatusOK || res.Header.Get("Content-Type") != ct || len(body) != len(assets[name].data) {
			t.Errorf("GET %s: %d, %q, %d bytes; want 200, %q, %d", url, res.StatusCode, res.Header.Get("Content-Type"), len(body), ct, len(assets[name].data))
		}
		if cc := res.Header.Get("Cache-Control"); !strings.Contains(cc, "immutable") {
			t.Errorf("GET %s: Cache-Control %q", url, cc)
		}
		res, _ = f.get("/static/"+name, "If-None-Match", res.Header.Get("ETag"))
		if res.StatusCode != http.StatusNotModified || res.Header.Get("Cache-Control") != "no-cache" {
			t.Errorf("GET /static/%s again: %d, Cache-Control %q; want 304, no-cache", name, res.StatusCode, res.Header.Get("Cache-Control"))
		}
	}
	for _, path := range []string{"/static/nope.js", "/static/", "/static/..%2fstatic.go"} {
		if res, _ := f.get(path); res.StatusCode != http.StatusNotFound {
			t.Errorf("GET %s: %d, want 404", path, res.StatusCode)
		}
	}
}

// TestVendored checks that the vendored libraries are the versions
// doc.go names, with their licenses beside them.
func TestVendored(t *testing.T) {
	for name, want := range map[string]*regexp.Regexp{
		"uPlot.iife.min.js": regexp.MustCompile(`^/\*! https://github.com/leeoniya/uPlot \(v1\.6\.32\) \*/`),
		"htmx.min.js":       regexp.MustCompile(`version:"2\.0\.11"`),
		"LICENSE-uplot":     regexp.MustCompile(`MIT License[\s\S]*Leon Sorokin`),
		"LICENSE-htmx":      regexp.MustCompile(`Zero-Clause BSD`),
	} {
		if !want.Match(assets[name].data) {
			t.Errorf("static/%s does not match %s", name, want)
		}
	}
}

// Every page links Gavel's icon, an SVG among the static files, and
// /favicon.ico, where browsers and tools look without a link, serves it
// too, to anyone, logged in or not.
func TestFavicon(t *testing.T) {
	f := newFixture(t, Config{})
	_, page := f.get("/runs")
	link := `<link rel="icon" href="` + staticURL("favicon.svg") + `" type="image/svg+xml">`
	mustContain(t, "the runs page", page, link)
	for _, path := range []string{staticURL("favicon.svg"), "/favicon.ico"} {
		res, body := f.get(path)
		if res.StatusCode != http.StatusOK || res.Header.Get("Content-Type") != "image/svg+xml" || !strings.HasPrefix(body, "<svg ") {
			t.Errorf("GET %s: %d, %q, %.40q; want 200, image/svg+xml, an SVG", path, res.StatusCode, res.Header.Get("Content-Type"), body)
		}
	}
	loggedOut := &fixture{t: t, store: f.store,
		srv: New(f.store, Config{Auth: auth.New(auth.Config{Accounts: f.store.(store.Accounts), Required: true})})}
	if res, _ := loggedOut.get("/favicon.ico"); res.StatusCode != http.StatusOK {
		t.Errorf("GET /favicon.ico before logging in: %d, want 200", res.StatusCode)
	}
}
