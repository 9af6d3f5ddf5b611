package sqlstore

import (
	"context"
	"database/sql"
	"path/filepath"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	_ "github.com/jackc/pgx/v5/stdlib" // registers the "pgx" driver
	_ "modernc.org/sqlite"             // registers the "sqlite" driver

	"github.com/gavelhq/gavel"
	"github.com/gavelhq/gavel/internal/pgtest"
	"github.com/gavelhq/gavel/judge"
	"github.com/gavelhq/gavel/store"
)

// TestMigrateFromSchema1 opens a database that a Gavel knowing only
// schema 1 wrote, holding a run it left running with a trial: Migrate
// brings it to the latest schema, the trial reads back as it was saved
// (the columns added since read as their defaults),
// the run (last heard of when it started, an hour ago) is abandoned, and
// the accounts (schema 2) work.
func TestMigrateFromSchema1(t *testing.T) {
	for _, d := range []Dialect{SQLite, Postgres} {
		t.Run(d.String(), func(t *testing.T) {
			ctx, cancel := context.WithTimeout(t.Context(), time.Minute)
			defer cancel()
			s, err := New(freshDB(t, d), d)
			if err != nil {
				t.Fatal(err)
			}
			defer s.Close()
			all := s.migrations
			s.migrations = all[:1] // a Gavel that knows schema 1
			if err := s.Migrate(ctx); err != nil {
				t.Fatal(err)
			}
			started := time.Now().Add(-time.Hour).UnixMicro()
			_, err = s.sql.ExecContext(ctx, s.q(`INSERT INTO runs (id, suite, suite_file, started_by, host, git_commit, git_branch,
				filters, models, settings, threshold, status, started_us)
				VALUES ('old-run', 'support-desk', 'gavel.yaml', 'ada', 'ci-7', '', '', '[]', '{}', '{}', 0.8, 'running', ?)`), started)
			if err != nil {
				t.Fatal(err)
			}
			tr := gavel.Trial{CaseID: "case_001", N: 1, Transcript: &judge.Transcript{Goal: "hello", FinalResponse: "hi"}, Verdict: judge.Verdict(true, "fine"),
				Usage: gavel.RoleUsage{Agent: judge.Usage{InputTokens: 10, CostUSD: 0.5}, Judge: judge.Usage{OutputTokens: 3, CostUSD: 0.25}}}
			writeSchema1Trial(ctx, t, s, "old-run", tr)

			s.migrations = all // this Gavel
			if current, latest, err := s.Version(ctx); err != nil || current != 1 || latest != len(all) || latest < 4 {
				t.Fatalf("Version before migrating: %d, %d, %v; want 1 and %d", current, latest, err, len(all))
			}
			if err := s.Migrate(ctx); err != nil {
				t.Fatalf("Migrate from schema 1: %v", err)
			}
			if current, latest, err := s.Version(ctx); err != nil || current != latest {
				t.Errorf("Version after migrating: %d, %d, %v; want the latest", current, latest, err)
			}
			after, err := s.Run(ctx, "old-run")
			if err != nil {
				t.Fatal(err)
			}
			if after.Info.Status != store.Abandoned || len(after.Run.Cases) != 1 || len(after.Run.Cases[0].Trials) != 1 {
				t.Fatalf("the old run: %s with %d cases; want abandoned, with its one case", after.Info.Status, len(after.Run.Cases))
			}
			if d := cmp.Diff(tr, after.Run.Cases[0].Trials[0]); d != "" {
				t.Errorf("the trial changed when the schema did (-before +after):\n%s", d)
			}
			u, err := s.CreateUser(ctx, "ada", store.Admin, "hash")
			if err != nil {
				t.Fatalf("CreateUser after migrating: %v", err)
			}
			if _, err := s.CreateToken(ctx, store.Token{UserID: u.ID, Name: "ci", Hash: "t"}); err != nil {
				t.Fatalf("CreateToken after migrating: %v", err)
			}
			if err := s.CreateSession(ctx, store.Session{TokenHash: "s", UserID: u.ID, CSRF: "c", Expires: time.Now().Add(time.Hour)}); err != nil {
				t.Fatalf("CreateSession after migrating: %v", err)
			}
		})
	}
}

