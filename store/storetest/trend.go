package storetest

import (
	"context"
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/gavelhq/gavel"
	"github.com/gavelhq/gavel/judge"
	"github.com/gavelhq/gavel/store"
)

// testTrend finishes runs of a suite with different scores: its trend
// gives the last finished ones, oldest first, with their pass rates,
// costs and per-criterion means.
func testTrend(t *testing.T, s store.Store) {
	ctx := ctx(t)
	c1, c2 := testCase("case_001", "where is order 1?"), testCase("case_002", "cancel order 2")
	var want []store.TrendPoint // every finished run of support-desk, oldest first
	for i := range 6 {
		started := base.Add(time.Duration(i) * time.Hour)
		in := runInfo("support-desk", started)
		if i%2 == 0 { // some runs have a label, one a tree not clean: each point names its run
			in.Label, in.GitDirty = fmt.Sprintf("prompt v%d", i), i == 2
		}
		info, err := s.CreateRun(ctx, in)
		check(t, "CreateRun", err)
		status := judge.StatusPass
		if i%2 == 1 {
			status = judge.StatusFail
		}
		run := &gavel.Run{Cases: []gavel.CaseResult{
			result(c1, trial("case_001", 1, trialSpec{helpfulness: float64(1 + i%5)}), trial("case_001", 2, trialSpec{status: status})),
			result(c2, trial("case_002", 1, trialSpec{tone: "cold"})),
		}}
		for _, c := range run.Cases {
			for _, tr := range c.Trials {
				check(t, "SaveTrial", s.SaveTrial(ctx, info.ID, store.TrialRecord{Trial: tr}))
			}
		}
		check(t, "FinishRun", s.FinishRun(ctx, info.ID, store.RunEnd{Status: store.Passed, Ended: started.Add(time.Minute), Run: run}))
		stats := run.Stats()
		p := named(store.TrendPoint{RunID: info.ID, Started: storedTime(started), Threshold: 0.8, PassRate: stats.PassRate, CostUSD: stats.Usage.Total().CostUSD, CostUnpriced: stats.Usage.Total().Unpriced, Criteria: map[string]float64{}}, in)
		for _, c := range stats.Criteria {
			p.Criteria[c.Name] = c.Mean
		}
		want = append(want, p)
	}
	// Neither a run still running, nor one of another suite, is part of
	// the trend.
	_, err := s.CreateRun(ctx, runInfo("support-desk", base.Add(10*time.Hour)))
	check(t, "CreateRun", err)
	other, err := s.CreateRun(ctx, runInfo("billing", base.Add(11*time.Hour)))
	check(t, "CreateRun", err)
	check(t, "FinishRun", s.FinishRun(ctx, other.ID, store.RunEnd{Status: store.Passed, Run: &gavel.Run{}}))

	tests := []struct {
		name  string
		suite string
		n     int
		want  []store.TrendPoint
	}{
		{"last 3", "support-desk", 3, want[3:]},
		{"more than there are", "support-desk", 100, want},
		{"unknown suite", "no-such-suite", 10, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := s.Trend(ctx, tt.suite, tt.n)
			check(t, "Trend", err)
			diff(t, "Trend", got, tt.want, equateEmpty)
		})
	}
	if len(want[0].Criteria) != 2 || want[0].PassRate == want[1].PassRate {
		t.Errorf("fixture: want 2 criteria and pass rates that differ between runs, got %+v", want[:2])
	}
}

