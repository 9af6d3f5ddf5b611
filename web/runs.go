package web

import (
	"context"
	"net/http"
	"net/url"
	"strconv"
	"time"

	"github.com/gavelhq/gavel"
	"github.com/gavelhq/gavel/store"
)

// statuses are the states a run may be filtered by, in the order the
// filter offers them.
var statuses = store.Statuses

// runFilter reads a runs list's filter from the query string: suite,
// status, branch, and before (a run's start, RFC 3339, for paging).
func runFilter(q url.Values, limit int) (store.RunFilter, error) {
	f := store.RunFilter{Suite: q.Get("suite"), Branch: q.Get("branch"), Limit: limit}
	if st := store.Status(q.Get("status")); st != "" {
		known := false
		for _, s := range statuses {
			known = known || s == st
		}
		if !known {
			return f, errorf(http.StatusBadRequest, "status %q: want running, passed, failed, incomplete, errored or abandoned", st)
		}
		f.Status = st
	}
	if b := q.Get("before"); b != "" {
		t, err := time.Parse(time.RFC3339Nano, b)
		if err != nil {
			return f, errorf(http.StatusBadRequest, "before %q: want a time in RFC 3339, like 2026-11-21T04:45:12.123456Z", b)
		}
		f.Before = t
	}
	return f, nil
}

// listRuns returns a page of runs and the query of the next page, "" on
// the last. It asks the store for one run more than the page holds, to
// know whether there is a next page.
func (s *Server) listRuns(ctx context.Context, q url.Values, f store.RunFilter) ([]store.RunInfo, string, error) {
	n := f.Limit
	f.Limit = n + 1
	runs, err := s.store.Runs(ctx, f)
	if err != nil {
		return nil, "", err
	}
	for i := range runs {
		runs[i] = redactInfo(runs[i])
	}
	if len(runs) <= n {
		return runs, "", nil
	}
	runs = runs[:n]
	next := filterQuery(q)
	next.Set("before", machineTime(runs[n-1].Started))
	return runs, next.Encode(), nil
}

// filterQuery returns the parameters of q that a runs list's pages keep:
// the filter and the limit, not the page.
func filterQuery(q url.Values) url.Values {
	out := url.Values{}
	for _, k := range []string{"suite", "status", "branch", "limit"} {
		if v := q.Get(k); v != "" {
			out.Set(k, v)
		}
	}
	return out
}

// runsData is runs.tmpl's data.
type runsData struct {
	// Suite, Status and Branch are the filter, as given.
	Suite, Status, Branch string
	Statuses              []string
	Rows                  []runRow
	// Next is the URL of the next page, older runs; First the URL of the
	// first page, when this is not it.
	Next, First string
	// Suites are the suites of the runs shown, to suggest in the filter.
	Suites []option
	// CanLaunch shows the button that starts a run: the server runs
	// suites and the visitor may start them.
	CanLaunch bool
}

// runRow is a run in the list.
type runRow struct {
	ID, Href, Suite, TrendsHref string
	// Name is the run's (store.RunInfo.Name); ByID says it starts with
	// the id, which is then not shown again.
	Name                string
	ByID                bool
	Status, Class       string
	PassRate, Threshold string
	Decision            string // the gate's (gavel.Gate)
	Finished, Met       bool
	Cases, Cost         string
	Started, StartedISO string
	Git                 string
}

// runsPage is the runs list, newest first, filtered and paged.
func (s *Server) runsPage(r *http.Request) (view, error) {
	q := r.URL.Query()
	f, err := runFilter(q, s.cfg.PageSize)
	if err != nil {
		return view{}, err
	}
	runs, next, err := s.listRuns(r.Context(), q, f)
	if err != nil {
		return view{}, err
	}
	d := runsData{Suite: f.Suite, Status: string(f.Status), Branch: f.Branch,
		CanLaunch: s.cfg.Launcher != nil && canEdit(r)}
	for _, st := range statuses {
		d.Statuses = append(d.Statuses, string(st))
	}
	seen := map[string]bool{}
	for _, info := range runs {
		d.Rows = append(d.Rows, newRunRow(info))
		if !seen[info.Suite] {
			seen[info.Suite] = true
			d.Suites = append(d.Suites, option{Value: info.Suite, Label: oneLine(info.Suite)})
		}
	}
	if next != "" {
		d.Next = "/runs?" + next
	}
	if !f.Before.IsZero() {
		first := filterQuery(q)
		d.First = "/runs"
		if len(first) > 0 {
			d.First += "?" + first.Encode()
		}
	}
	return view{template: "runs.tmpl", title: "Runs", nav: "runs", data: d}, nil
}

