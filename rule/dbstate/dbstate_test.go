package dbstate

import (
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/hex"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gavelhq/gavel/internal/pgtest"
	"github.com/gavelhq/gavel/judge"
	"github.com/gavelhq/gavel/judge/judgetest"
)

// sqlExec runs statements on a database, failing the test on an error.
func sqlExec(t *testing.T, driver, dsn string, statements ...string) {
	t.Helper()
	db, err := sql.Open(driver, dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	for _, s := range statements {
		if _, err := db.ExecContext(ctx, s); err != nil {
			t.Fatalf("%s: %v", s, err)
		}
	}
}

// sqlCheck returns a builder for a table case.
func sqlCheck(c Check) func() (judge.Judge, error) {
	return func() (judge.Judge, error) { return New(c) }
}

func TestSQLite(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "app.db")
	sqlExec(t, "sqlite", path,
		`CREATE TABLE tickets (id INTEGER PRIMARY KEY, status TEXT NOT NULL, note TEXT, price REAL)`,
		`INSERT INTO tickets VALUES (1, 'open', NULL, 2.5), (2, 'closed', 'late', 3), (3, 'open', 'it''s', NULL)`,
	)
	const all = "SELECT id, status, note FROM tickets ORDER BY id"
	db := func(c Check) func() (judge.Judge, error) {
		if c.DSN == "" {
			c.DSN = "app.db"
		}
		return sqlCheck(c)
	}
	pass, fail, errored := judge.StatusPass, judge.StatusFail, judge.StatusError
	ws := inWorkspace(dir)
	judgetest.RunCases(t, []judgetest.Case{
		{Name: "row count", Build: db(Check{Query: all, RowCount: "= 3"}), Transcript: ws, WantStatus: pass, WantIn: []string{"query returned 3 rows (= 3)"}},
		{Name: "row count too low", Build: db(Check{Query: "SELECT * FROM tickets WHERE id = 1", RowCount: ">= 2"}), Transcript: ws, WantStatus: fail,
			WantIn: []string{"query returned 1 row, want >= 2"}},
		{Name: "row count of none", Build: db(Check{Query: "SELECT * FROM tickets WHERE id > 10", RowCount: "= 0"}), Transcript: ws, WantStatus: pass, WantIn: []string{"query returned 0 rows"}},
		{Name: "args", Build: db(Check{Query: "SELECT id FROM tickets WHERE status = ?", Args: []any{"open"}, RowCount: "= 2"}), Transcript: ws, WantStatus: pass},

		{Name: "scalar count", Build: db(Check{Query: "SELECT count(*) FROM tickets", Scalar: ">= 2"}), Transcript: ws, WantStatus: pass, WantIn: []string{"scalar is 3 (>= 2)"}},
		{Name: "scalar count too low", Build: db(Check{Query: "SELECT count(*) FROM tickets", Scalar: "> 3"}), Transcript: ws, WantStatus: fail, WantIn: []string{"scalar is 3, want > 3"}},
		{Name: "scalar real", Build: db(Check{Query: "SELECT price FROM tickets WHERE id = 1", Scalar: "= 2.50"}), Transcript: ws, WantStatus: pass, WantIn: []string{"scalar is 2.5 (= 2.50)"}},
		{Name: "scalar string", Build: db(Check{Query: "SELECT status FROM tickets WHERE id = 2", Scalar: "= 'closed'"}), Transcript: ws, WantStatus: pass, WantIn: []string{"scalar is 'closed' (= 'closed')"}},
		{Name: "scalar string differs", Build: db(Check{Query: "SELECT status FROM tickets WHERE id = 2", Scalar: "= 'open'"}), Transcript: ws, WantStatus: fail,
			WantIn: []string{"scalar is 'closed', want = 'open'"}},
		{Name: "scalar string not equal", Build: db(Check{Query: "SELECT status FROM tickets WHERE id = 2", Scalar: "!= 'open'"}), Transcript: ws, WantStatus: pass},
		{Name: "scalar with a quote", Build: db(Check{Query: "SELECT note FROM tickets WHERE id = 3", Scalar: "= 'it''s'"}), Transcript: ws, WantStatus: pass},
		{Name: "scalar not a number", Build: db(Check{Query: "SELECT status FROM tickets WHERE id = 2", Scalar: ">= 1"}), Transcript: ws, WantStatus: fail,
			WantIn: []string{"scalar 'closed' is not a number, want >= 1"}},
		{Name: "scalar NULL", Build: db(Check{Query: "SELECT note FROM tickets WHERE id = 1", Scalar: "= 'late'"}), Transcript: ws, WantStatus: fail, WantIn: []string{"scalar is NULL, want = 'late'"}},
		{Name: "scalar NULL and !=", Build: db(Check{Query: "SELECT price FROM tickets WHERE id = 3", Scalar: "!= 0"}), Transcript: ws, WantStatus: fail, WantIn: []string{"scalar is NULL, want != 0"}},
		{Name: "scalar from many rows", Build: db(Check{Query: "SELECT id FROM tickets", Scalar: ">= 1"}), Transcript: ws, WantStatus: fail,
			WantIn: []string{"query returned 3 rows, want 1 row for a scalar >= 1"}},
		{Name: "scalar from no row", Build: db(Check{Query: "SELECT id FROM tickets WHERE id > 10", Scalar: ">= 1"}), Transcript: ws, WantStatus: fail,
			WantIn: []string{"query returned 0 rows, want 1 row"}},
		{Name: "scalar from two columns", Build: db(Check{Query: "SELECT id, status FROM tickets WHERE id = 1", Scalar: ">= 1"}), Transcript: ws, WantStatus: fail,
			WantIn: []string{"query returned 2 columns, want 1 column for a scalar"}},

		{Name: "rows", Build: db(Check{Query: all, Rows: [][]string{{"1", "open", "NULL"}, {"2", "closed", "late"}, {"3", "open", "it's"}}}), Transcript: ws, WantStatus: pass,
			WantIn: []string{"query returned the 3 rows wanted"}},
		{Name: "rows differ", Build: db(Check{Query: all, Rows: [][]string{{"1", "open", "NULL"}, {"2", "open", "late"}, {"3", "open", "it's"}}}), Transcript: ws, WantStatus: fail,
			WantIn: []string{"row 2, column 2 (status): got 'closed', want 'open'"}},
		{Name: "NULL wanted", Build: db(Check{Query: all, Rows: [][]string{{"1", "open", "NULL"}, {"2", "closed", "NULL"}, {"3", "open", "it's"}}}), Transcript: ws, WantStatus: fail,
			WantIn: []string{"row 2, column 3 (note): got 'late', want NULL"}},
		{Name: "NULL returned", Build: db(Check{Query: all, Rows: [][]string{{"1", "open", ""}, {"2", "closed", "late"}, {"3", "open", "it's"}}}), Transcript: ws, WantStatus: fail,
			WantIn: []string{"row 1, column 3 (note): got NULL, want ''"}},
		{Name: "a row too many", Build: db(Check{Query: all, Rows: [][]string{{"1", "open", "NULL"}, {"2", "closed", "late"}}}), Transcript: ws, WantStatus: fail,
			WantIn: []string{"query returned 3 rows, want 2: the first extra row is ('3', 'open', 'it''s')"}},
		{Name: "a row missing", Build: db(Check{Query: all, Rows: [][]string{{"1", "open", "NULL"}, {"2", "closed", "late"}, {"3", "open", "it's"}, {"4", "new", "NULL"}}}), Transcript: ws, WantStatus: fail,
			WantIn: []string{"query returned 3 rows, want 4: row 4 ('4', 'new', NULL) is missing"}},
		{Name: "columns differ", Build: db(Check{Query: all, Rows: [][]string{{"1", "open"}}}), Transcript: ws, WantStatus: fail,
			WantIn: []string{"row 1 has 3 columns, want 2: got ('1', 'open', NULL)"}},
		{Name: "no rows wanted", Build: db(Check{Query: "SELECT id FROM tickets WHERE id > 10", Rows: [][]string{}}), Transcript: ws, WantStatus: pass, WantIn: []string{"query returned the 0 rows wanted"}},
		{Name: "no rows wanted, some returned", Build: db(Check{Query: "SELECT id FROM tickets WHERE id = 1", Rows: [][]string{}}), Transcript: ws, WantStatus: fail,
			WantIn: []string{"query returned 1 row, want 0: the first extra row is ('1')"}},
		{Name: "real as text", Build: db(Check{Query: "SELECT price FROM tickets WHERE id < 3 ORDER BY id", Rows: [][]string{{"2.5"}, {"3"}}}), Transcript: ws, WantStatus: pass},

		{Name: "absolute path", Build: db(Check{DSN: path, Query: all, RowCount: "= 3"}), Transcript: nil, WantStatus: pass},
		{Name: "file URI", Build: db(Check{DSN: "file:app.db?mode=ro", Query: all, RowCount: "= 3"}), Transcript: ws, WantStatus: pass},
		{Name: "absolute file URI", Build: db(Check{DSN: "file://" + filepath.ToSlash(path), Query: all, RowCount: "= 3"}), Transcript: nil, WantStatus: pass},
		{Name: "driver parameters", Build: db(Check{DSN: "app.db?_pragma=busy_timeout(5000)", Query: all, RowCount: "= 3"}), Transcript: ws, WantStatus: pass},
		{Name: "in memory", Build: db(Check{DSN: ":memory:", Query: "SELECT 1", Scalar: "= 1"}), Transcript: nil, WantStatus: pass},

		{Name: "query error", Build: db(Check{Query: "SELECT * FROM nope", RowCount: "= 0"}), Transcript: ws, WantStatus: errored, WantIn: []string{"query failed", "no such table: nope"}},
		{Name: "missing file", Build: db(Check{DSN: "missing.db", Query: all, RowCount: "= 0"}), Transcript: ws, WantStatus: errored,
			WantIn: []string{`database file "missing.db" does not exist`}},
		{Name: "directory", Build: db(Check{DSN: ".", Query: all, RowCount: "= 0"}), Transcript: ws, WantStatus: errored, WantIn: []string{"is a directory"}},
		{Name: "no workspace", Build: db(Check{Query: all, RowCount: "= 3"}), Transcript: &judge.Transcript{}, WantStatus: fail, WantIn: []string{noWorkspace}},
	})

	if _, err := os.Stat(filepath.Join(dir, "missing.db")); err == nil {
		t.Error("judging created missing.db")
	}
}

