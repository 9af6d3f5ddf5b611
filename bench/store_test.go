package main

import (
	"bytes"
	"context"
	"database/sql"
	"strings"
	"testing"
	"time"

	"github.com/gavelhq/gavel/internal/pgtest"
	"github.com/gavelhq/gavel/store"
)

// smallStore is the store benchmark shrunk to run in a test: a few runs,
// a paced run of a few trials with a short model time, a call or two per
// read.
var smallStore = storeConfig{
	Runs: 12, TrialsPerRun: 7, Writers: 4,
	ModelTime: 20 * time.Millisecond, PacedPerWriter: 3,
	Cold: 2, Warm: 2,
}

// TestStoreBenchSQLite runs the store benchmark, shrunk, on an SQLite
// file: everything it seeds reads back, and every read works.
func TestStoreBenchSQLite(t *testing.T) {
	db, err := freshSQLite()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := db.close(false); err != nil {
			t.Error(err)
		}
	})
	checkStoreBench(t, db)
}

// TestStoreBenchPostgres does the same in a fresh schema of the
// PostgreSQL database at GAVEL_TEST_POSTGRES_URL, and checks that the
// schema is dropped afterwards.
func TestStoreBenchPostgres(t *testing.T) {
	dsn := pgtest.URL(t)
	db, err := freshPostgres(context.Background(), dsn)
	if err != nil {
		t.Fatal(err)
	}
	dropped := false
	t.Cleanup(func() {
		if !dropped {
			db.close(false)
		}
	})
	checkStoreBench(t, db)
	if err := db.close(false); err != nil {
		t.Fatal(err)
	}
	dropped = true
	pg, err := sql.Open("pgx", dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer pg.Close()
	var n int
	if err := pg.QueryRow("SELECT count(*) FROM pg_namespace WHERE nspname = $1", db.Schema).Scan(&n); err != nil || n != 0 {
		t.Errorf("schema %s: %d left (%v), want it dropped", db.Schema, n, err)
	}
}

func checkStoreBench(t *testing.T, db *benchDB) {
	t.Helper()
	ctx := context.Background()
	cfg := smallStore
	r, err := benchStore(ctx, db, cfg)
	if err != nil {
		t.Fatal(err)
	}
	if r.Runs != cfg.Runs || r.Trials != cfg.Runs*cfg.TrialsPerRun || len(r.Seed.Save) != r.Trials || len(r.Seed.Finish) != cfg.Runs {
		t.Errorf("seeded %d runs, %d trials, %d saves, %d finishes; want %d runs of %d trials", r.Runs, r.Trials, len(r.Seed.Save), len(r.Seed.Finish), cfg.Runs, cfg.TrialsPerRun)
	}
	if got, want := len(r.Paced.Save), cfg.Writers*cfg.PacedPerWriter; got != want || r.Paced.Trials != want {
		t.Errorf("the paced run saved %d trials (%d), want %d", got, r.Paced.Trials, want)
	}
	for _, rr := range r.Reads {
		if len(rr.Cold) != cfg.Cold || len(rr.Warm) != cfg.Warm {
			t.Errorf("%s: %d cold and %d warm timings, want %d and %d", rr.Op.Name, len(rr.Cold), len(rr.Warm), cfg.Cold, cfg.Warm)
		}
		if strings.HasPrefix(rr.Op.Name, "Run:") && rr.Rows != cfg.TrialsPerRun {
			t.Errorf("%s: %d trials, want %d", rr.Op.Name, rr.Rows, cfg.TrialsPerRun)
		}
		if strings.HasPrefix(rr.Op.Name, "Runs: newest") && rr.Rows != cfg.Runs {
			t.Errorf("%s: %d runs, want %d", rr.Op.Name, rr.Rows, cfg.Runs)
		}
	}

	if len(r.Pages) == 0 {
		t.Error("no pages timed")
	}
	for _, p := range r.Pages {
		if len(p.Cold) != cfg.Cold || len(p.Warm) != cfg.Warm || p.Bytes < minPage {
			t.Errorf("GET %s: %d cold and %d warm timings, %d bytes; want %d and %d, at least %d bytes",
				p.Op.Name, len(p.Cold), len(p.Warm), p.Bytes, cfg.Cold, cfg.Warm, minPage)
		}
	}

	// The history reads back as written: statuses, and a trend with the
	// three criteria of every finished run.
	s, err := db.open(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	for _, want := range r.Seed.Runs {
		got, err := s.RunInfo(ctx, want.ID)
		if err != nil {
			t.Fatal(err)
		}
		if got.Status != want.Status || got.Suite != want.Suite || got.GitBranch != want.Branch || got.Stats.Trials != cfg.TrialsPerRun {
			t.Errorf("run %s: %s, %s, %s, %d trials; want %s, %s, %s, %d", want.ID, got.Status, got.Suite, got.GitBranch, got.Stats.Trials,
				want.Status, want.Suite, want.Branch, cfg.TrialsPerRun)
		}
	}
	for _, suite := range benchSuites {
		trend, err := s.Trend(ctx, suite.Name, 100)
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range trend {
			if len(p.Criteria) != 3 {
				t.Errorf("trend of %s, run %s: criteria %v, want helpfulness, accuracy and tone", suite.Name, p.RunID, p.Criteria)
			}
		}
	}

	var out bytes.Buffer
	if err := r.print(&out); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"seeding:", "paced run:", "Trend: support-desk, 100", "(reference)", "GET /runs/{id}", "GET /trends?suite=support-desk"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("the report has no %q:\n%s", want, out.String())
		}
	}
}

