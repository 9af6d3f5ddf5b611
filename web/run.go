package web

import (
	"bytes"
	"cmp"
	"context"
	"fmt"
	"maps"
	"net/http"
	"net/url"
	"slices"
	"strings"

	"github.com/gavelhq/gavel"
	"github.com/gavelhq/gavel/judge"
	"github.com/gavelhq/gavel/report"
	"github.com/gavelhq/gavel/runner"
	"github.com/gavelhq/gavel/store"
)

// loadRun reads a run whole, its model references redacted; an unknown
// run is a 404.
func (s *Server) loadRun(ctx context.Context, id string) (*store.StoredRun, error) {
	return readRun(ctx, id, s.store.Run)
}

// loadVerdicts reads a run as loadRun does, but without its transcripts
// (store.Store.RunVerdicts), for a page that shows no conversation: they
// are most of what reading a run costs.
func (s *Server) loadVerdicts(ctx context.Context, id string) (*store.StoredRun, error) {
	return readRun(ctx, id, s.store.RunVerdicts)
}

// readRun reads a run with read, its model references redacted; an
// unknown run is a 404.
func readRun(ctx context.Context, id string, read func(context.Context, string) (*store.StoredRun, error)) (*store.StoredRun, error) {
	sr, err := read(ctx, id)
	if err != nil {
		return nil, notFound(err, "no run %s", id)
	}
	redactRun(sr)
	return sr, nil
}

// runData is run.tmpl's data.
type runData struct {
	ID, Href, Suite, SuiteFile string
	// Name is the run's (store.RunInfo.Name), Label its label; ByID says
	// the name starts with the id.
	Name, Label   string
	ByID          bool
	TrendsHref    string
	Status, Class string
	Finished, Met bool
	// Running is true while the run runs: the page shows its progress,
	// SoFar ("3 trials so far"), and no verdict.
	Running               bool
	SoFar                 string
	Incomplete, Abandoned string
	// NotJudged says why there is no pass rate, "" when there is one;
	// Unjudged, that a complete run that judged nothing does not pass.
	NotJudged, Unjudged      string
	Continues, ContinuesHref string
	Rejudges, RejudgesHref   string
	PassRate, Threshold      string
	// Decision is the gate's PASS, FAIL or INCONCLUSIVE (gavel.Gate),
	// Interval the pass rate's, and GateNote what an INCONCLUSIVE verdict
	// rests on and does.
	Decision, Interval, GateNote string
	// Quarantined says why each quarantined case was left out of the gate.
	Quarantined []string
	// Corrected is the pass rate corrected for the judge's errors, when
	// people's labels tell them.
	Corrected                     string
	Cases, Trials                 int
	Outcomes, Tokens, Calls, Cost string
	Unpriced                      string // which models have no price, and how to give it
	PassHatK                      string
	Flaky                         []string
	Started, StartedISO, Ended    string
	Duration                      string
	Git, StartedBy, Host, Filters string
	Settings, Models              []pair
	Roles, ModelUsage             []usageRow
	Criteria                      []criterionRow
	Rows                          []caseRow
	// CompareWith are the runs to compare the run with (its baseline,
	// the run before it, the suite's other recent runs), for the picker.
	CompareWith []runOption
	ReportHref  string
}

// A pair is a name and a value, a row of a small table.
type pair struct{ Name, Value string }

// usageRow is what a role or a model spent.
type usageRow struct {
	Name, Calls, Input, Output, Cached, Tokens, Cost string
}

// criterionRow is a criterion's scores over the run.
type criterionRow struct {
	Name, Count, Mean, Min string
}

// caseRow is a case in a run's table.
type caseRow struct {
	ID, Href, Name      string
	Tools, Response     string
	Outcome, Class      string
	Trials, Score, Cost string
	Reason              string
}

