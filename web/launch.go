package web

import (
	"context"
	"net/http"
	"strconv"
	"strings"

	"github.com/gavelhq/gavel/auth"
)

// A Launcher starts runs for the web app: gavel serve gives one that runs
// the suites it was started with. A run it starts is stored as it goes,
// like any other, so its page shows it live.
type Launcher interface {
	// Suites names the suites it can run.
	Suites() []string
	// Launch starts a run and returns its id as soon as it is stored; the
	// run goes on in the background.
	Launch(ctx context.Context, r LaunchRequest) (runID string, err error)
}

// A LaunchRequest says what to run.
type LaunchRequest struct {
	Suite string
	// Tags and IDs select cases, as gavel run's --tag and --id do; empty
	// runs every case (those written in the web app included).
	Tags, IDs []string
	// Trials, when positive, overrides the suite's.
	Trials int
	// By is who started the run.
	By string
}

// launchRoutes are the routes of starting runs.
func (s *Server) launchRoutes() []route {
	return []route{
		{"GET /runs/new", Editor, s.page(s.newRunPage)},
		{"POST /runs", Editor, http.HandlerFunc(s.startRun)},
	}
}

// launchData is new_run.tmpl's data.
type launchData struct {
	Suites           []string
	Suite, Tags, IDs string
	Trials           string
	CSRF, Problem    string
	CanLaunch        bool
}

func (s *Server) newRunPage(r *http.Request) (view, error) {
	d := launchData{CSRF: csrfOf(r), Suite: r.URL.Query().Get("suite"), Trials: "1"}
	if s.cfg.Launcher != nil {
		d.Suites, d.CanLaunch = s.cfg.Launcher.Suites(), true
	}
	return view{template: "new_run.tmpl", title: "Start a run", nav: "runs", data: d}, nil
}

// startRun starts the run the form asks for and shows its page, or the
// form again with the problem.
func (s *Server) startRun(w http.ResponseWriter, r *http.Request) {
	d := launchData{CSRF: csrfOf(r), Suite: r.PostFormValue("suite"), Tags: r.PostFormValue("tags"),
		IDs: r.PostFormValue("ids"), Trials: r.PostFormValue("trials")}
	again := func(problem string) {
		d.Problem = problem
		s.render(w, r, http.StatusUnprocessableEntity, view{template: "new_run.tmpl", title: "Start a run", nav: "runs", data: d})
	}
	if s.cfg.Launcher == nil {
		again("This server runs no suites: start it with the suites to run, as gavel serve SUITE...")
		return
	}
	d.Suites, d.CanLaunch = s.cfg.Launcher.Suites(), true
	trials, err := strconv.Atoi(strings.TrimSpace(d.Trials))
	if err != nil || trials < 1 || trials > 100 {
		again("Trials: give a number from 1 to 100.")
		return
	}
	by := "local"
	if v, ok := auth.VisitorFrom(r.Context()); ok {
		by = v.User.Name
	}
	id, err := s.cfg.Launcher.Launch(r.Context(), LaunchRequest{Suite: d.Suite, Tags: commaList(d.Tags), IDs: commaList(d.IDs), Trials: trials, By: by})
	if err != nil {
		again(err.Error())
		return
	}
	http.Redirect(w, r, "/runs/"+id, http.StatusSeeOther)
}

// commaList splits a comma-separated field, dropping empty items.
func commaList(s string) []string {
	var out []string
	for _, item := range strings.Split(s, ",") {
		if item = strings.TrimSpace(item); item != "" {
			out = append(out, item)
		}
	}
	return out
}