// writeSchema1Trial saves tr in run runID as a Gavel that knew only
// schema 1 did: with the columns schema 1 has.
func writeSchema1Trial(ctx context.Context, t *testing.T, s *DB, runID string, tr gavel.Trial) {
	t.Helper()
	transcript, err := compress(tr.Transcript)
	if err != nil {
		t.Fatal(err)
	}
	verdict, err := compress(tr.Verdict)
	if err != nil {
		t.Fatal(err)
	}
	u := tr.Usage
	err = s.write(ctx, func(tx *sql.Tx) error {
		if _, err := tx.ExecContext(ctx, s.q("INSERT INTO run_cases (run_id, case_id) VALUES (?, ?)"), runID, tr.CaseID); err != nil {
			return err
		}
		_, err := tx.ExecContext(ctx, s.q(`INSERT INTO trials (run_id, case_id, n, status, exec_status, duration_ns,
				agent_input_tokens, agent_output_tokens, agent_cached_tokens, agent_cost_usd,
				judge_input_tokens, judge_output_tokens, judge_cached_tokens, judge_cost_usd,
				user_input_tokens, user_output_tokens, user_cached_tokens, user_cost_usd,
				transcript, verdict, saved_us)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`),
			runID, tr.CaseID, tr.N, string(tr.Verdict.Status), string(tr.Transcript.Status), int64(tr.Duration),
			u.Agent.InputTokens, u.Agent.OutputTokens, u.Agent.CachedTokens, u.Agent.CostUSD,
			u.Judge.InputTokens, u.Judge.OutputTokens, u.Judge.CachedTokens, u.Judge.CostUSD,
			u.SimulatedUser.InputTokens, u.SimulatedUser.OutputTokens, u.SimulatedUser.CachedTokens, u.SimulatedUser.CostUSD,
			transcript, verdict, micros(time.Now()))
		return err
	})
	if err != nil {
		t.Fatalf("write a trial as schema 1 did: %v", err)
	}
}

// freshDB returns an empty database of the dialect, closed and removed
// when the test ends: an SQLite file, or a PostgreSQL schema of its own
// on the server GAVEL_TEST_POSTGRES_URL names (skipping the test without
// one, unless GAVEL_REQUIRE_INTEGRATION=1).
func freshDB(t *testing.T, d Dialect) *sql.DB {
	t.Helper()
	if d.String() == SQLite.String() {
		path := filepath.Join(t.TempDir(), "gavel.db")
		db, err := sql.Open("sqlite", "file:"+path+"?_pragma=busy_timeout(10000)&_pragma=foreign_keys(ON)&_txlock=immediate")
		if err != nil {
			t.Fatal(err)
		}
		return db
	}
	dsn := pgtest.Schema(t)
	db, err := sql.Open("pgx", dsn)
	if err != nil {
		t.Fatal(err)
	}
	return db
}

// TestMigrateFromSchema2 opens a database that a Gavel knowing schema 2
// wrote, with a run it stored as interrupted and one it left running when
// it crashed: after migrating, the first reads as incomplete (stopped:
// interrupted), and the second as abandoned, having not been heard of
// since it started.
func TestMigrateFromSchema2(t *testing.T) {
	for _, d := range []Dialect{SQLite, Postgres} {
		t.Run(d.String(), func(t *testing.T) {
			ctx, cancel := context.WithTimeout(t.Context(), time.Minute)
			defer cancel()
			s, err := New(freshDB(t, d), d)
			if err != nil {
				t.Fatal(err)
			}
			defer s.Close()
			all := s.migrations
			s.migrations = all[:2] // a Gavel that knows schema 2
			if err := s.Migrate(ctx); err != nil {
				t.Fatal(err)
			}
			started := time.Now().Add(-time.Hour).UnixMicro()
			for _, r := range []struct {
				id, status  string
				interrupted int
			}{{"interrupted-run", "interrupted", 1}, {"crashed-run", "running", 0}} {
				_, err := s.sql.ExecContext(ctx, s.q(`INSERT INTO runs (id, suite, suite_file, started_by, host, git_commit, git_branch,
					filters, models, settings, threshold, status, started_us, interrupted)
					VALUES (?, 'support-desk', 'gavel.yaml', 'ada', 'ci-7', '', '', '[]', '{}', '{}', 0.8, ?, ?, ?)`),
					r.id, r.status, started, r.interrupted)
				if err != nil {
					t.Fatal(err)
				}
			}

			s.migrations = all // this Gavel
			if err := s.Migrate(ctx); err != nil {
				t.Fatalf("Migrate from schema 2: %v", err)
			}
			interrupted, err := s.RunInfo(ctx, "interrupted-run")
			if err != nil {
				t.Fatal(err)
			}
			if interrupted.Status != store.Incomplete || interrupted.Stopped != gavel.StopInterrupted || interrupted.StopReason == "" {
				t.Errorf("the interrupted run: %s, stopped %q (%q); want incomplete, stopped interrupted, with a reason", interrupted.Status, interrupted.Stopped, interrupted.StopReason)
			}
			crashed, err := s.RunInfo(ctx, "crashed-run")
			if err != nil {
				t.Fatal(err)
			}
			if crashed.Status != store.Abandoned || !crashed.Heartbeat.Equal(fromMicros(started)) {
				t.Errorf("the crashed run: %s, heard of %v; want abandoned, heard of when it started", crashed.Status, crashed.Heartbeat)
			}
			listed, err := s.Runs(ctx, store.RunFilter{Status: store.Incomplete})
			if err != nil || len(listed) != 1 || listed[0].ID != "interrupted-run" {
				t.Errorf("Runs(incomplete) = %v, %v; want the interrupted run", listed, err)
			}
		})
	}
}