// runPage is a run: its numbers against its threshold, what it spent,
// its criteria, and a row per case.
func (s *Server) runPage(r *http.Request) (view, error) {
	sr, err := s.loadVerdicts(r.Context(), r.PathValue("id"))
	if err != nil {
		return view{}, err
	}
	sr.Run.JudgeAccuracy = store.JudgeAccuracy(r.Context(), s.store, sr.Info.Suite)
	d := newRunData(sr)
	if d.CompareWith, err = s.compareChoices(r.Context(), sr.Info); err != nil {
		return view{}, err
	}
	return view{template: "run.tmpl", title: "Run " + d.Name, nav: "runs", data: d}, nil
}

// compareChoices are the runs a run's page offers to compare it with:
// its baseline and the run before it, when there are, then the suite's
// other runs before it (recentRuns of them), by name. An option's ID is
// what ?a= of /compare takes.
func (s *Server) compareChoices(ctx context.Context, head store.RunInfo) ([]runOption, error) {
	var out []runOption
	for _, c := range []struct {
		ref, what string
		find      func(context.Context, store.RunInfo) (store.RunInfo, bool, error)
	}{
		{compareBaseline, "its baseline", s.baselineRun},
		{comparePrevious, "the run before it", s.previousRun},
	} {
		info, ok, err := c.find(ctx, head)
		if err != nil {
			return nil, err
		}
		if ok {
			out = append(out, runOption{ID: c.ref, Label: oneLine(c.what + ": " + info.Name() + " · " + stamp(info.Started))})
		}
	}
	older, err := s.store.Runs(ctx, store.RunFilter{Suite: head.Suite, Before: head.Started, Limit: recentRuns})
	if err != nil {
		return nil, err
	}
	for _, info := range older {
		out = append(out, newRunChoice(info, ""))
	}
	return out, nil
}

// compareHref is the URL of the comparison of head with base.
func compareHref(base, head string) string {
	return "/compare?" + url.Values{"a": {base}, "b": {head}}.Encode()
}