func TestSQLNames(t *testing.T) {
	tests := []struct {
		check Check
		want  string
	}{
		{Check{DSN: "a.db", Query: "SELECT 1", Scalar: "= 1"}, "sql_scalar"},
		{Check{DSN: "a.db", Query: "SELECT 1", RowCount: "= 1"}, "sql_row_count"},
		{Check{DSN: "a.db", Query: "SELECT 1", Rows: [][]string{{"1"}}}, "sql_rows"},
	}
	for _, tc := range tests {
		t.Run(tc.want, func(t *testing.T) {
			j, err := New(tc.check)
			if err != nil {
				t.Fatal(err)
			}
			// The file is missing: an ERROR, still named.
			if got := judgetest.Run(t, j, inWorkspace(t.TempDir())); got.Name != tc.want || got.Status != judge.StatusError {
				t.Errorf("got %s %s, want %s ERROR", got.Name, got.Status, tc.want)
			}
		})
	}
}

func TestSQLTimeout(t *testing.T) {
	dir := t.TempDir()
	sqlExec(t, "sqlite", filepath.Join(dir, "slow.db"), "CREATE TABLE t (x INTEGER)")
	// A recursive query that would run for a very long time.
	j, err := New(Check{
		DSN:     "slow.db",
		Query:   "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) SELECT count(*) FROM c",
		Scalar:  "> 0",
		Timeout: 200 * time.Millisecond,
	})
	if err != nil {
		t.Fatal(err)
	}
	got := judgetest.Run(t, j, inWorkspace(dir))
	judgetest.Check(t, got, judge.StatusError, []string{"timed out after 200ms"}, nil)
}

