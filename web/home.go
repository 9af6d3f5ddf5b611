package web

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"

	"github.com/gavelhq/gavel"
	"github.com/gavelhq/gavel/judge"
	"github.com/gavelhq/gavel/report"
	"github.com/gavelhq/gavel/store"
)

// The home page (/) is what a team opens every morning: what runs now,
// how each suite is doing, what regressed lately and which cases flip.
// It reads, for each of the latest suites (homeSuites at most): its last
// runs' summaries (store.Trend, for the sparklines), its latest run's
// summary, and the verdicts of that run and its baseline (to find the
// regressions): never a transcript.

// homeSuites is how many suites the home page shows: those of the latest
// runs, newest first.
const homeSuites = 12

// sparkRuns is how many of a suite's last finished runs its sparklines
// draw.
const sparkRuns = 20

// homeRegressions and homeFlaky are how many regressions and flaky cases
// the home page lists; the compare and flaky pages have the rest.
const (
	homeRegressions = 10
	homeFlaky       = 5
)

// homeData is home.tmpl's data.
type homeData struct {
	Running runningData
	Suites  []suiteCard
	Regress []regressionRow
	Flaky   []flakyRow
	FlakyOf int // how many runs the flaky cases are counted over
	// SparkRuns is how many runs a sparkline draws at most.
	SparkRuns int
	// CanLaunch shows the button that starts a run.
	CanLaunch bool
}

// suiteCard is a suite on the home page: its latest run's verdict and
// its sparklines.
type suiteCard struct {
	Suite, TrendsHref, RunsHref string
	// Latest is the suite's latest run that ran to an end (nil when none
	// did yet); Decision its gate's PASS, FAIL or INCONCLUSIVE (or
	// INCOMPLETE, ERRORED), Class its badge's class.
	Latest          *runRow
	Decision, Class string
	// Interval is the pass rate's interval in words; PassRate and
	// Threshold as runRow's.
	Interval       string
	PassRate, Cost sparkline
	// Runs is how many runs the sparklines draw.
	Runs int
}

// regressionRow is a case that passed in a suite's baseline and did not
// in its latest run.
type regressionRow struct {
	Suite, ID, Name, Href string
	Head, Base            runOption
	CompareHref           string
	Reason                string
	// started is when the head started (RFC 3339), to list the newest
	// first.
	started string
}

// runningData is the "running" partial's data: the runs under way.
type runningData struct {
	Runs []liveRun
}

// liveRun is a run under way: what it saved so far.
type liveRun struct {
	runRow
	// SoFar is how far it got: "3 (7 trials so far)", cases and trials.
	SoFar string
}

// homePage is the team's home: what is running, each suite's latest
// verdict and sparklines, the newest regressions and the flaky cases.
func (s *Server) homePage(r *http.Request) (view, error) {
	ctx := r.Context()
	running, err := s.running(ctx)
	if err != nil {
		return view{}, err
	}
	d := homeData{Running: running, CanLaunch: s.cfg.Launcher != nil && canEdit(r), FlakyOf: store.DefaultFlakyRuns, SparkRuns: sparkRuns}
	suites, err := s.latestSuites(ctx)
	if err != nil {
		return view{}, err
	}
	for _, suite := range suites {
		card, regressions, err := s.suiteCard(ctx, suite)
		if err != nil {
			return view{}, err
		}
		d.Suites = append(d.Suites, card)
		d.Regress = append(d.Regress, regressions...)
	}
	slices.SortStableFunc(d.Regress, func(a, b regressionRow) int { return strings.Compare(b.started, a.started) })
	if len(d.Regress) > homeRegressions {
		d.Regress = d.Regress[:homeRegressions]
	}
	flaky, err := store.Flaky(ctx, s.store, "", store.DefaultFlakyRuns)
	if err != nil {
		return view{}, err
	}
	for _, c := range flaky[:min(len(flaky), homeFlaky)] {
		d.Flaky = append(d.Flaky, newFlakyRow(c))
	}
	return view{template: "home.tmpl", title: "Home", nav: "home", data: d}, nil
}

// runningPage is the runs under way, alone: the home page's section
// that follows them asks for it every few seconds.
func (s *Server) runningPage(r *http.Request) (view, error) {
	d, err := s.running(r.Context())
	if err != nil {
		return view{}, err
	}
	return view{template: "running.tmpl", title: "Running now", nav: "home", data: d}, nil
}

