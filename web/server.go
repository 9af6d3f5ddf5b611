package web

import (
	"log/slog"
	"net/http"

	"github.com/gavelhq/gavel/auth"
	"github.com/gavelhq/gavel/store"
)

// Config holds a Server's settings. The zero Config serves the read-only
// app to everyone, which fits a server listening on loopback.
type Config struct {
	// Version is Gavel's version, shown at the foot of every page and
	// written in the JSON reports. Defaults to "": none shown.
	Version string

	// Guard wraps the handler of every route, told the least role the
	// route needs: the seam where authentication and authorization go.
	// A guard finds the user (a session cookie, an API token), answers
	// itself when they may not go on (401, a redirect to the login page,
	// 403), checks CSRF on the methods that change state, and otherwise
	// calls next, with the user in the request's context if it likes.
	// Defaults to nil: every request goes through.
	Guard func(need Role, next http.Handler) http.Handler
	// Launcher, when set, lets editors start runs from the app. Defaults
	// to nil: runs are started with gavel run.
	Launcher Launcher
	// Auth, when set, makes the app log users in: it serves /login and
	// /logout, finds who sends every request, and refuses what their role
	// does not allow (it takes the place of Guard). Defaults to nil.
	Auth *auth.Authenticator

	// Logger receives the errors the server does not show its clients (a
	// failing store, a template that did not render). Defaults to
	// slog.Default().
	Logger *slog.Logger

	// PageSize is how many runs a page of the runs list shows. Defaults
	// to 50; the API's limit parameter may ask for up to MaxPageSize.
	PageSize int

	// TrendRuns is how many of a suite's last runs the trends show.
	// Defaults to 100.
	TrendRuns int

	// TraceURL, when set, links each traced trial to its trace in a
	// tracing UI: a URL with {trace_id} where the trace id goes, such as
	// http://localhost:16686/trace/{trace_id} (Jaeger). CheckTraceURL
	// checks one. Defaults to "": a traced trial shows its trace id.
	TraceURL string
}

// MaxPageSize is the most runs one page of GET /api/runs returns.
const MaxPageSize = 500

// Role is the least role a route needs (see Config.Guard): one of the
// accounts' roles, each allowed what the ones before it are, or Anyone.
type Role = store.Role

// The roles routes need.
const (
	// Anyone needs no account: the static assets and the login page.
	Anyone Role = ""
	// Viewer reads pages and calls the API's GET routes.
	Viewer = store.Viewer
	// Editor also writes cases, starts runs and labels results.
	Editor = store.Editor
	// Admin also manages users and API tokens.
	Admin = store.Admin
)

// A Server is the web app over a store: its pages, its JSON API and its
// static assets. It is an http.Handler; build one with New.
type Server struct {
	store   store.Store
	cfg     Config
	log     *slog.Logger
	mux     *http.ServeMux
	handler http.Handler
}

// New returns the web app over st, which stays the caller's to close.
func New(st store.Store, cfg Config) *Server {
	if cfg.PageSize <= 0 {
		cfg.PageSize = 50
	}
	cfg.PageSize = min(cfg.PageSize, MaxPageSize)
	if cfg.TrendRuns <= 0 {
		cfg.TrendRuns = 100
	}
	s := &Server{store: st, cfg: cfg, log: cfg.Logger, mux: http.NewServeMux()}
	if s.log == nil {
		s.log = slog.Default()
	}
	if cfg.Auth != nil {
		s.cfg.Guard = requireRole
	}
	routes := append(append(append(s.routes(), s.launchRoutes()...), s.writeRoutes()...), s.queueRoutes()...)
	if cfg.Auth != nil {
		routes = append(routes, s.loginRoutes()...)
	}
	for _, rt := range routes {
		s.handle(rt)
	}
	var h http.Handler = s.mux
	if cfg.Auth != nil {
		h = cfg.Auth.Middleware(h, "/login", "/static/", "/favicon.ico")
	}
	s.handler = securityHeaders(h)
	return s
}

// Handler returns the app as an http.Handler: the same as s.
func (s *Server) Handler() http.Handler { return s.handler }

// ServeHTTP serves the app.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	s.handler.ServeHTTP(w, r)
}

// A route is a pattern of http.ServeMux, the least role it needs, and its
// handler.
type route struct {
	pattern string
	need    Role
	handler http.Handler
}

// routes lists every route of the app. Pages answer HTML (see page), the
// API JSON (see api). Routes that change state are registered with their
// method ("POST /cases") and Editor or Admin, so that the guard can check
// the user's role and CSRF on them.
func (s *Server) routes() []route {
	return []route{
		{"GET /static/{file}", Anyone, http.HandlerFunc(serveStatic)},
		{"GET /favicon.ico", Anyone, http.HandlerFunc(serveFavicon)},

		{"GET /{$}", Viewer, s.page(s.homePage)},
		{"GET /running", Viewer, s.page(s.runningPage)},
		{"GET /runs", Viewer, s.page(s.runsPage)},
		{"GET /runs/{id}", Viewer, s.page(s.runPage)},
		{"GET /runs/{id}/cases/{case}", Viewer, s.page(s.caseResultPage)},
		{"GET /cases", Viewer, s.page(s.casesPage)},
		{"GET /cases/{suite}/{case}", Viewer, s.page(s.casePage)},
		{"GET /cases/new", Editor, s.page(s.newCasePage)},
		{"POST /cases", Editor, s.form(s.createCase)},
		{"GET /cases/{suite}/{case}/edit", Editor, s.page(s.editCasePage)},
		{"POST /cases/{suite}/{case}/edit", Editor, s.form(s.updateCase)},
		{"POST /runs/{id}/cases/{case}/labels", Editor, s.form(s.addLabel)},
		{"POST /runs/{id}/cases/{case}/labels/{label}/delete", Editor, s.form(s.deleteLabel)},
		{"GET /trends", Viewer, s.page(s.trendsPage)},
		{"GET /flaky", Viewer, s.page(s.flakyPage)},
		{"GET /compare", Viewer, s.page(s.comparePage)},
		{"/", Viewer, http.HandlerFunc(s.pageNotFound)},

		{"GET /api/runs", Viewer, s.api(s.apiRuns)},
		{"GET /api/runs/{id}", Viewer, s.api(s.apiRun)},
		{"GET /api/runs/{id}/info", Viewer, s.api(s.apiRunInfo)},
		{"GET /api/runs/{id}/cases/{case}", Viewer, s.api(s.apiCaseResult)},
		{"GET /api/cases", Viewer, s.api(s.apiCases)},
		{"GET /api/cases/{suite}/{case}", Viewer, s.api(s.apiCase)},
		{"GET /api/trends", Viewer, s.api(s.apiTrends)},
		{"GET /api/calibration", Viewer, s.api(s.apiCalibration)},
		{"GET /api/compare", Viewer, s.api(s.apiCompare)},
		{"/api/", Viewer, http.HandlerFunc(s.apiNotFound)},
	}
}

// handle registers a route, behind the guard.
func (s *Server) handle(rt route) {
	h := rt.handler
	if s.cfg.Guard != nil {
		h = s.cfg.Guard(rt.need, h)
	}
	s.mux.Handle(rt.pattern, h)
}