func TestSQLBuildErrors(t *testing.T) {
	const q = "SELECT 1"
	judgetest.RunBuildErrorCases(t, []judgetest.BuildErrorCase{
		{Name: "empty DSN", Build: sqlCheck(Check{Query: q, Scalar: "= 1"}), WantErr: "sql: empty DSN"},
		{Name: "mysql", Build: sqlCheck(Check{DSN: "mysql://u:pw@host/db", Query: q, Scalar: "= 1"}), WantErr: `unsupported DSN scheme "mysql"`},
		{Name: "sqlite scheme", Build: sqlCheck(Check{DSN: "sqlite://app.db", Query: q, Scalar: "= 1"}), WantErr: `unsupported DSN scheme "sqlite"`},
		{Name: "remote file URI", Build: sqlCheck(Check{DSN: "file://server/app.db", Query: q, Scalar: "= 1"}), WantErr: `host "server": only a local file`},
		{Name: "bad escape in file URI", Build: sqlCheck(Check{DSN: "file:a%zz.db", Query: q, Scalar: "= 1"}), WantErr: "invalid URL escape"},
		{Name: "bad postgres port", Build: sqlCheck(Check{DSN: "postgres://u@host:notaport/db", Query: q, Scalar: "= 1"}), WantErr: "invalid PostgreSQL DSN"},
		{Name: "bad postgres option", Build: sqlCheck(Check{DSN: "postgres://u@host/db?sslmode=sometimes", Query: q, Scalar: "= 1"}), WantErr: "invalid PostgreSQL DSN"},
		{Name: "empty query", Build: sqlCheck(Check{DSN: "a.db", Query: "  ", Scalar: "= 1"}), WantErr: "sql: empty query"},
		{Name: "nothing wanted", Build: sqlCheck(Check{DSN: "a.db", Query: q}), WantErr: "set exactly one of Scalar, RowCount and Rows (0 are set)"},
		{Name: "two wanted", Build: sqlCheck(Check{DSN: "a.db", Query: q, Scalar: "= 1", Rows: [][]string{}}), WantErr: "(2 are set)"},
		{Name: "bad operator", Build: sqlCheck(Check{DSN: "a.db", Query: q, Scalar: "~ 1"}), WantErr: "sql: Scalar: comparison \"~ 1\": no operator"},
		{Name: "ordering strings", Build: sqlCheck(Check{DSN: "a.db", Query: q, Scalar: "> 'a'"}), WantErr: "strings compare with = or != only"},
		{Name: "row count of a string", Build: sqlCheck(Check{DSN: "a.db", Query: q, RowCount: "= 'a'"}), WantErr: "a row count compares with a number"},
		{Name: "bad row count", Build: sqlCheck(Check{DSN: "a.db", Query: q, RowCount: ">= two"}), WantErr: "sql: RowCount: comparison"},
		{Name: "negative timeout", Build: sqlCheck(Check{DSN: "a.db", Query: q, Scalar: "= 1", Timeout: -time.Second}), WantErr: "sql: negative timeout"},
	})
}