// newRunData formats a stored run for its page. The numbers are
// computed from the run's trials, so that a run still running shows how
// far it got; their verdicts and usage suffice (the transcripts may be
// left out).
func newRunData(sr *store.StoredRun) runData {
	info, run := sr.Info, sr.Run
	stats := run.Stats()
	total := stats.Usage.Total()
	threshold := thresholdOf(info.Threshold)
	gate := stats.Gate(threshold, info.GateConfig())
	d := runData{
		ID:         oneLine(info.ID),
		Name:       oneLine(info.Name()),
		Label:      oneLine(info.Label),
		ByID:       info.NamedByID(),
		Href:       runHref(info.ID),
		Suite:      oneLine(info.Suite),
		SuiteFile:  oneLine(info.SuiteFile),
		TrendsHref: "/trends?" + url.Values{"suite": {info.Suite}}.Encode(),
		Status:     string(info.Status),
		Class:      statusClass(string(info.Status)),
		Finished:   info.Status != store.Running,
		// An incomplete run (an abandoned one too) never passes; a running
		// one is shown as meeting its threshold so far, or not.
		Met:         gate.Passes && (run.Complete() || info.Status == store.Running),
		Decision:    string(gate.Decision),
		PassRate:    passRate(stats.PassRate),
		Interval:    report.IntervalWords(stats.PassRateInterval),
		GateNote:    report.GateNote(run),
		Corrected:   report.CorrectedLine(stats),
		Quarantined: report.QuarantinedCases(run),
		Threshold:   percent(threshold),
		Cases:       len(run.Cases),
		Trials:      stats.Trials,
		Tokens:      tokens(total),
		Calls:       report.Calls(total),
		Cost:        cost(total),
		Unpriced:    strings.TrimSpace(report.UnpricedNote(stats) + " " + report.UnreportedNote(stats)),
		PassHatK:    report.PassHatK(stats),
		Started:     stamp(info.Started),
		StartedISO:  machineTime(info.Started),
		Ended:       stamp(info.Ended),
		Git:         oneLine(info.Git()),
		StartedBy:   oneLine(info.StartedBy),
		Host:        oneLine(info.Host),
		Filters:     oneLine(strings.Join(info.Filters, " ")),
		ReportHref:  "/api" + runHref(info.ID),
	}
	if !info.Ended.IsZero() {
		d.Duration = elapsed(info.Ended.Sub(info.Started))
	}
	switch {
	case info.Status == store.Running:
		d.Decision = "" // no verdict yet
	case !run.Complete():
		d.Decision = "INCOMPLETE"
	}
	if stats.PassRate == nil {
		d.NotJudged = " (no trial was judged)"
	}
	d.Incomplete = report.Incomplete(run)
	d.Unjudged = report.Unjudged(run, stats)
	if info.Status == store.Running {
		// No verdict yet: what ran so far, not a pass rate that "does
		// not pass".
		d.Running, d.Incomplete = true, ""
		d.SoFar = fmt.Sprintf("%d trials so far", stats.Trials)
		if stats.Trials == 1 {
			d.SoFar = "1 trial so far"
		}
	}
	if info.Status == store.Abandoned {
		d.Abandoned = oneLine(abandonedWhy(info))
	}
	if info.Rejudges != "" {
		d.Rejudges, d.RejudgesHref = oneLine(info.Rejudges), runHref(info.Rejudges)
	}
	if info.Continues != "" {
		d.Continues, d.ContinuesHref = oneLine(info.Continues), runHref(info.Continues)
	}
	var outcomes []string
	for _, o := range []gavel.Outcome{gavel.Passed, gavel.Failed, gavel.Flaky, gavel.Errored, gavel.Skipped} {
		if n := stats.Cases[o]; n > 0 {
			outcomes = append(outcomes, fmt.Sprintf("%d %s", n, o))
		}
	}
	d.Outcomes = strings.Join(outcomes, " · ")
	for _, k := range slices.Sorted(maps.Keys(info.Settings)) {
		d.Settings = append(d.Settings, pair{oneLine(k), oneLine(settingValue(k, info.Settings[k]))})
	}
	for _, k := range slices.Sorted(maps.Keys(info.Models)) {
		d.Models = append(d.Models, pair{oneLine(k), oneLine(info.Models[k])})
	}
	for _, role := range stats.Usage.Roles() {
		if role.Usage != (judge.Usage{}) {
			d.Roles = append(d.Roles, newUsageRow(role.Role, role.Usage))
		}
	}
	if len(d.Roles) > 1 {
		d.Roles = append(d.Roles, newUsageRow("total", total))
	}
	for _, name := range slices.Sorted(maps.Keys(stats.Models)) {
		d.ModelUsage = append(d.ModelUsage, newUsageRow(oneLine(name), stats.Models[name]))
	}
	for _, c := range stats.Criteria {
		d.Criteria = append(d.Criteria, criterionRow{Name: oneLine(c.Name), Count: fmt.Sprint(c.Count), Mean: score(c.Mean), Min: score(c.Min)})
	}
	for i := range run.Cases {
		cr := &run.Cases[i]
		d.Rows = append(d.Rows, newCaseRow(info.ID, cr))
		if cr.Outcome == gavel.Flaky {
			passed, ran := trialsPassed(cr.Trials)
			d.Flaky = append(d.Flaky, fmt.Sprintf("%s (%d of %d trials passed)", oneLine(cr.ID()), passed, ran))
		}
	}
	return d
}

// newUsageRow formats what a role or a model spent: counts of tokens
// that leave out what nobody reported say so (see report.Tokens).
func newUsageRow(name string, u judge.Usage) usageRow {
	part := func(n int64) string { return tokens(judge.Usage{InputTokens: n, Unreported: u.Unreported}) }
	return usageRow{Name: name, Calls: report.CallsCell(u), Input: part(u.InputTokens), Output: part(u.OutputTokens),
		Cached: part(u.CachedTokens), Tokens: tokens(u), Cost: cost(u)}
}

