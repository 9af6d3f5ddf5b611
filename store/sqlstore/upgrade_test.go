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
// schema 1 wrote: Migrate brings it to the latest schema, what it held
// reads back as it was, and the accounts (schema 2) work.
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
			info, err := s.CreateRun(ctx, store.RunInfo{Suite: "support-desk", Started: time.Now()})
			if err != nil {
				t.Fatal(err)
			}
			tr := gavel.Trial{CaseID: "case_001", N: 1, Transcript: &judge.Transcript{Goal: "hello", FinalResponse: "hi"}, Verdict: judge.Verdict(true, "fine")}
			if err := s.SaveTrial(ctx, info.ID, store.TrialRecord{Trial: tr}); err != nil {
				t.Fatal(err)
			}
			if err := s.FinishRun(ctx, info.ID, store.RunEnd{Status: store.Passed, Ended: time.Now()}); err != nil {
				t.Fatal(err)
			}
			before, err := s.Run(ctx, info.ID)
			if err != nil {
				t.Fatal(err)
			}

			s.migrations = all // this Gavel
			if current, latest, err := s.Version(ctx); err != nil || current != 1 || latest != len(all) || latest < 2 {
				t.Fatalf("Version before migrating: %d, %d, %v; want 1 and %d", current, latest, err, len(all))
			}
			if err := s.Migrate(ctx); err != nil {
				t.Fatalf("Migrate from schema 1: %v", err)
			}
			if current, latest, err := s.Version(ctx); err != nil || current != latest {
				t.Errorf("Version after migrating: %d, %d, %v; want the latest", current, latest, err)
			}
			after, err := s.Run(ctx, info.ID)
			if err != nil {
				t.Fatal(err)
			}
			if d := cmp.Diff(before, after); d != "" {
				t.Errorf("the run changed when the schema did (-before +after):\n%s", d)
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