// testTrendTag finishes runs whose cases carry different tags: the trend
// of a tag has the numbers gavel.Stats gives for a run of its cases
// alone, and leaves out the runs where none of them ran. Tags match
// exactly: "billing" is not "x\"billing" nor "bill".
func testTrendTag(t *testing.T, s store.Store) {
	ctx := ctx(t)
	tagged := func(id string, tags ...string) *gavel.Case {
		c := testCase(id, "where is order "+id+"?")
		c.Tags = tags
		return c
	}
	c1 := tagged("case_001", "billing", "urgent")
	c2 := tagged("case_002", "billing")
	c3 := tagged("case_003", `x"billing`, "<script>")
	tags := []string{"billing", "urgent", `x"billing`, "<script>", "bill"}
	want := map[string][]store.TrendPoint{}
	// point returns the numbers of run's cases that carry tag, and false
	// when none of them ran.
	point := func(id string, started time.Time, run *gavel.Run, tag string) (store.TrendPoint, bool) {
		sub := &gavel.Run{}
		for _, c := range run.Cases {
			if slices.Contains(c.Case.Tags, tag) && len(c.Trials) > 0 {
				sub.Cases = append(sub.Cases, c)
			}
		}
		if len(sub.Cases) == 0 {
			return store.TrendPoint{}, false
		}
		stats := sub.Stats()
		p := named(store.TrendPoint{RunID: id, Started: storedTime(started), Threshold: 0.8, PassRate: stats.PassRate, CostUSD: stats.Usage.Total().CostUSD, CostUnpriced: stats.Usage.Total().Unpriced, Criteria: map[string]float64{}}, runInfo("support-desk", started))
		for _, c := range stats.Criteria {
			p.Criteria[c.Name] = c.Mean
		}
		return p, true
	}
	for i := range 5 {
		started := base.Add(time.Duration(i) * time.Hour)
		info, err := s.CreateRun(ctx, runInfo("support-desk", started))
		check(t, "CreateRun", err)
		second := judge.StatusPass
		if i%2 == 1 {
			second = judge.StatusFail
		}
		urgent := result(c1, trial("case_001", 1, trialSpec{helpfulness: float64(1 + i)}), trial("case_001", 2, trialSpec{status: second, tone: "cold"}))
		if i == 2 {
			urgent = skipped(c1, "budget")
		}
		run := &gavel.Run{Cases: []gavel.CaseResult{
			urgent,
			result(c2, trial("case_002", 1, trialSpec{status: judge.StatusFail, helpfulness: 2})),
			result(c3, trial("case_003", 1, trialSpec{tone: "cold"}), trial("case_003", 2, trialSpec{}), trial("case_003", 3, trialSpec{status: judge.StatusFail})),
		}}
		for _, c := range run.Cases {
			for _, tr := range c.Trials {
				check(t, "SaveTrial", s.SaveTrial(ctx, info.ID, store.TrialRecord{Trial: tr}))
			}
		}
		check(t, "FinishRun", s.FinishRun(ctx, info.ID, store.RunEnd{Status: store.Failed, Ended: started.Add(time.Minute), Run: run}))
		for _, tag := range tags {
			if p, ok := point(info.ID, started, run, tag); ok {
				want[tag] = append(want[tag], p)
			}
		}
	}
	// A run that crashed and was closed from its saved trials: its cases'
	// tags are those of the versions the trials ran.
	started := base.Add(6 * time.Hour)
	crashed, err := s.CreateRun(ctx, runInfo("support-desk", started))
	check(t, "CreateRun", err)
	v, err := s.SaveCase(ctx, store.CaseDef{Suite: "support-desk", ID: "case_002", Name: "Case case_002", Tags: []string{"billing"}, Definition: []byte("id: case_002\n")})
	check(t, "SaveCase", err)
	crashTrials := []gavel.Trial{trial("case_002", 1, trialSpec{helpfulness: 5}), trial("case_002", 2, trialSpec{status: judge.StatusFail})}
	for _, tr := range crashTrials {
		check(t, "SaveTrial", s.SaveTrial(ctx, crashed.ID, store.TrialRecord{Trial: tr, CaseKey: v.Key}))
	}
	check(t, "FinishRun", s.FinishRun(ctx, crashed.ID, store.RunEnd{Status: store.Incomplete, Ended: started.Add(time.Minute)}))
	p, _ := point(crashed.ID, started, &gavel.Run{Cases: []gavel.CaseResult{result(c2, crashTrials...)}}, "billing")
	want["billing"] = append(want["billing"], p)

	// Neither a run still running, nor one of another suite, is part of
	// the trend.
	_, err = s.CreateRun(ctx, runInfo("support-desk", base.Add(10*time.Hour)))
	check(t, "CreateRun", err)
	other, err := s.CreateRun(ctx, runInfo("billing", base.Add(11*time.Hour)))
	check(t, "CreateRun", err)
	check(t, "FinishRun", s.FinishRun(ctx, other.ID, store.RunEnd{Status: store.Passed, Run: &gavel.Run{Cases: []gavel.CaseResult{
		result(c2, trial("case_002", 1, trialSpec{})),
	}}}))

	tests := []struct {
		name  string
		suite string
		tag   string
		n     int
		want  []store.TrendPoint
	}{
		{"billing", "support-desk", "billing", 100, want["billing"]},
		{"billing, last 2", "support-desk", "billing", 2, want["billing"][len(want["billing"])-2:]},
		{"urgent, skipped once", "support-desk", "urgent", 0, want["urgent"]},
		// The last 4 runs include the one urgent was skipped in and the
		// crashed one without it: 2 points.
		{"urgent, last 4", "support-desk", "urgent", 4, want["urgent"][2:]},
		{"quoted", "support-desk", `x"billing`, 10, want[`x"billing`]},
		{"markup", "support-desk", "<script>", 10, want["<script>"]},
		{"a prefix is not a tag", "support-desk", "bill", 10, nil},
		{"unknown tag", "support-desk", "nope", 10, nil},
		{"unknown suite", "no-such-suite", "billing", 10, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := s.TrendTag(ctx, tt.suite, tt.tag, tt.n)
			check(t, "TrendTag", err)
			diff(t, "TrendTag", got, tt.want, equateEmpty, cmpopts.EquateApprox(0, 1e-12))
		})
	}
	if len(want["billing"]) != 6 || len(want["urgent"]) != 4 || len(want[`x"billing`]) != 5 ||
		want["billing"][0].PassRate == want["urgent"][0].PassRate || want["billing"][0].Criteria["helpfulness"] == want["urgent"][0].Criteria["helpfulness"] {
		t.Errorf("fixture: want runs and numbers that differ by tag, got %+v", want)
	}
}

