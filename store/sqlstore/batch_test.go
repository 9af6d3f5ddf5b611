package sqlstore

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/gavelhq/gavel"
	"github.com/gavelhq/gavel/conversation"
	"github.com/gavelhq/gavel/judge"
	"github.com/gavelhq/gavel/store"
)

// TestFinishRunInBatches finishes runs whose cases take several
// statements (the parameter limit lowered to 12: one case with its
// snapshot, two without, a statement), and one that names a case twice
// (which one statement may not upsert twice): every case is recorded in
// its place, the last result of a case named twice winning, on both
// databases.
func TestFinishRunInBatches(t *testing.T) {
	defer func(old int) { maxParams = old }(maxParams)
	for _, d := range []Dialect{SQLite, Postgres} {
		t.Run(d.String(), func(t *testing.T) {
			ctx, s := openFresh(t, d)
			tests := []struct {
				name      string
				maxParams int
				run       *gavel.Run
				want      []string // id:outcome:name, in order
			}{
				{"with snapshots", 12, batchRun(5, true), []string{"c1:PASS:Case c1", "c2:FAIL:Case c2", "c3:PASS:Case c3", "c4:FAIL:Case c4", "c5:PASS:Case c5"}},
				{"without", 12, batchRun(5, false), []string{"c1:PASS:", "c2:FAIL:", "c3:PASS:", "c4:FAIL:", "c5:PASS:"}},
				{"a case twice", 32766, withRepeat(batchRun(3, true)), []string{"c2:FAIL:Case c2", "c3:PASS:Case c3", "c1:SKIPPED:again"}},
			}
			for _, tt := range tests {
				t.Run(tt.name, func(t *testing.T) {
					maxParams = tt.maxParams
					info, err := s.CreateRun(ctx, store.RunInfo{Suite: "support-desk"})
					if err != nil {
						t.Fatal(err)
					}
					if err := s.FinishRun(ctx, info.ID, store.RunEnd{Status: store.Passed, Run: tt.run}); err != nil {
						t.Fatal(err)
					}
					got, err := s.Run(ctx, info.ID)
					if err != nil {
						t.Fatal(err)
					}
					var cases []string
					for _, c := range got.Run.Cases {
						cases = append(cases, fmt.Sprintf("%s:%s:%s", c.ID(), c.Outcome, c.Case.Name))
					}
					if d := cmp.Diff(tt.want, cases); d != "" {
						t.Errorf("cases (-want +got):\n%s", d)
					}
				})
			}
		})
	}
}

// TestTrendInBatches reads a trend whose runs' criteria take several
// queries (the parameter limit lowered to 2 ids a query): every run has
// its criteria.
func TestTrendInBatches(t *testing.T) {
	defer func(old int) { maxParams = old }(maxParams)
	for _, d := range []Dialect{SQLite, Postgres} {
		t.Run(d.String(), func(t *testing.T) {
			ctx, s := openFresh(t, d)
			start := time.Date(2026, 11, 21, 9, 0, 0, 0, time.UTC)
			var want []float64 // each run's helpfulness, oldest first
			for i := range 5 {
				info, err := s.CreateRun(ctx, store.RunInfo{Suite: "support-desk", Started: start.Add(time.Duration(i) * time.Minute)})
				if err != nil {
					t.Fatal(err)
				}
				score, _ := judge.Number(float64(1+i), 1, 5)
				tr := gavel.Trial{CaseID: "c1", N: 1, Verdict: judge.Judgment{Name: "helpfulness", Status: judge.StatusPass, Score: score}}
				run := &gavel.Run{Cases: []gavel.CaseResult{{Trials: []gavel.Trial{tr}}}}
				run.Cases[0].Summarize()
				if err := s.FinishRun(ctx, info.ID, store.RunEnd{Status: store.Passed, Run: run}); err != nil {
					t.Fatal(err)
				}
				want = append(want, float64(i)/4)
			}
			maxParams = 2
			points, err := s.Trend(ctx, "support-desk", 10)
			if err != nil {
				t.Fatal(err)
			}
			var got []float64
			for _, p := range points {
				got = append(got, p.Criteria["helpfulness"])
			}
			if d := cmp.Diff(want, got); d != "" {
				t.Errorf("helpfulness by run (-want +got):\n%s", d)
			}
		})
	}
}

// batchRun returns a run of n cases of one trial each, passing and
// failing in turn, with their Case (a snapshot to record) or without.
func batchRun(n int, snapshots bool) *gavel.Run {
	run := &gavel.Run{}
	for i := range n {
		id := fmt.Sprintf("c%d", i+1)
		r := gavel.CaseResult{Trials: []gavel.Trial{{CaseID: id, N: 1, Verdict: judge.Verdict(i%2 == 0, "")}}}
		if snapshots {
			r.Case = &gavel.Case{ID: id, Name: "Case " + id, Script: conversation.Script{Rounds: []conversation.Round{{Prompt: "hi"}}}}
		}
		r.Summarize()
		run.Cases = append(run.Cases, r)
	}
	return run
}

// withRepeat adds to a run a second result of its first case: skipped,
// named "again".
func withRepeat(run *gavel.Run) *gavel.Run {
	id := run.Cases[0].ID()
	run.Cases = append(run.Cases, gavel.CaseResult{Case: &gavel.Case{ID: id, Name: "again"}, Outcome: gavel.Skipped})
	return run
}

// openFresh opens a store on an empty database of the dialect, for a
// minute at most, closed when the test ends.
func openFresh(t *testing.T, d Dialect) (context.Context, *DB) {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), time.Minute)
	t.Cleanup(cancel)
	s, err := Open(ctx, freshDB(t, d), d)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return ctx, s
}
