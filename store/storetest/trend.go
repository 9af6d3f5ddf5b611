package storetest

import (
	"testing"
	"time"

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
		info, err := s.CreateRun(ctx, runInfo("support-desk", started))
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
		p := store.TrendPoint{RunID: info.ID, Started: storedTime(started), PassRate: stats.PassRate, CostUSD: stats.Usage.Total().CostUSD, Criteria: map[string]float64{}}
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