// newRunRow formats a run for the list.
func newRunRow(info store.RunInfo) runRow {
	finished := info.Status != store.Running && info.Status != store.Abandoned
	row := runRow{
		ID:         oneLine(info.ID),
		Name:       oneLine(info.Name()),
		ByID:       info.NamedByID(),
		Href:       runHref(info.ID),
		Suite:      oneLine(info.Suite),
		TrendsHref: "/trends?" + url.Values{"suite": {info.Suite}}.Encode(),
		Status:     string(info.Status),
		Class:      statusClass(string(info.Status)),
		Threshold:  percent(thresholdOf(info.Threshold)),
		Finished:   finished,
		Cases:      info.SoFar.String(), // what it saved so far, until it has a verdict
		Cost:       "-",
		Started:    stamp(info.Started),
		StartedISO: machineTime(info.Started),
		Git:        oneLine(info.Git()),
	}
	if finished {
		row.Cases, row.Cost = strconv.Itoa(info.Stats.CaseCount()), cost(info.Stats.Usage.Total())
		row.PassRate = passRate(info.Stats.PassRate)
		gate := info.Stats.Gate(thresholdOf(info.Threshold), info.GateConfig())
		row.Met = gate.Passes && info.Status != store.Incomplete // an incomplete run never passes
		row.Decision = string(gate.Decision)
	}
	return row
}

// runHref is the URL of a run's page.
func runHref(id string) string {
	return "/runs/" + url.PathEscape(id)
}

// caseResultHref is the URL of a case's result in a run.
func caseResultHref(runID, caseID string) string {
	return runHref(runID) + "/cases/" + url.PathEscape(caseID)
}

// A RunList is a page of runs, the answer of GET /api/runs.
type RunList struct {
	// Runs are newest first.
	Runs []RunSummary `json:"runs"`
	// Next is the URL of the next page (older runs), "" on the last.
	Next string `json:"next"`
}

// A RunSummary is a run without its cases: what GET /api/runs lists
// and GET /api/runs/{id}/info returns. Model references are redacted
// (a base URL loses its user info and query).
type RunSummary struct {
	ID string `json:"id"`
	// Label is what the person who started the run called it (gavel run
	// --label); Name names it for people: its label, git branch and
	// commit and who started it (store.RunInfo.Name).
	Label     string       `json:"label"`
	Name      string       `json:"name"`
	Suite     string       `json:"suite"`
	SuiteFile string       `json:"suite_file"`
	Status    store.Status `json:"status"`
	Started   time.Time    `json:"started"`
	// Ended is null while the run is running.
	Ended *time.Time `json:"ended"`
	// StopReason says why an incomplete run was stopped ("interrupted
	// (SIGTERM)"); "" for any other.
	StopReason string `json:"stop_reason"`
	// Continues is the id of the run this one carries on (--resume,
	// --retry-errors); "" for a fresh run.
	Continues string `json:"continues"`
	// Rejudges is the id of the run whose transcripts this one judged
	// again (gavel rejudge); "" for a run that talked with its agent.
	Rejudges string `json:"rejudges"`
	// Threshold is the pass rate the run had to reach, 1 when the suite
	// set none.
	Threshold float64 `json:"threshold"`
	// PassRate, Cases and CostUSD repeat the stats' pass rate (null when
	// nothing was judged), number of cases (whatever their outcome) and
	// total cost, for convenience.
	PassRate *float64 `json:"pass_rate"`
	Cases    int      `json:"cases"`
	CostUSD  float64  `json:"cost_usd"`
	// CostUnpriced is true when a model without a price took part in the
	// run, CostUnreported when some of what it spent was never reported
	// (judge.Usage.Unreported): CostUSD is then a lower bound.
	CostUnpriced   bool              `json:"cost_unpriced,omitempty"`
	CostUnreported bool              `json:"cost_unreported,omitempty"`
	GitBranch      string            `json:"git_branch"`
	GitCommit      string            `json:"git_commit"`
	StartedBy      string            `json:"started_by"`
	Host           string            `json:"host"`
	Filters        []string          `json:"filters"`
	Models         map[string]string `json:"models"`
	Settings       map[string]string `json:"settings"`
	// GitDirty says the tree it ran from had changes not committed
	// (GitCommit is not all of it).
	GitDirty bool `json:"git_dirty,omitempty"`
	// Stats are the run's numbers, as the JSON report's "stats"; empty
	// while the run is running.
	Stats gavel.Stats `json:"stats"`
	// SoFar counts the trials and cases a run not finished (running or
	// abandoned) saved so far; absent for a finished run. Such a run has
	// no verdict yet: its pass_rate and cases are 0.
	SoFar *store.Progress `json:"so_far,omitempty"`
	// Links are the run's page and its JSON report.
	Links RunLinks `json:"links"`
}

