package web

import (
	"context"
	"maps"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"time"

	"github.com/gavelhq/gavel/judge"
	"github.com/gavelhq/gavel/store"
)

// A Trend is a suite's numbers over its last finished runs, oldest
// first: the answer of GET /api/trends?suite=S (&tag=T).
type Trend struct {
	Suite string `json:"suite"`
	// Tag, when set, restricts the numbers to the cases carrying it (see
	// store.Store.TrendTag): runs where none of them ran are left out.
	Tag string `json:"tag,omitempty"`
	// Threshold is the pass rate the suite's latest run had to reach; 1
	// when it set none, 0 when there are no runs. Each point has its own
	// run's: a suite's threshold changes over its history.
	Threshold float64 `json:"threshold"`
	// Criteria name every criterion scored in any of the runs, sorted.
	Criteria []string     `json:"criteria"`
	Points   []TrendPoint `json:"points"`
}

// A TrendPoint is one finished run of a trend (passed, failed or
// incomplete: a run that errored measured nothing).
type TrendPoint struct {
	RunID string `json:"run_id"`
	// Name names the run for people (store.RunInfo.Name); Label is its
	// label and Git its branch and commit ("main@4f2a9c1e"), "" when
	// not known: the charts' ticks show the first there is.
	Name    string    `json:"name"`
	Label   string    `json:"label"`
	Git     string    `json:"git"`
	Started time.Time `json:"started"`
	// Threshold is the pass rate the run had to reach, 1 when it set
	// none.
	Threshold float64 `json:"threshold"`
	// PassRate is null when nothing was judged in the run (imported
	// without verdicts): a gap in the line, not a 0% point.
	PassRate *float64 `json:"pass_rate"`
	CostUSD  float64  `json:"cost_usd"`
	// CostUnpriced is true when a model without a price took part,
	// CostUnreported when some of what the run spent was never reported:
	// CostUSD is then a lower bound.
	CostUnpriced   bool `json:"cost_unpriced,omitempty"`
	CostUnreported bool `json:"cost_unreported,omitempty"`
	// Criteria are the run's mean scores (0..1), by criterion; a
	// criterion the run did not score is missing.
	Criteria map[string]float64 `json:"criteria"`
}

// trend reads a suite's trend over its last n runs, of the cases
// carrying tag when tag is not "": one query for the points, with their
// runs' thresholds (store.Trend reads the runs' summaries, never their
// trials; store.TrendTag reads the trials of those runs only).
func (s *Server) trend(ctx context.Context, suite, tag string, n int) (Trend, error) {
	var points []store.TrendPoint
	var err error
	if tag == "" {
		points, err = s.store.Trend(ctx, suite, n)
	} else {
		points, err = s.store.TrendTag(ctx, suite, tag, n)
	}
	if err != nil {
		return Trend{}, err
	}
	out := Trend{Suite: suite, Tag: tag, Criteria: []string{}, Points: make([]TrendPoint, len(points))}
	names := map[string]bool{}
	for i, p := range points {
		info := p.Info()
		out.Points[i] = TrendPoint{RunID: p.RunID, Name: info.Name(), Label: info.Label, Git: info.Git(), Started: p.Started, Threshold: thresholdOf(p.Threshold), PassRate: p.PassRate,
			CostUSD: p.CostUSD, CostUnpriced: p.CostUnpriced, CostUnreported: p.CostUnreported, Criteria: map[string]float64{}}
		for name, mean := range p.Criteria {
			out.Points[i].Criteria[name] = mean
			names[name] = true
		}
	}
	out.Criteria = append(out.Criteria, slices.Sorted(maps.Keys(names))...)
	if len(out.Points) > 0 {
		out.Threshold = out.Points[len(out.Points)-1].Threshold
	}
	return out, nil
}

// trendRuns reads the n parameter: how many runs a trend covers.
func (s *Server) trendRuns(r *http.Request) (int, error) {
	v := r.URL.Query().Get("n")
	if v == "" {
		return s.cfg.TrendRuns, nil
	}
	n, err := strconv.Atoi(v)
	if err != nil || n < 1 || n > 1000 {
		return 0, errorf(http.StatusBadRequest, "n %q: want a number of runs from 1 to 1000", v)
	}
	return n, nil
}

// apiTrends returns a suite's trend: GET /api/trends?suite=S&n=100, or
// the trend of the suite's cases carrying a tag: &tag=T.
func (s *Server) apiTrends(r *http.Request) (any, error) {
	suite := r.URL.Query().Get("suite")
	if suite == "" {
		return nil, errorf(http.StatusBadRequest, "suite: name the suite whose trend you want, as in /api/trends?suite=support-desk")
	}
	n, err := s.trendRuns(r)
	if err != nil {
		return nil, err
	}
	return s.trend(r.Context(), suite, r.URL.Query().Get("tag"), n)
}

// trendsData is trends.tmpl's data.
type trendsData struct {
	Suite string
	// Suites are the suites to choose from: those of the latest runs.
	Suites []option
	// Tag is the tag shown, "" for every case; Tags are the tags to
	// choose from: those of the suite's cases.
	Tag       string
	Tags      []option
	N         int
	Threshold string
	Criteria  []string
	Rows      []trendRow
	// API is the URL of the trend in the JSON API, which
	// static/trends.js reads to draw the charts.
	API string
	// Calibration is how far the suite's judges agree with people's
	// labels, over every labelled result of the suite.
	Calibration *calibrationView
}