// running reads the runs under way, newest first.
func (s *Server) running(ctx context.Context) (runningData, error) {
	runs, err := s.store.Runs(ctx, store.RunFilter{Status: store.Running, Limit: MaxPageSize})
	if err != nil {
		return runningData{}, err
	}
	var d runningData
	for _, info := range runs {
		info = redactInfo(info)
		live := liveRun{runRow: newRunRow(info), SoFar: info.SoFar.String()}
		d.Runs = append(d.Runs, live)
	}
	return d, nil
}

// latestSuites names the suites of the latest runs, the suite of the
// newest run first, homeSuites at most.
func (s *Server) latestSuites(ctx context.Context) ([]string, error) {
	recent, err := s.store.Runs(ctx, store.RunFilter{Limit: recentSuites})
	if err != nil {
		return nil, err
	}
	var names []string
	for _, info := range recent {
		if !slices.Contains(names, info.Suite) && len(names) < homeSuites {
			names = append(names, info.Suite)
		}
	}
	return names, nil
}

// suiteCard reads a suite's card, and the regressions of its latest run
// that ran every trial against its baseline (else the run before it that
// did).
func (s *Server) suiteCard(ctx context.Context, suite string) (suiteCard, []regressionRow, error) {
	q := url.Values{"suite": {suite}}.Encode()
	card := suiteCard{Suite: oneLine(suite), TrendsHref: "/trends?" + q, RunsHref: "/runs?" + q}
	points, err := s.store.Trend(ctx, suite, sparkRuns)
	if err != nil {
		return card, nil, err
	}
	card.Runs = len(points)
	card.PassRate, card.Cost = passRateSpark(points), costSpark(points)
	runs, err := s.store.Runs(ctx, store.RunFilter{Suite: suite, Limit: 20})
	if err != nil {
		return card, nil, err
	}
	var latest, latestFinished *store.RunInfo
	for i := range runs {
		info := &runs[i]
		if latest == nil && info.Status != store.Running && info.Status != store.Abandoned {
			latest = info
		}
		if latestFinished == nil && finished(*info) {
			latestFinished = info
		}
	}
	if latest != nil {
		info := redactInfo(*latest)
		row := newRunRow(info)
		card.Latest = &row
		card.Decision, card.Class = row.Decision, statusClass(row.Decision)
		switch info.Status {
		case store.Incomplete:
			card.Decision, card.Class = "INCOMPLETE", statusClass("incomplete")
		case store.Errored:
			card.Decision, card.Class = "ERRORED", statusClass("errored")
		}
		if card.Decision == string(gavel.DecisionInconclusive) {
			card.Class = "flaky" // neither a pass nor a fail: the amber of the badges
		}
		card.Interval = report.IntervalWords(info.Stats.PassRateInterval)
	}
	if latestFinished == nil {
		return card, nil, nil
	}
	regressions, err := s.regressions(ctx, *latestFinished)
	return card, regressions, err
}

// regressions compares head with its baseline, else with the run before
// it that ran every trial, and returns the cases it regressed on.
func (s *Server) regressions(ctx context.Context, head store.RunInfo) ([]regressionRow, error) {
	base, ok, err := s.baselineRun(ctx, head)
	if err != nil {
		return nil, err
	}
	if !ok {
		runs, err := s.store.Runs(ctx, store.RunFilter{Suite: head.Suite, Before: head.Started, Limit: 20})
		if err != nil {
			return nil, err
		}
		i := slices.IndexFunc(runs, finished)
		if i < 0 {
			return nil, nil
		}
		base = runs[i]
	}
	b, err := s.loadVerdicts(ctx, base.ID)
	if err != nil {
		return nil, err
	}
	h, err := s.loadVerdicts(ctx, head.ID)
	if err != nil {
		return nil, err
	}
	c := gavel.Compare(b.Run, h.Run)
	var out []regressionRow
	for _, cc := range c.Regressions {
		row := regressionRow{
			Suite: oneLine(head.Suite), ID: oneLine(cc.ID), Name: oneLine(cc.Name),
			Href: caseResultHref(head.ID, cc.ID),
			Head: newRunOption(h.Info), Base: newRunOption(b.Info),
			CompareHref: compareHref(base.ID, head.ID),
			Reason:      shorten(oneLine(cc.Head.Reason), reasonLength),
			started:     machineTime(head.Started),
		}
		out = append(out, row)
	}
	return out, nil
}

// A sparkline is a small chart drawn on the server as inline SVG, in a
// box of sparkWidth × sparkHeight: its line's segments (a gap where a run
// has no value), an optional dashed line across (the threshold), and
// what it shows in words for those who do not see it.
type sparkline struct {
	Segments  []string   // the points of each polyline, "x,y x,y"
	Dots      []sparkDot // lone values (a segment of one run)
	Threshold string     // the y of the line across, "" for none
	Words     string
}

