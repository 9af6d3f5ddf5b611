package web

import (
	"bytes"
	"embed"
	"encoding/json"
	"errors"
	"html/template"
	"io/fs"
	"net/http"
	"slices"
	"strings"
	"sync"

	"github.com/gavelhq/gavel/auth"
)

// templateFS holds the pages' templates: layout.tmpl (the frame of every
// page, with the navigation, and the frame of an htmx fragment),
// partials.tmpl (what pages share: a verdict's tree, a table of usage)
// and a file per page, which defines "content".
//
//go:embed templates
var templateFS embed.FS

// pages are the parsed templates by page file ("runs.tmpl"), each with
// the layout and the partials, parsed on first use, so that a gavel
// command that serves no page does not pay for them at start.
var pages = sync.OnceValue(parsePages)

// templateFuncs are the functions templates may call.
var templateFuncs = template.FuncMap{
	"static": staticURL,
	"usage":  func(header string, rows []usageRow) usageTable { return usageTable{header, rows} },
}

// usageTable is the "usage" partial's data: what roles or models spent.
type usageTable struct {
	Header string
	Rows   []usageRow
}

func parsePages() map[string]*template.Template {
	files, err := fs.Glob(templateFS, "templates/*.tmpl")
	if err != nil {
		panic(err)
	}
	shared := template.Must(template.New("layout.tmpl").Funcs(templateFuncs).ParseFS(templateFS,
		"templates/layout.tmpl", "templates/partials.tmpl"))
	out := map[string]*template.Template{}
	for _, f := range files {
		name := strings.TrimPrefix(f, "templates/")
		if name == "layout.tmpl" || name == "partials.tmpl" {
			continue
		}
		out[name] = template.Must(template.Must(shared.Clone()).ParseFS(templateFS, f))
	}
	return out
}

// A view is what a page handler returns: the template to render and the
// data it places.
type view struct {
	// template is the page's file, "runs.tmpl".
	template string
	// title goes in <title> and heads the page.
	title string
	// nav is the navigation's item to mark current: "runs", "cases",
	// "trends" or "compare".
	nav  string
	data any
	// status, for a form shown again, is its status: 200 when it was
	// changed (a judge added), not refused. Defaults to 422.
	status int
}

// layoutData is what layout.tmpl places around a page.
type layoutData struct {
	Title, Nav, Version string
	// Visitor is who is looking, when the app knows (Config.Auth).
	Visitor *auth.Visitor
	// Body is the page's own data, for its "content" template.
	Body any
}

// page adapts a page handler: it renders the handler's view in the
// layout, or its error as an error page.
//
// An htmx request (HX-Request: true) gets the page's content alone, to
// swap into the page it came from; a request to restore htmx's history
// gets the whole page.
func (s *Server) page(h func(r *http.Request) (view, error)) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		v, err := h(r)
		status := http.StatusOK
		if err != nil {
			var message string
			status, message = statusOf(err)
			s.logError(r, status, err)
			v = view{template: "error.tmpl", title: http.StatusText(status), data: errorData{Status: status, Message: message}}
		}
		s.render(w, r, status, v)
	})
}

// errorData is error.tmpl's data.
type errorData struct {
	Status  int
	Message string
}

// render writes a view. The page is built in memory first, so that a
// template error is a 500 and never half a page.
func (s *Server) render(w http.ResponseWriter, r *http.Request, status int, v view) {
	t, ok := pages()[v.template]
	if !ok {
		panic("web: no template " + v.template)
	}
	name := "layout"
	if r.Header.Get("HX-Request") == "true" && r.Header.Get("HX-History-Restore-Request") != "true" {
		name = "fragment"
	}
	var b bytes.Buffer
	data := layoutData{Title: v.title, Nav: v.nav, Version: s.cfg.Version, Body: v.data}
	if visitor, ok := auth.VisitorFrom(r.Context()); ok {
		data.Visitor = &visitor
	}
	err := t.ExecuteTemplate(&b, name, data)
	if err != nil {
		s.logError(r, http.StatusInternalServerError, err)
		http.Error(w, "internal error: the server's log says more", http.StatusInternalServerError)
		return
	}
	h := w.Header()
	h.Set("Content-Type", "text/html; charset=utf-8")
	h.Set("Cache-Control", "no-store")
	h.Add("Vary", "HX-Request")
	w.WriteHeader(status)
	w.Write(b.Bytes())
}