// An option is a choice of a <select> or a <datalist>: the value as
// stored, and as shown.
type option struct {
	Value, Label string
	Selected     bool
}

// trendRow is a run of the trend, a row of the table the charts draw.
type trendRow struct {
	// Name and ByID are as runRow's.
	Name                             string
	ByID                             bool
	RunID, Href, Started, StartedISO string
	// PassRate is "unknown" when nothing was judged in the run; Threshold
	// is the run's own.
	PassRate, Threshold, Cost string
	// Criteria are the run's mean scores in the order of
	// trendsData.Criteria, "-" where the run has none.
	Criteria []string
}

// recentSuites is how many of the latest runs the trends page reads the
// suites to offer from.
const recentSuites = 200

// trendsPage charts a suite's pass rate, criteria and cost over its last
// runs, with the numbers in a table (which is all there is without
// JavaScript), of every case or of those carrying a tag (tag=T).
// Without a suite, it shows the suite of the latest run.
func (s *Server) trendsPage(r *http.Request) (view, error) {
	ctx := r.Context()
	n, err := s.trendRuns(r)
	if err != nil {
		return view{}, err
	}
	recent, err := s.store.Runs(ctx, store.RunFilter{Limit: recentSuites})
	if err != nil {
		return view{}, err
	}
	suite := r.URL.Query().Get("suite")
	d := trendsData{N: n}
	var names []string
	for _, info := range recent {
		if suite == "" {
			suite = info.Suite
		}
		if !slices.Contains(names, info.Suite) {
			names = append(names, info.Suite)
		}
	}
	if suite != "" && !slices.Contains(names, suite) {
		names = append(names, suite)
	}
	slices.Sort(names)
	for _, name := range names {
		d.Suites = append(d.Suites, option{Value: name, Label: oneLine(name), Selected: name == suite})
	}
	d.Suite = oneLine(suite)
	if suite == "" {
		return view{template: "trends.tmpl", title: "Trends", nav: "trends", data: d}, nil
	}
	tag := r.URL.Query().Get("tag")
	d.Tag = oneLine(tag)
	tags, err := s.suiteTags(ctx, suite)
	if err != nil {
		return view{}, err
	}
	if tag != "" && !slices.Contains(tags, tag) {
		tags = append(tags, tag)
		slices.Sort(tags)
	}
	d.Tags = append(d.Tags, option{Value: "", Label: "every case", Selected: tag == ""})
	for _, name := range tags {
		d.Tags = append(d.Tags, option{Value: name, Label: oneLine(name), Selected: name == tag})
	}
	t, err := s.trend(ctx, suite, tag, n)
	if err != nil {
		return view{}, err
	}
	c, err := s.calibration(ctx, suite)
	if err != nil {
		return view{}, err
	}
	cv := newCalibrationView(suite, c)
	d.Calibration = &cv
	d.Threshold = percent(t.Threshold)
	d.API = trendAPIHref(suite, tag, n)
	for _, name := range t.Criteria {
		d.Criteria = append(d.Criteria, oneLine(name))
	}
	for _, p := range t.Points {
		row := trendRow{
			Name: oneLine(p.Name), ByID: p.Label == "" && p.Git == "",
			RunID: oneLine(p.RunID), Href: runHref(p.RunID),
			Started: stamp(p.Started), StartedISO: machineTime(p.Started),
			PassRate: passRate(p.PassRate), Threshold: percent(p.Threshold),
			Cost: cost(judge.Usage{CostUSD: p.CostUSD, Unpriced: p.CostUnpriced, Unreported: p.CostUnreported}),
		}
		for _, name := range t.Criteria {
			mean, ok := p.Criteria[name]
			if !ok {
				row.Criteria = append(row.Criteria, "-")
				continue
			}
			row.Criteria = append(row.Criteria, score(mean))
		}
		d.Rows = append(d.Rows, row)
	}
	title := "Trends of " + d.Suite
	if tag != "" {
		title += ", tag " + d.Tag
	}
	return view{template: "trends.tmpl", title: title, nav: "trends", data: d}, nil
}

// trendAPIHref is the URL of a trend in the JSON API.
func trendAPIHref(suite, tag string, n int) string {
	q := url.Values{"suite": {suite}, "n": {strconv.Itoa(n)}}
	if tag != "" {
		q.Set("tag", tag)
	}
	return "/api/trends?" + q.Encode()
}

// suiteTags returns the tags of a suite's cases (their latest versions),
// sorted.
func (s *Server) suiteTags(ctx context.Context, suite string) ([]string, error) {
	cases, err := s.store.Cases(ctx, suite)
	if err != nil {
		return nil, err
	}
	var out []string
	for _, c := range cases {
		for _, tag := range c.Tags {
			if tag != "" && !slices.Contains(out, tag) {
				out = append(out, tag)
			}
		}
	}
	slices.Sort(out)
	return out, nil
}