// testTrendNothingJudged imports a run without verdicts between two
// judged runs of different thresholds: the import is a point with no
// pass rate (not 0%), of the whole suite and of a tag alike, its run
// reads back with none, and every point carries its own run's threshold.
// The import recorded no usage: its trial reads back unreported, and its
// point's cost is unreported too.
func testTrendNothingJudged(t *testing.T, s store.Store) {
	ctx := ctx(t)
	c1 := testCase("case_001", "where is order 1?")
	c1.Tags = []string{"billing"}
	notJudged := trial("case_001", 1, trialSpec{})
	notJudged.Verdict = judge.Abstained("imported without a verdict")
	notJudged.Usage = gavel.RoleUsage{Agent: judge.Usage{Unreported: true}}
	runs := []struct {
		threshold float64
		result    gavel.CaseResult
		stopped   gavel.StopCause
		status    store.Status
	}{
		{0.8, result(c1, trial("case_001", 1, trialSpec{})), "", store.Passed},
		{0.5, gavel.CaseResult{Case: c1, Trials: []gavel.Trial{notJudged}, Outcome: gavel.Skipped, SkipReason: "not judged"}, gavel.StopNotJudged, store.Incomplete},
		{0.9, result(c1, trial("case_001", 1, trialSpec{status: judge.StatusFail})), "", store.Failed},
	}
	var want []store.TrendPoint
	var unjudged string
	for i, r := range runs {
		started := base.Add(time.Duration(i) * time.Hour)
		in := runInfo("imports", started)
		in.Threshold = r.threshold
		run := &gavel.Run{Suite: &gavel.Suite{Name: "imports", Threshold: r.threshold}, Cases: []gavel.CaseResult{r.result}, Started: started, Stopped: r.stopped}
		info, err := s.ImportRun(ctx, in, store.RunEnd{Status: r.status, Ended: started.Add(time.Minute), Run: run})
		check(t, "ImportRun", err)
		stats := run.Stats()
		total := stats.Usage.Total()
		p := named(store.TrendPoint{RunID: info.ID, Started: storedTime(started), Threshold: r.threshold, PassRate: stats.PassRate,
			CostUSD: total.CostUSD, CostUnreported: total.Unreported, Criteria: map[string]float64{}}, in)
		for _, c := range stats.Criteria {
			p.Criteria[c.Name] = c.Mean
		}
		want = append(want, p)
		if r.stopped == gavel.StopNotJudged {
			unjudged = info.ID
		}
	}
	if want[1].PassRate != nil || want[0].PassRate == nil || !want[1].CostUnreported {
		t.Fatalf("fixture: want the import without a pass rate, the others with one: %+v", want)
	}
	got, err := s.Trend(ctx, "imports", 10)
	check(t, "Trend", err)
	diff(t, "Trend", got, want, equateEmpty)
	tagged, err := s.TrendTag(ctx, "imports", "billing", 10)
	check(t, "TrendTag", err)
	diff(t, "TrendTag", tagged, want, equateEmpty, cmpopts.EquateApprox(0, 1e-12))

	info, err := s.RunInfo(ctx, unjudged)
	check(t, "RunInfo", err)
	if info.Stats.PassRate != nil {
		t.Errorf("the import's pass rate reads back as %v, want none", *info.Stats.PassRate)
	}
	if !info.Stats.Usage.Agent.Unreported {
		t.Errorf("the import's usage reads back as %+v, want it unreported", info.Stats.Usage.Agent)
	}
	for _, read := range []func(context.Context, string) (*store.StoredRun, error){s.Run, s.RunVerdicts} {
		sr, err := read(ctx, unjudged)
		check(t, "Run", err)
		if u := sr.Run.Cases[0].Trials[0].Usage; u != notJudged.Usage {
			t.Errorf("the import's trial's usage reads back as %+v, want %+v", u, notJudged.Usage)
		}
	}
	listed, err := s.Runs(ctx, store.RunFilter{Suite: "imports"})
	check(t, "Runs", err)
	for _, r := range listed {
		if r.ID == unjudged && r.Stats.PassRate != nil {
			t.Errorf("the import is listed with a pass rate of %v, want none", *r.Stats.PassRate)
		}
	}
}

// named returns p with what names its run (store.TrendPoint.Info) as
// the run was stored with info.
func named(p store.TrendPoint, info store.RunInfo) store.TrendPoint {
	p.Label, p.GitBranch, p.GitCommit, p.GitDirty, p.StartedBy = info.Label, info.GitBranch, info.GitCommit, info.GitDirty, info.StartedBy
	return p
}
