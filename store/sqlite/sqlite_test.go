package sqlite_test

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gavelhq/gavel"
	"github.com/gavelhq/gavel/judge"
	"github.com/gavelhq/gavel/store"
	"github.com/gavelhq/gavel/store/sqlite"
	"github.com/gavelhq/gavel/store/sqlstore"
	"github.com/gavelhq/gavel/store/storetest"
)

func TestStore(t *testing.T) {
	storetest.Run(t, func(t *testing.T) store.Store {
		return open(t, filepath.Join(t.TempDir(), "gavel.db"))
	})
}

func BenchmarkStore(b *testing.B) {
	storetest.Benchmark(b, func(b *testing.B) store.Store {
		return open(b, filepath.Join(b.TempDir(), "gavel.db"))
	})
}

func open(t testing.TB, path string) *sqlstore.DB {
	t.Helper()
	s, err := sqlite.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// TestOpenCreates opens a store where nothing is yet: the directory and
// the file are created, in WAL mode, with the latest schema.
func TestOpenCreates(t *testing.T) {
	path := filepath.Join(t.TempDir(), "a dir?#%", ".gavel", "gavel.db")
	s := open(t, path)
	defer s.Close()
	if _, err := os.Stat(path); err != nil {
		t.Fatalf("the file was not created: %v", err)
	}
	var mode string
	if err := s.SQL().QueryRow("PRAGMA journal_mode").Scan(&mode); err != nil || mode != "wal" {
		t.Errorf("journal_mode %q (%v), want wal", mode, err)
	}
	var timeout, fk int
	if err := s.SQL().QueryRow("PRAGMA busy_timeout").Scan(&timeout); err != nil || timeout != 10000 {
		t.Errorf("busy_timeout %d (%v), want 10000", timeout, err)
	}
	if err := s.SQL().QueryRow("PRAGMA foreign_keys").Scan(&fk); err != nil || fk != 1 {
		t.Errorf("foreign_keys %d (%v), want 1", fk, err)
	}
	current, latest, err := s.Version(context.Background())
	if err != nil || current != latest || latest < 1 {
		t.Errorf("Version: %d, %d, %v; want the latest schema", current, latest, err)
	}
	// Opening again finds it as it was.
	again := open(t, path)
	defer again.Close()
}

// TestTwoWriters has two stores on one file, as the CLI and the web app,
// or two runs, are: both write at once, and both finish with all their
// results.
func TestTwoWriters(t *testing.T) {
	path := filepath.Join(t.TempDir(), "gavel.db")
	stores := []*sqlstore.DB{open(t, path), open(t, path)}
	defer stores[0].Close()
	defer stores[1].Close()
	ctx := context.Background()
	const cases, trials = 20, 3
	var wg sync.WaitGroup
	errs := make([]error, len(stores))
	ids := make([]string, len(stores))
	for i, s := range stores {
		wg.Go(func() {
			info, err := s.CreateRun(ctx, store.RunInfo{Suite: "support-desk"})
			if err != nil {
				errs[i] = err
				return
			}
			ids[i] = info.ID
			run := &gavel.Run{}
			var inner sync.WaitGroup
			var mu sync.Mutex
			for c := range cases {
				id := fmt.Sprintf("case_%03d", c)
				run.Cases = append(run.Cases, gavel.CaseResult{Case: &gavel.Case{ID: id}})
				for n := 1; n <= trials; n++ {
					tr := gavel.Trial{CaseID: id, N: n, Transcript: &judge.Transcript{Goal: "hello", FinalResponse: strings.Repeat("x", 10000)},
						Verdict: judge.Verdict(true, "fine")}
					run.Cases[c].Trials = append(run.Cases[c].Trials, tr)
					inner.Go(func() {
						if err := s.SaveTrial(ctx, info.ID, store.TrialRecord{Trial: tr}); err != nil {
							mu.Lock()
							errs[i] = errors.Join(errs[i], err)
							mu.Unlock()
						}
					})
				}
			}
			inner.Wait()
			for c := range run.Cases {
				run.Cases[c].Summarize()
			}
			if err := s.FinishRun(ctx, info.ID, store.RunEnd{Status: store.Passed, Run: run}); err != nil {
				errs[i] = errors.Join(errs[i], err)
			}
		})
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			t.Fatalf("store %d: %v", i, err)
		}
	}
	for i, id := range ids {
		got, err := stores[1-i].Run(ctx, id) // each reads the other's
		if err != nil {
			t.Fatal(err)
		}
		n := 0
		for _, c := range got.Run.Cases {
			n += len(c.Trials)
		}
		if got.Info.Status != store.Passed || len(got.Run.Cases) != cases || n != cases*trials {
			t.Errorf("run %s: %s, %d cases, %d trials; want passed, %d cases, %d trials", id, got.Info.Status, len(got.Run.Cases), n, cases, cases*trials)
		}
	}
}