// rawJSON is an API answer already encoded (a report written by package
// report), sent as it is.
type rawJSON []byte

// created is an API answer that made something: its status (201, or
// 202 for a run that goes on) and where to read it (the Location header).
type created struct {
	status   int
	location string
	body     any
}

// api adapts an API handler: it writes the handler's answer as JSON, or
// its error as {"error": "..."} with the error's status.
func (s *Server) api(h func(r *http.Request) (any, error)) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		v, err := h(r)
		if err != nil {
			status, message := statusOf(err)
			s.logError(r, status, err)
			answer := apiError{Error: message}
			if he := (*httpError)(nil); errors.As(err, &he) {
				answer.Fields, answer.Problems = he.fields, he.problems
			}
			writeJSON(w, status, answer)
			return
		}
		if c, ok := v.(created); ok {
			w.Header().Set("Location", c.location)
			writeJSON(w, c.status, c.body)
			return
		}
		if raw, ok := v.(rawJSON); ok {
			w.Header().Set("Content-Type", "application/json; charset=utf-8")
			w.Header().Set("Cache-Control", "no-store")
			w.Write(raw)
			return
		}
		writeJSON(w, http.StatusOK, v)
	})
}

// apiError is the API's answer to a request that failed.
type apiError struct {
	Error string `json:"error"`
	// Fields and Problems say what is wrong with a case sent to be saved.
	Fields   map[string]string `json:"fields,omitempty"`
	Problems []string          `json:"problems,omitempty"`
}

// writeJSON writes v as indented JSON. Text goes out as stored, < and >
// unescaped, as in the JSON reports: it is data, served as JSON, with
// nosniff.
func writeJSON(w http.ResponseWriter, status int, v any) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		status = http.StatusInternalServerError
		b.Reset()
		b.WriteString(`{"error": "internal error: the answer could not be encoded"}` + "\n")
	}
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	w.Write(b.Bytes())
}

// allowed returns the methods that routes other than the catch-all
// pattern have for r's path; nil when none does.
func (s *Server) allowed(r *http.Request, catchAll string) []string {
	var out []string
	for _, m := range []string{http.MethodGet, http.MethodPost, http.MethodPut, http.MethodPatch, http.MethodDelete} {
		probe := r.Clone(r.Context())
		probe.Method = m
		if _, pattern := s.mux.Handler(probe); pattern != catchAll && pattern != "" {
			out = append(out, m)
		}
	}
	if slices.Contains(out, http.MethodGet) {
		out = slices.Insert(out, 1, http.MethodHead)
	}
	return out
}

// notAllowed is the error of a request whose path a route has, but not
// with its method; it sets the Allow header.
func notAllowed(w http.ResponseWriter, r *http.Request, allowed []string) error {
	w.Header().Set("Allow", strings.Join(allowed, ", "))
	return errorf(http.StatusMethodNotAllowed, "%s is not allowed on %s: use %s", r.Method, r.URL.Path, strings.Join(allowed, " or "))
}

// pageNotFound answers a path no page has: 404, or 405 when a page has
// the path with other methods.
func (s *Server) pageNotFound(w http.ResponseWriter, r *http.Request) {
	err := errorf(http.StatusNotFound, "there is no page %s", r.URL.Path)
	if allowed := s.allowed(r, "/"); len(allowed) > 0 {
		err = notAllowed(w, r, allowed)
	}
	s.page(func(*http.Request) (view, error) { return view{}, err }).ServeHTTP(w, r)
}

// apiNotFound answers an API path no route has: 404, or 405 when a route
// has the path with other methods.
func (s *Server) apiNotFound(w http.ResponseWriter, r *http.Request) {
	err := errorf(http.StatusNotFound, "no API route %s (see GET /api/runs)", r.URL.Path)
	if allowed := s.allowed(r, "/api/"); len(allowed) > 0 {
		err = notAllowed(w, r, allowed)
	}
	s.api(func(*http.Request) (any, error) { return nil, err }).ServeHTTP(w, r)
}