// TestPlanRun checks the generated history: it is the same every time,
// and spreads as bench/README.md says.
func TestPlanRun(t *testing.T) {
	const n = 2000
	suites, branches, statuses := map[string]int{}, map[string]int{}, map[store.Status]int{}
	for i := range n {
		p := planRun(i)
		if again := planRun(i); again.Suite != p.Suite || again.Branch != p.Branch || !again.Started.Equal(p.Started) {
			t.Fatalf("run %d planned twice: %+v, then %+v", i, p, again)
		}
		if i > 0 && !p.Started.After(planRun(i-1).Started) {
			t.Fatalf("run %d starts before run %d", i, i-1)
		}
		suites[p.Suite.Name]++
		branch := p.Branch
		if strings.HasPrefix(branch, "feature/") {
			branch = "feature"
		}
		branches[branch]++
		_, trials, status := p.build(10)
		if len(trials) != 10 {
			t.Fatalf("run %d: %d trials, want 10", i, len(trials))
		}
		statuses[status]++
	}
	near := func(got int, share float64) bool { return float64(got) > 0.8*share*n && float64(got) < 1.2*share*n }
	for _, s := range benchSuites {
		if !near(suites[s.Name], s.Share) {
			t.Errorf("suite %s: %d runs of %d, want about %.0f%%", s.Name, suites[s.Name], n, 100*s.Share)
		}
	}
	if !near(branches[mainBranch], 0.7) || !near(branches[releaseBranch], 0.1) || !near(branches["feature"], 0.2) {
		t.Errorf("branches %v, want about 70%% main, 10%% release, 20%% feature", branches)
	}
	if statuses[store.Passed] == 0 || statuses[store.Failed] == 0 || statuses[store.Errored] == 0 || statuses[store.Incomplete] == 0 {
		t.Errorf("statuses %v, want some of each", statuses)
	}
}

func TestPercentile(t *testing.T) {
	ms := time.Millisecond
	d := []time.Duration{1 * ms, 2 * ms, 3 * ms, 4 * ms, 5 * ms, 6 * ms, 7 * ms, 8 * ms, 9 * ms, 10 * ms}
	tests := []struct {
		name string
		p    float64
		want time.Duration
	}{
		{"p50", 50, 5 * ms},
		{"p99", 99, 10 * ms},
		{"p10", 10, 1 * ms},
		{"p0", 0, 1 * ms},
		{"p100", 100, 10 * ms},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := percentile(d, tt.p); got != tt.want {
				t.Errorf("percentile(%v) = %v, want %v", tt.p, got, tt.want)
			}
		})
	}
	if got := percentile(nil, 99); got != 0 {
		t.Errorf("percentile of nothing = %v, want 0", got)
	}
	if got := median(d); got != 6*ms {
		t.Errorf("median = %v, want %v (the upper of the two middle values)", got, 6*ms)
	}
}