// RunLinks are where to read more of a run.
type RunLinks struct {
	// Page is the run's page; Report its JSON report (GET /api/runs/{id}).
	Page   string `json:"page"`
	Report string `json:"report"`
}

// newRunSummary converts a run's info, already redacted.
func newRunSummary(info store.RunInfo) RunSummary {
	out := RunSummary{
		ID: info.ID, Label: info.Label, Name: info.Name(), Suite: info.Suite, SuiteFile: info.SuiteFile, Status: info.Status,
		Started:      info.Started,
		StopReason:   info.StopReason,
		Continues:    info.Continues,
		Rejudges:     info.Rejudges,
		Threshold:    thresholdOf(info.Threshold),
		PassRate:     info.Stats.PassRate,
		Cases:        info.Stats.CaseCount(),
		CostUSD:      info.Stats.Usage.Total().CostUSD,
		CostUnpriced: info.Stats.Usage.Total().Unpriced, CostUnreported: info.Stats.Usage.Total().Unreported,
		GitBranch: info.GitBranch, GitCommit: info.GitCommit, GitDirty: info.GitDirty, StartedBy: info.StartedBy, Host: info.Host,
		Filters:  append([]string{}, info.Filters...),
		Models:   map[string]string{},
		Settings: map[string]string{},
		Stats:    info.Stats,
		Links:    RunLinks{Page: runHref(info.ID), Report: "/api" + runHref(info.ID)},
	}
	if !info.Ended.IsZero() {
		ended := info.Ended
		out.Ended = &ended
	}
	if info.Status == store.Running || info.Status == store.Abandoned {
		soFar := info.SoFar
		out.SoFar = &soFar
	}
	for k, v := range info.Models {
		out.Models[k] = v
	}
	for k, v := range info.Settings {
		out.Settings[k] = v
	}
	if out.Stats.Cases == nil {
		out.Stats.Cases = map[gavel.Outcome]int{}
	}
	return out
}

// apiRuns lists runs: GET /api/runs?suite=&status=&branch=&before=&limit=.
func (s *Server) apiRuns(r *http.Request) (any, error) {
	q := r.URL.Query()
	limit := s.cfg.PageSize
	if l := q.Get("limit"); l != "" {
		n, err := strconv.Atoi(l)
		if err != nil || n < 1 || n > MaxPageSize {
			return nil, errorf(http.StatusBadRequest, "limit %q: want a number from 1 to %d", l, MaxPageSize)
		}
		limit = n
	}
	f, err := runFilter(q, limit)
	if err != nil {
		return nil, err
	}
	runs, next, err := s.listRuns(r.Context(), q, f)
	if err != nil {
		return nil, err
	}
	out := RunList{Runs: make([]RunSummary, len(runs))}
	for i, info := range runs {
		out.Runs[i] = newRunSummary(info)
	}
	if next != "" {
		out.Next = "/api/runs?" + next
	}
	return out, nil
}

// apiRunInfo returns a run without its cases: GET /api/runs/{id}/info.
func (s *Server) apiRunInfo(r *http.Request) (any, error) {
	id := r.PathValue("id")
	info, err := s.store.RunInfo(r.Context(), id)
	if err != nil {
		return nil, notFound(err, "no run %s", id)
	}
	return newRunSummary(redactInfo(info)), nil
}
