package web

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"github.com/gavelhq/gavel"
	"github.com/gavelhq/gavel/store"
	"github.com/gavelhq/gavel/store/sqlite"
)

// BenchmarkPages times the pages that have a speed target (the runs
// list, a run, the trends) and the case result, over a SQLite store of
// GAVEL_WEB_BENCH_RUNS runs (200 unless set) of 50 cases of 2 trials
// each, in 5 suites. The target itself (under 200 ms with 10,000 runs
// and 1,000,000 results, on both stores) is measured by the bench/
// harness; this is for profiling the pages:
//
//	GAVEL_WEB_BENCH_RUNS=2000 go test -run '^$' -bench Pages -cpuprofile cpu.out ./web
func BenchmarkPages(b *testing.B) {
	runs := 200
	if v := os.Getenv("GAVEL_WEB_BENCH_RUNS"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 {
			b.Fatalf("GAVEL_WEB_BENCH_RUNS=%q: want a number of runs", v)
		}
		runs = n
	}
	st, err := sqlite.Open(filepath.Join(b.TempDir(), "gavel.db"))
	if err != nil {
		b.Fatal(err)
	}
	defer st.Close()
	ids := seedBench(b, st, runs)
	srv := New(st, Config{})
	last := ids[len(ids)-1]
	for _, page := range []struct{ name, path string }{
		{"runs", "/runs"},
		{"runs-filtered", "/runs?suite=suite-1&status=failed"},
		{"run", "/runs/" + last},
		{"case", "/runs/" + last + "/cases/case_007"},
		{"trends", "/trends?suite=suite-1"},
		{"api-runs", "/api/runs"},
		{"api-run", "/api/runs/" + last},
		{"api-trends", "/api/trends?suite=suite-1"},
	} {
		path := page.path
		b.Run(page.name, func(b *testing.B) {
			for b.Loop() {
				rec := httptest.NewRecorder()
				srv.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, path, nil))
				if rec.Code != http.StatusOK {
					b.Fatalf("GET %s: %d", path, rec.Code)
				}
			}
		})
	}
}

// seedBench stores runs runs and returns their ids, oldest first.
func seedBench(b *testing.B, st store.Store, runs int) []string {
	b.Helper()
	ctx := context.Background()
	suite := &gavel.Suite{Threshold: 0.8, Models: map[string]string{"agent": "openai:gpt-5-mini"}}
	var ids []string
	for i := range runs {
		suite.Name = fmt.Sprintf("suite-%d", i%5)
		info := runInfo(suite, base.Add(time.Duration(i)*time.Minute))
		created, err := st.CreateRun(ctx, info)
		if err != nil {
			b.Fatal(err)
		}
		run := &gavel.Run{Suite: suite, Started: info.Started, Duration: time.Minute}
		for c := range 50 {
			id := fmt.Sprintf("case_%03d", c)
			run.Cases = append(run.Cases, result(testCase(id, "question "+id),
				trial(id, 1, (i+c)%7 != 0, 4), trial(id, 2, (i*c)%5 != 0, 3)))
		}
		status := store.Passed
		if !run.Met() {
			status = store.Failed
		}
		// FinishRun saves the trials not saved yet, all at once.
		if err := st.FinishRun(ctx, created.ID, store.RunEnd{Status: status, Ended: info.Started.Add(time.Minute), Run: run}); err != nil {
			b.Fatal(err)
		}
		ids = append(ids, created.ID)
	}
	return ids
}