// TestManyOpenANewFileAtOnce connects to one new file from eight pools
// at once, as the shards of a run starting together do, 150 times: every
// one connects. SQLite answers SQLITE_BUSY at once, whatever the busy
// timeout, to a connection that asks for WAL while another is turning
// the new file to WAL; the shards of TestShardsJoinOneStoredRun were
// seen failing so.
func TestManyOpenANewFileAtOnce(t *testing.T) {
	for round := range 150 {
		path := filepath.Join(t.TempDir(), "gavel.db")
		var wg sync.WaitGroup
		errs := make([]error, 8)
		for i := range errs {
			wg.Go(func() {
				db, err := sqlite.Connect(path)
				if err == nil {
					err = db.Close()
				}
				errs[i] = err
			})
		}
		wg.Wait()
		if err := errors.Join(errs...); err != nil {
			t.Fatalf("round %d: %v", round, err)
		}
	}
}

// TestNewerSchema opens a file a newer Gavel wrote: it is refused, with
// what to do, and left as it was.
func TestNewerSchema(t *testing.T) {
	path := filepath.Join(t.TempDir(), "gavel.db")
	s := open(t, path)
	_, latest, err := s.Version(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.SQL().Exec("INSERT INTO schema_version (version, applied_us) VALUES (?, 0)", latest+1); err != nil {
		t.Fatal(err)
	}
	if _, err := s.SQL().Exec("CREATE TABLE from_the_future (x INTEGER)"); err != nil {
		t.Fatal(err)
	}
	s.Close()
	before := fileState(t, path)

	_, err = sqlite.Open(path)
	want := fmt.Sprintf("store: open %s: this database was written by a newer Gavel (schema %d, this Gavel knows %d): upgrade Gavel", path, latest+1, latest)
	if err == nil || err.Error() != want {
		t.Fatalf("Open: %v\nwant: %s", err, want)
	}
	var newer *sqlstore.NewerSchemaError
	if !errors.As(err, &newer) || newer.Current != latest+1 || newer.Latest != latest {
		t.Errorf("Open: %#v, want a *sqlstore.NewerSchemaError", err)
	}
	if after := fileState(t, path); after != before {
		t.Errorf("the file changed: %s, then %s", before, after)
	}
}

// fileState returns the schema_version rows and the tables of an SQLite
// file, read with a plain connection.
func fileState(t *testing.T, path string) string {
	t.Helper()
	db, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var versions, tables string
	if err := db.QueryRow("SELECT group_concat(version) FROM schema_version").Scan(&versions); err != nil {
		t.Fatal(err)
	}
	if err := db.QueryRow("SELECT group_concat(name) FROM (SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name)").Scan(&tables); err != nil {
		t.Fatal(err)
	}
	return "versions " + versions + "; tables " + tables
}

// TestReadOnlyDirectory opens a store where Gavel may not write: the
// error names the file and says what is wrong.
func TestReadOnlyDirectory(t *testing.T) {
	if os.Geteuid() == 0 {
		t.Skip("root writes anywhere: run as another user to test a read-only directory")
	}
	dir := filepath.Join(t.TempDir(), "ro")
	if err := os.Mkdir(dir, 0o555); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.Chmod(dir, 0o755) })
	for _, path := range []string{filepath.Join(dir, "gavel.db"), filepath.Join(dir, ".gavel", "gavel.db")} {
		_, err := sqlite.Open(path)
		if err == nil || !strings.Contains(err.Error(), "store: open "+path+": cannot write it") {
			t.Errorf("Open(%s): %v, want an error naming the file and saying it cannot be written", path, err)
		}
		t.Logf("Open: %v", err)
	}
}

