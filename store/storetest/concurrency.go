package storetest

import (
	"fmt"
	"sync"
	"testing"

	"github.com/gavelhq/gavel"
	"github.com/gavelhq/gavel/store"
)

// testConcurrentTrials saves the trials of two runs from 64 goroutines
// at once, as a run with --concurrency 64 does: every trial is there.
func testConcurrentTrials(t *testing.T, s store.Store) {
	ctx := ctx(t)
	const workers, cases, trials = 64, 16, 4 // per run: cases × trials
	var runs [2]store.RunInfo
	var want [2]*gavel.Run
	for r := range runs {
		info, err := s.CreateRun(ctx, runInfo("support-desk", base))
		check(t, "CreateRun", err)
		runs[r] = info
		want[r] = &gavel.Run{}
		for c := range cases {
			id := fmt.Sprintf("case_%03d", c+1)
			var ts []gavel.Trial
			for n := 1; n <= trials; n++ {
				ts = append(ts, trial(id, n, trialSpec{helpfulness: float64(1 + (c+n)%5)}))
			}
			want[r].Cases = append(want[r].Cases, result(testCase(id, "input of "+id), ts...))
		}
	}
	type job struct {
		run int
		t   gavel.Trial
	}
	jobs := make(chan job)
	errs := make(chan error, workers)
	var wg sync.WaitGroup
	for range workers {
		wg.Go(func() {
			for j := range jobs {
				if err := s.SaveTrial(ctx, runs[j.run].ID, store.TrialRecord{Trial: j.t}); err != nil {
					errs <- err
					return
				}
			}
		})
	}
	// Interleave the two runs' trials.
	for c := range cases {
		for n := range trials {
			for r := range runs {
				select {
				case jobs <- job{r, want[r].Cases[c].Trials[n]}:
				case err := <-errs:
					close(jobs)
					wg.Wait()
					t.Fatalf("SaveTrial: %v", err)
				}
			}
		}
	}
	close(jobs)
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatalf("SaveTrial: %v", err)
	}
	for r := range runs {
		check(t, "FinishRun", s.FinishRun(ctx, runs[r].ID, store.RunEnd{Status: store.Passed, Run: want[r]}))
		got, err := s.Run(ctx, runs[r].ID)
		check(t, "Run", err)
		diff(t, fmt.Sprintf("run %d", r), viewResults(got.Run.Cases), viewResults(want[r].Cases))
		info, err := s.RunInfo(ctx, runs[r].ID)
		check(t, "RunInfo", err)
		if info.Stats.Trials != cases*trials {
			t.Errorf("run %d: %d trials in its stats, want %d", r, info.Stats.Trials, cases*trials)
		}
	}
}
