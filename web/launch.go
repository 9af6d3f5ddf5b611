package web

import (
	"context"
	"net/http"
	"strconv"
	"strings"
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

// A LaunchRequest says what to run. It is also the body of POST
// /api/runs.
type LaunchRequest struct {
	Suite string `json:"suite"`
	// Tags and IDs select cases, as gavel run's --tag and --id do; empty
	// runs every case (those written in the web app included).
	Tags []string `json:"tags,omitempty"`
	IDs  []string `json:"ids,omitempty"`
	// Trials, when positive, overrides the suite's.
	Trials int `json:"trials,omitempty"`
	// Label is what the person starting the run calls it (gavel run
	// --label): it leads the run's name. Optional.
	Label string `json:"label,omitempty"`
	// By is who started the run (the app sets it).
	By string `json:"-"`
}

// maxLabel is the longest label a run started from the app may have.
const maxLabel = 200

// MaxTrials is the most trials of each case a run started from the app
// may ask for.
const MaxTrials = 100

// Refused returns the error a Launcher gives for a request it will not
// run, such as an unknown suite or a selection no case matches: the app
// shows its message to the client as it is (422). Other errors are the
// server's own, logged and not shown.
func Refused(format string, args ...any) error {
	return errorf(http.StatusUnprocessableEntity, format, args...)
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
	Label            string
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
		IDs: r.PostFormValue("ids"), Trials: r.PostFormValue("trials"), Label: r.PostFormValue("label")}
	if s.cfg.Launcher != nil {
		d.Suites, d.CanLaunch = s.cfg.Launcher.Suites(), true
	}
	var id string
	trials, err := strconv.Atoi(strings.TrimSpace(d.Trials))
	if err != nil || trials < 1 {
		err = badTrials() // the form asks for a number; 0 would mean the suite's
	} else {
		id, err = s.launch(r, LaunchRequest{Suite: d.Suite, Tags: splitList(d.Tags), IDs: splitList(d.IDs), Trials: trials, Label: d.Label})
	}
	if err != nil {
		status, message := statusOf(err)
		s.logError(r, status, err)
		d.Problem = message
		s.render(w, r, status, view{template: "new_run.tmpl", title: "Start a run", nav: "runs", data: d})
		return
	}
	http.Redirect(w, r, "/runs/"+id, http.StatusSeeOther)
}

// launch starts a run for the request's visitor and returns its id.
func (s *Server) launch(r *http.Request, lr LaunchRequest) (string, error) {
	if s.cfg.Launcher == nil {
		return "", errorf(http.StatusConflict, "this server runs no suites: start it with the suites to run, as gavel serve SUITE...")
	}
	if lr.Trials < 0 || lr.Trials > MaxTrials {
		return "", badTrials()
	}
	lr.By = visitorName(r)
	if len(lr.Label) > maxLabel {
		return "", Refused("label: at most %d characters, a name for people", maxLabel)
	}
	lr.Label = strings.TrimSpace(lr.Label)
	return s.cfg.Launcher.Launch(r.Context(), lr)
}

// badTrials is the error of a number of trials out of range.
func badTrials() error { return Refused("trials: give a number from 1 to %d", MaxTrials) }