// TestReadOnlyFile opens a store in a file that was written and then made
// read-only: what it holds can still be read, and writing is a clear
// error.
func TestReadOnlyFile(t *testing.T) {
	if os.Geteuid() == 0 {
		t.Skip("root writes anywhere: run as another user to test a read-only file")
	}
	dir := t.TempDir()
	path := filepath.Join(dir, "gavel.db")
	s := open(t, path)
	info, err := s.CreateRun(context.Background(), store.RunInfo{Suite: "support-desk"})
	if err != nil {
		t.Fatal(err)
	}
	s.Close()
	if err := os.Chmod(path, 0o444); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(dir, 0o555); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.Chmod(dir, 0o755) })
	_, err = sqlite.Open(path)
	if err == nil || !strings.Contains(err.Error(), "store: open "+path+": cannot write it") {
		t.Fatalf("Open: %v, want an error naming the file and saying it cannot be written", err)
	}
	t.Logf("Open: %v", err)
	// The file is intact: a read-only connection reads it.
	db, err := sql.Open("sqlite", "file:"+path+"?mode=ro&immutable=1")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var id string
	if err := db.QueryRow("SELECT id FROM runs").Scan(&id); err != nil || id != info.ID {
		t.Errorf("reading the file: %q, %v; want run %s", id, err, info.ID)
	}
}

// TestDiskFull fills the database while a run is saved: the write fails
// with a clear error, and what was written before reads back whole.
func TestDiskFull(t *testing.T) {
	path := filepath.Join(t.TempDir(), "gavel.db")
	ctx := context.Background()
	s := open(t, path)
	info, err := s.CreateRun(ctx, store.RunInfo{Suite: "support-desk"})
	if err != nil {
		t.Fatal(err)
	}
	small := gavel.Trial{CaseID: "case_001", N: 1, Transcript: &judge.Transcript{Goal: "hello", FinalResponse: "hi"}, Verdict: judge.Verdict(true, "fine")}
	if err := s.SaveTrial(ctx, info.ID, store.TrialRecord{Trial: small}); err != nil {
		t.Fatal(err)
	}
	var pages int
	if err := s.SQL().QueryRow("PRAGMA page_count").Scan(&pages); err != nil {
		t.Fatal(err)
	}
	s.Close()

	// A store whose file may not grow: as good as a full disk.
	db, err := sql.Open("sqlite", sqlite.DSN(path)+fmt.Sprintf("&_pragma=max_page_count(%d)", pages+2))
	if err != nil {
		t.Fatal(err)
	}
	full, err := sqlstore.Open(ctx, db, sqlstore.SQLite)
	if err != nil {
		t.Fatal(err)
	}
	big := gavel.Trial{CaseID: "case_002", N: 1, Transcript: &judge.Transcript{FinalResponse: incompressible(1 << 20)}, Verdict: judge.Verdict(true, "fine")}
	err = full.SaveTrial(ctx, info.ID, store.TrialRecord{Trial: big})
	full.Close()
	if err == nil || !strings.Contains(err.Error(), "full") || !strings.Contains(err.Error(), "save trial "+info.ID+" case_002#1") {
		t.Fatalf("SaveTrial on a full disk: %v, want an error saying it is full, naming the trial", err)
	}
	t.Logf("SaveTrial on a full disk: %v", err)

	s = open(t, path)
	defer s.Close()
	got, err := s.Run(ctx, info.ID)
	if err != nil {
		t.Fatal(err)
	}
	if len(got.Run.Cases) != 1 || len(got.Run.Cases[0].Trials) != 1 || got.Run.Cases[0].Trials[0].Transcript.FinalResponse != "hi" {
		t.Errorf("after the failed write: %+v, want the first trial alone", got.Run.Cases)
	}
}

// incompressible returns n bytes of text that gzip cannot shrink much.
func incompressible(n int) string {
	b := make([]byte, n)
	x := uint64(88172645463325252)
	for i := range b {
		x ^= x << 13
		x ^= x >> 7
		x ^= x << 17
		b[i] = 'a' + byte(x%26)
	}
	return string(b)
}

// TestMigrateTwice migrates an up-to-date file: nothing to do.
func TestMigrateTwice(t *testing.T) {
	path := filepath.Join(t.TempDir(), "gavel.db")
	s := open(t, path)
	defer s.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := s.Migrate(ctx); err != nil {
		t.Fatalf("Migrate on an up-to-date file: %v", err)
	}
}
