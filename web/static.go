package web

import (
	"bytes"
	"crypto/sha256"
	"embed"
	"encoding/hex"
	"io/fs"
	"net/http"
	"path"
	"time"
)

// staticFS holds the assets the pages load: Gavel's own stylesheet,
// scripts and icon, and the vendored libraries (htmx, uPlot) with their
// licenses.
// No page loads anything from elsewhere.
//
//go:embed static
var staticFS embed.FS

// An asset is a static file with the hash its URLs carry.
type asset struct {
	data []byte
	hash string
}

// assets are the static files by name, read once.
var assets = loadAssets()

func loadAssets() map[string]asset {
	out := map[string]asset{}
	entries, err := fs.ReadDir(staticFS, "static")
	if err != nil {
		panic(err) // embedded: cannot happen
	}
	for _, e := range entries {
		if e.IsDir() {
			continue
		}
		data, err := staticFS.ReadFile("static/" + e.Name())
		if err != nil {
			panic(err)
		}
		sum := sha256.Sum256(data)
		out[e.Name()] = asset{data: data, hash: hex.EncodeToString(sum[:6])}
	}
	return out
}

// staticURL returns the URL of a static file, with its hash as v, so that
// browsers may keep it as long as they like and still get a new version
// the moment it changes. It panics on a file that is not there: templates
// name files, and a test renders every template.
func staticURL(name string) string {
	a, ok := assets[name]
	if !ok {
		panic("web: no static file " + name)
	}
	return "/static/" + name + "?v=" + a.hash
}

// serveStatic serves a static file. Asked for with its current hash, the
// file is cached for a year; otherwise the browser checks its ETag each
// time.
func serveStatic(w http.ResponseWriter, r *http.Request) {
	name := r.PathValue("file")
	a, ok := assets[name]
	if !ok || path.Base(name) != name {
		http.NotFound(w, r)
		return
	}
	h := w.Header()
	h.Set("ETag", `"`+a.hash+`"`)
	if r.URL.Query().Get("v") == a.hash {
		h.Set("Cache-Control", "public, max-age=31536000, immutable")
	} else {
		h.Set("Cache-Control", "no-cache")
	}
	if path.Ext(name) == "" { // the licenses
		h.Set("Content-Type", "text/plain; charset=utf-8")
	}
	http.ServeContent(w, r, name, time.Time{}, bytes.NewReader(a.data))
}

// serveFavicon serves Gavel's icon at /favicon.ico, where browsers and
// tools look for one when a page links none (a JSON answer, a feed
// reader). Pages link static/favicon.svg; this is the same SVG.
func serveFavicon(w http.ResponseWriter, r *http.Request) {
	a := assets["favicon.svg"]
	w.Header().Set("Content-Type", "image/svg+xml")
	w.Header().Set("Cache-Control", "public, max-age=86400")
	http.ServeContent(w, r, "favicon.svg", time.Time{}, bytes.NewReader(a.data))
}