func TestSQLBuildErrorHidesPassword(t *testing.T) {
	for _, dsn := range []string{
		"postgres://u:secretpw@host:notaport/db",
		"postgresql://u:secretpw@host/db?sslmode=sometimes",
		"postgres://u:secretpw@[::1/db",
	} {
		t.Run(dsn, func(t *testing.T) {
			_, err := New(Check{DSN: dsn, Query: "SELECT 1", Scalar: "= 1"})
			if err == nil {
				t.Fatal("got no error")
			}
			if strings.Contains(err.Error(), "secretpw") {
				t.Errorf("error %q shows the password", err)
			}
		})
	}
}

func TestSQLUnreachablePostgres(t *testing.T) {
	j, err := New(Check{
		DSN:     "postgres://u:secretpw@127.0.0.1:1/x?connect_timeout=2",
		Query:   "SELECT 1",
		Scalar:  "= 1",
		Timeout: 10 * time.Second,
	})
	if err != nil {
		t.Fatal(err)
	}
	got := judgetest.Run(t, j, nil)
	judgetest.Check(t, got, judge.StatusError, []string{"cannot reach the database at 127.0.0.1:1"}, []string{"secretpw"})
	if got.Name != "sql_scalar" {
		t.Errorf("name = %q, want sql_scalar", got.Name)
	}
}

