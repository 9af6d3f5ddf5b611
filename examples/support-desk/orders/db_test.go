package orders

import (
	"context"
	"database/sql"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

// testContext returns a context that ends when t does, or after a
// minute, whichever comes first.
func testContext(t *testing.T) context.Context {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), time.Minute)
	t.Cleanup(cancel)
	return ctx
}

// openTemp opens a new orders database in a temporary directory and
// closes it when t ends.
func openTemp(t *testing.T) (*DB, string) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "orders.db")
	db, err := Open(testContext(t), path)
	if err != nil {
		t.Fatalf("Open: %v", err)
	}
	t.Cleanup(func() {
		if err := db.Close(); err != nil {
			t.Errorf("Close: %v", err)
		}
	})
	return db, path
}

// openPlain opens path as a reader from another process would (Gavel's
// database-state check, say): the bare path, none of Open's parameters.
func openPlain(t *testing.T, path string) *sql.DB {
	t.Helper()
	sqldb, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { sqldb.Close() })
	return sqldb
}

func countOrders(t *testing.T, sqldb *sql.DB) int {
	t.Helper()
	var n int
	if err := sqldb.QueryRowContext(testContext(t), "SELECT count(*) FROM orders").Scan(&n); err != nil {
		t.Fatalf("count orders: %v", err)
	}
	return n
}

func TestOpenCreatesAndSeeds(t *testing.T) {
	_, path := openTemp(t)
	plain := openPlain(t, path)
	if got, want := countOrders(t, plain), len(seed); got != want {
		t.Errorf("orders in a new file: got %d, want %d", got, want)
	}
	var mode string
	if err := plain.QueryRow("PRAGMA journal_mode").Scan(&mode); err != nil {
		t.Fatal(err)
	}
	if mode != "wal" {
		t.Errorf("journal_mode: got %q, want %q", mode, "wal")
	}
}

func TestOpenKeepsChanges(t *testing.T) {
	ctx := testContext(t)
	db, path := openTemp(t)
	if _, err := db.Cancel(ctx, "67890", true); err != nil {
		t.Fatal(err)
	}
	if _, err := db.sqldb.ExecContext(ctx, "DELETE FROM orders WHERE id = '12345'"); err != nil {
		t.Fatal(err)
	}

	again, err := Open(ctx, path)
	if err != nil {
		t.Fatalf("Open again: %v", err)
	}
	defer again.Close()
	o, err := again.Status(ctx, "67890")
	if err != nil {
		t.Fatal(err)
	}
	if o.Status != StatusCancelled {
		t.Errorf("67890 after reopening: got status %q, want %q", o.Status, StatusCancelled)
	}
	if _, err := again.Status(ctx, "12345"); err == nil {
		t.Errorf("12345 was deleted, but reopening brought it back")
	}
}

// Several processes may open the same new file at once (parallel trials
// of a suite): one sets it up, the others find it set up.
func TestOpenConcurrently(t *testing.T) {
	ctx := testContext(t)
	path := filepath.Join(t.TempDir(), "orders.db")
	var wg sync.WaitGroup
	errs := make([]error, 8)
	for i := range errs {
		wg.Go(func() {
			// Each DB has connections of its own, like another process.
			db, err := Open(ctx, path)
			if err == nil {
				err = db.Close()
			}
			errs[i] = err
		})
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			t.Errorf("Open %d: %v", i, err)
		}
	}
	if got, want := countOrders(t, openPlain(t, path)), len(seed); got != want {
		t.Errorf("orders: got %d, want %d (seeded more than once?)", got, want)
	}
}

// A reader in another process sees a cancellation at once, while the
// DB is still open.
func TestOtherReaderSeesCancel(t *testing.T) {
	ctx := testContext(t)
	db, path := openTemp(t)
	plain := openPlain(t, path)
	status := func() string {
		t.Helper()
		var s string
		if err := plain.QueryRowContext(ctx, "SELECT status FROM orders WHERE id = '67890'").Scan(&s); err != nil {
			t.Fatal(err)
		}
		return s
	}
	if got := status(); got != StatusProcessing {
		t.Fatalf("before: got %q, want %q", got, StatusProcessing)
	}
	if _, err := db.Cancel(ctx, "67890", true); err != nil {
		t.Fatal(err)
	}
	if got := status(); got != StatusCancelled {
		t.Errorf("after: got %q, want %q", got, StatusCancelled)
	}
}

func TestOpenErrors(t *testing.T) {
	dir := t.TempDir()
	notDB := filepath.Join(dir, "notes.txt")
	if err := os.WriteFile(notDB, []byte(strings.Repeat("not a database\n", 100)), 0o644); err != nil {
		t.Fatal(err)
	}
	future := filepath.Join(dir, "future.db")
	sqldb := openPlain(t, future)
	if _, err := sqldb.Exec("PRAGMA user_version = 99"); err != nil {
		t.Fatal(err)
	}
	sqldb.Close()

	tests := []struct {
		name, path, want string
	}{
		{"empty path", "", "the path is empty"},
		{"question mark", filepath.Join(dir, "what?.db"), "must not contain '?'"},
		{"missing directory", filepath.Join(dir, "missing", "orders.db"), filepath.Join("missing", "orders.db")},
		{"not a database", notDB, "not a database"},
		{"unknown schema version", future, "schema version 99 is not the 1 this program knows"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			db, err := Open(testContext(t), tt.path)
			if err == nil {
				db.Close()
				t.Fatalf("Open(%q): got no error, want one containing %q", tt.path, tt.want)
			}
			if !strings.Contains(err.Error(), tt.want) {
				t.Errorf("Open(%q): got error %q, want one containing %q", tt.path, err, tt.want)
			}
		})
	}
}