// sparkDot is a point of a sparkline, drawn alone.
type sparkDot struct{ X, Y string }

// The sparklines' box, in SVG units.
const (
	sparkWidth  = 120
	sparkHeight = 28
)

// sparkPoints lays values (nil: no value) out across the box, oldest
// left, scaled from 0 to top at the bottom to the top.
func sparkPoints(values []*float64, top float64) (segments []string, dots []sparkDot) {
	var cur []sparkDot
	flush := func() {
		switch len(cur) {
		case 0:
		case 1:
			dots = append(dots, cur[0])
		default:
			var line []string
			for _, p := range cur {
				line = append(line, p.X+","+p.Y)
			}
			segments = append(segments, strings.Join(line, " "))
		}
		cur = nil
	}
	step := 0.0
	if len(values) > 1 {
		step = float64(sparkWidth-4) / float64(len(values)-1)
	}
	for i, v := range values {
		if v == nil {
			flush()
			continue
		}
		x := 2 + step*float64(i)
		if len(values) == 1 {
			x = sparkWidth / 2
		}
		cur = append(cur, sparkDot{svgNumber(x), svgNumber(sparkY(*v, top))})
	}
	flush()
	return segments, dots
}

// sparkY is the y of v on a scale from 0 (the bottom) to top (the top),
// 2 units in from either edge; a top of 0 puts everything at the bottom.
func sparkY(v, top float64) float64 {
	if top <= 0 {
		return sparkHeight - 2
	}
	return sparkHeight - 2 - (sparkHeight-4)*min(max(v/top, 0), 1)
}

// svgNumber formats a coordinate: one decimal at most.
func svgNumber(v float64) string {
	return strconv.FormatFloat(float64(int(v*10+0.5))/10, 'f', -1, 64)
}

// passRateSpark is a suite's pass rate over its last runs, from 0 to
// 100%, with the latest run's threshold across; a run in which nothing
// was judged is a gap.
func passRateSpark(points []store.TrendPoint) sparkline {
	if len(points) == 0 {
		return sparkline{}
	}
	values := make([]*float64, len(points))
	for i, p := range points {
		values[i] = p.PassRate
	}
	var sp sparkline
	sp.Segments, sp.Dots = sparkPoints(values, 1)
	last := points[len(points)-1]
	sp.Threshold = svgNumber(sparkY(thresholdOf(last.Threshold), 1))
	sp.Words = fmt.Sprintf("Pass rate of the last %d runs, oldest first: %s; threshold %s", len(points),
		strings.Join(mapPoints(points, func(p store.TrendPoint) string { return passRate(p.PassRate) }), ", "), percent(thresholdOf(last.Threshold)))
	return sp
}

// costSpark is what a suite's last runs cost, from $0 to the dearest
// (flat at the foot when every run cost $0).
func costSpark(points []store.TrendPoint) sparkline {
	if len(points) == 0 {
		return sparkline{}
	}
	values := make([]*float64, len(points))
	top := 0.0
	for i, p := range points {
		c := p.CostUSD
		values[i] = &c
		top = max(top, c)
	}
	var sp sparkline
	sp.Segments, sp.Dots = sparkPoints(values, top)
	sp.Words = fmt.Sprintf("Cost of the last %d runs, oldest first: %s", len(points),
		strings.Join(mapPoints(points, func(p store.TrendPoint) string {
			return cost(judge.Usage{CostUSD: p.CostUSD, Unpriced: p.CostUnpriced, Unreported: p.CostUnreported})
		}), ", "))
	return sp
}

// mapPoints formats each point.
func mapPoints(points []store.TrendPoint, f func(store.TrendPoint) string) []string {
	out := make([]string, len(points))
	for i, p := range points {
		out[i] = f(p)
	}
	return out
}

// newFlakyRow formats a flaky case for the flaky page and the home page.
func newFlakyRow(c store.FlakyCase) flakyRow {
	row := flakyRow{
		Suite: oneLine(c.Suite), SuiteHref: "/trends?" + url.Values{"suite": {c.Suite}}.Encode(),
		ID: oneLine(c.CaseID), Href: "/cases/" + url.PathEscape(c.Suite) + "/" + url.PathEscape(c.CaseID),
		FlipRate: percent(c.FlipRate), Quarantined: oneLine(c.Quarantined),
	}
	for _, o := range c.Outcomes {
		row.Outcomes = append(row.Outcomes, sideView{Outcome: string(o), Class: statusClass(string(o))})
	}
	return row
}