// trialsPassed counts the trials that passed and those that ran.
func trialsPassed(trials []gavel.Trial) (passed, ran int) {
	for _, t := range trials {
		if t.Verdict.Passed() {
			passed++
		}
	}
	return passed, len(trials)
}

// reasonLength is how many characters of a reason the run's table shows.
const reasonLength = 140

// newCaseRow formats a case of a run for the run's table, as the text
// report's table does, and why it did not pass.
func newCaseRow(runID string, cr *gavel.CaseResult) caseRow {
	id := cr.ID()
	row := caseRow{
		ID: oneLine(id), Href: caseResultHref(runID, id),
		Outcome: string(cr.Outcome), Class: statusClass(string(cr.Outcome)),
		Tools: "-", Response: "-", Trials: "-", Score: "-", Cost: "-",
	}
	if cr.Case != nil {
		row.Name = oneLine(cr.Case.Name)
	}
	if row.ID == "" {
		row.ID = "(unnamed case)"
	}
	if cr.Outcome == gavel.Skipped {
		row.Reason = shorten(oneLine(orNoReason(cr.SkipReason)), reasonLength)
	}
	if len(cr.Trials) == 0 {
		return row
	}
	row.Tools, row.Response = report.Grades(cr.Trials)
	row.Trials = report.TrialsCell(cr)
	var sum float64
	var scored int
	var usage gavel.RoleUsage
	for _, t := range cr.Trials {
		if v, ok := t.Verdict.Normalized(); ok {
			sum, scored = sum+v, scored+1
		}
		usage = usage.Add(t.Usage)
		if row.Reason == "" {
			row.Reason = shorten(report.FirstReason(t.Verdict), reasonLength)
		}
	}
	if scored > 0 {
		row.Score = score(sum / float64(scored))
	}
	row.Cost = cost(usage.Total())
	return row
}

// orNoReason returns reason, or "no reason given" when it is empty.
func orNoReason(reason string) string {
	if reason == "" {
		return "no reason given"
	}
	return reason
}

// apiRun returns a run whole as its JSON report (report.JSONReport):
// GET /api/runs/{id}.
func (s *Server) apiRun(r *http.Request) (any, error) {
	sr, err := s.loadRun(r.Context(), r.PathValue("id"))
	if err != nil {
		return nil, err
	}
	var b bytes.Buffer
	if err := report.Write(&b, report.JSON, sr.Run, report.Options{Version: s.cfg.Version}); err != nil {
		return nil, err
	}
	return rawJSON(b.Bytes()), nil
}

// abandonedWhy says why a run shown as abandoned is: its process is gone,
// and what to do.
func abandonedWhy(info store.RunInfo) string {
	who := "the process that ran it"
	if info.PID > 0 {
		who += fmt.Sprintf(" (pid %d on %s)", info.PID, cmp.Or(info.Host, "its machine"))
	}
	return fmt.Sprintf("Abandoned: %s is gone, or was not heard of since %s. What it saved is below; gavel run --resume %s runs the rest.",
		who, stamp(info.Heartbeat), info.ID)
}

// settingValue words a run's setting for its page. Runs recorded before
// Gavel stored the values it used hold the flags' zeros, which meant the
// suite's value, else the runner's default: they read so.
func settingValue(name, value string) string {
	switch {
	case name == "concurrency" && value == "0":
		return fmt.Sprintf("the suite's, else %d (default)", runner.DefaultConcurrency)
	case name == "timeout" && (value == "0s" || value == "0"):
		return "the suite's, else " + strings.TrimSuffix(runner.DefaultTimeout.String(), "0s") + " (default)"
	case name == "trials" && value == "0":
		return "each case's own, else the suite's, else 1 (default)"
	}
	return value
}