func TestSQLPostgres(t *testing.T) {
	dsn := pgtest.URL(t)
	suffix := make([]byte, 6)
	if _, err := rand.Read(suffix); err != nil {
		t.Fatal(err)
	}
	table := "gavel_rule_test_" + hex.EncodeToString(suffix)
	sqlExec(t, "pgx", dsn,
		`CREATE TABLE `+table+` (id integer PRIMARY KEY, status text NOT NULL, amount numeric(10, 2), done boolean, note text)`,
		`INSERT INTO `+table+` VALUES (1, 'open', 12.50, false, NULL), (2, 'closed', 3, true, 'late'), (3, 'open', NULL, false, 'x')`,
	)
	t.Cleanup(func() { sqlExec(t, "pgx", dsn, `DROP TABLE IF EXISTS `+table) })

	pg := func(c Check) func() (judge.Judge, error) {
		c.DSN = dsn
		return sqlCheck(c)
	}
	pass, fail, errored := judge.StatusPass, judge.StatusFail, judge.StatusError
	judgetest.RunCases(t, []judgetest.Case{
		{Name: "scalar count", Build: pg(Check{Query: "SELECT count(*) FROM " + table, Scalar: ">= 2"}), Transcript: nil, WantStatus: pass, WantIn: []string{"scalar is 3 (>= 2)"}},
		{Name: "scalar numeric", Build: pg(Check{Query: "SELECT amount FROM " + table + " WHERE id = 1", Scalar: "= 12.5"}), Transcript: nil, WantStatus: pass, WantIn: []string{"scalar is 12.50 (= 12.5)"}},
		{Name: "scalar string differs", Build: pg(Check{Query: "SELECT status FROM " + table + " WHERE id = $1", Args: []any{2}, Scalar: "= 'open'"}), Transcript: nil, WantStatus: fail,
			WantIn: []string{"scalar is 'closed', want = 'open'"}},
		{Name: "scalar NULL", Build: pg(Check{Query: "SELECT amount FROM " + table + " WHERE id = 3", Scalar: ">= 0"}), Transcript: nil, WantStatus: fail, WantIn: []string{"scalar is NULL, want >= 0"}},
		{Name: "row count", Build: pg(Check{Query: "SELECT * FROM " + table + " WHERE status = $1", Args: []any{"open"}, RowCount: "= 2"}), Transcript: nil, WantStatus: pass},
		{Name: "row count too low", Build: pg(Check{Query: "SELECT * FROM " + table + " WHERE done", RowCount: ">= 2"}), Transcript: nil, WantStatus: fail,
			WantIn: []string{"query returned 1 row, want >= 2"}},
		{Name: "rows", Build: pg(Check{Query: "SELECT id, status, amount, done, note FROM " + table + " ORDER BY id", Rows: [][]string{
			{"1", "open", "12.50", "false", "NULL"},
			{"2", "closed", "3.00", "true", "late"},
			{"3", "open", "NULL", "false", "x"},
		}}), Transcript: nil, WantStatus: pass},
		{Name: "rows differ", Build: pg(Check{Query: "SELECT id, amount FROM " + table + " ORDER BY id", Rows: [][]string{{"1", "12.50"}, {"2", "3"}}}), Transcript: nil, WantStatus: fail,
			WantIn: []string{"row 2, column 2 (amount): got '3.00', want '3'"}},
		{Name: "query error", Build: pg(Check{Query: "SELECT nope FROM " + table, RowCount: "= 0"}), Transcript: nil, WantStatus: errored,
			WantIn: []string{"query failed", `column "nope" does not exist`}},
	})
}

// A check of a database the agent's tools are still writing waits for
// the lock, within its timeout, instead of failing with SQLITE_BUSY.
func TestSQLiteWaitsForALock(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "app.db")
	sqlExec(t, "sqlite", path, `CREATE TABLE tickets (id INTEGER PRIMARY KEY, status TEXT)`, `INSERT INTO tickets VALUES (1, 'open')`)
	writer, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	defer writer.Close()
	conn, err := writer.Conn(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	if _, err := conn.ExecContext(context.Background(), "BEGIN EXCLUSIVE"); err != nil {
		t.Fatal(err)
	}
	released := make(chan struct{})
	go func() { // the tool server finishes its write a moment later
		defer close(released)
		time.Sleep(200 * time.Millisecond)
		conn.ExecContext(context.Background(), "UPDATE tickets SET status = 'closed' WHERE id = 1")
		conn.ExecContext(context.Background(), "COMMIT")
	}()
	j, err := New(Check{DSN: "app.db", Query: "SELECT status FROM tickets WHERE id = 1", Scalar: "= 'closed'"})
	if err != nil {
		t.Fatal(err)
	}
	got := judge.Run(context.Background(), j, inWorkspace(dir))
	<-released
	if got.Status != judge.StatusPass {
		t.Errorf("got %s: %s", got.Status, got.Reasoning)
	}
}
