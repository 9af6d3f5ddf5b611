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

	"github.com/gavelhq/gavel/judge"
)

// postgresURL returns the DSN of the PostgreSQL server the tests may use,
// from GAVEL_TEST_POSTGRES_URL. Without one the test is skipped, unless
// GAVEL_REQUIRE_INTEGRATION=1 makes it mandatory.
func postgresURL(t *testing.T) string {
	t.Helper()
	dsn := os.Getenv("GAVEL_TEST_POSTGRES_URL")
	if dsn == "" {
		if os.Getenv("GAVEL_REQUIRE_INTEGRATION") == "1" {
			t.Fatal("GAVEL_TEST_POSTGRES_URL is not set, and GAVEL_REQUIRE_INTEGRATION=1 requires the PostgreSQL tests")
		}
		t.Skip("GAVEL_TEST_POSTGRES_URL is not set")
	}
	return dsn
}

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
	runCheckCases(t, []checkCase{
		{"row count", db(Check{Query: all, RowCount: "= 3"}), ws, pass, []string{"query returned 3 rows (= 3)"}, nil},
		{"row count too low", db(Check{Query: "SELECT * FROM tickets WHERE id = 1", RowCount: ">= 2"}), ws, fail,
			[]string{"query returned 1 row, want >= 2"}, nil},
		{"row count of none", db(Check{Query: "SELECT * FROM tickets WHERE id > 10", RowCount: "= 0"}), ws, pass, []string{"query returned 0 rows"}, nil},
		{"args", db(Check{Query: "SELECT id FROM tickets WHERE status = ?", Args: []any{"open"}, RowCount: "= 2"}), ws, pass, nil, nil},

		{"scalar count", db(Check{Query: "SELECT count(*) FROM tickets", Scalar: ">= 2"}), ws, pass, []string{"scalar is 3 (>= 2)"}, nil},
		{"scalar count too low", db(Check{Query: "SELECT count(*) FROM tickets", Scalar: "> 3"}), ws, fail, []string{"scalar is 3, want > 3"}, nil},
		{"scalar real", db(Check{Query: "SELECT price FROM tickets WHERE id = 1", Scalar: "= 2.50"}), ws, pass, []string{"scalar is 2.5 (= 2.50)"}, nil},
		{"scalar string", db(Check{Query: "SELECT status FROM tickets WHERE id = 2", Scalar: "= 'closed'"}), ws, pass, []string{"scalar is 'closed' (= 'closed')"}, nil},
		{"scalar string differs", db(Check{Query: "SELECT status FROM tickets WHERE id = 2", Scalar: "= 'open'"}), ws, fail,
			[]string{"scalar is 'closed', want = 'open'"}, nil},
		{"scalar string not equal", db(Check{Query: "SELECT status FROM tickets WHERE id = 2", Scalar: "!= 'open'"}), ws, pass, nil, nil},
		{"scalar with a quote", db(Check{Query: "SELECT note FROM tickets WHERE id = 3", Scalar: "= 'it''s'"}), ws, pass, nil, nil},
		{"scalar not a number", db(Check{Query: "SELECT status FROM tickets WHERE id = 2", Scalar: ">= 1"}), ws, fail,
			[]string{"scalar 'closed' is not a number, want >= 1"}, nil},
		{"scalar NULL", db(Check{Query: "SELECT note FROM tickets WHERE id = 1", Scalar: "= 'late'"}), ws, fail, []string{"scalar is NULL, want = 'late'"}, nil},
		{"scalar NULL and !=", db(Check{Query: "SELECT price FROM tickets WHERE id = 3", Scalar: "!= 0"}), ws, fail, []string{"scalar is NULL, want != 0"}, nil},
		{"scalar from many rows", db(Check{Query: "SELECT id FROM tickets", Scalar: ">= 1"}), ws, fail,
			[]string{"query returned 3 rows, want 1 row for a scalar >= 1"}, nil},
		{"scalar from no row", db(Check{Query: "SELECT id FROM tickets WHERE id > 10", Scalar: ">= 1"}), ws, fail,
			[]string{"query returned 0 rows, want 1 row"}, nil},
		{"scalar from two columns", db(Check{Query: "SELECT id, status FROM tickets WHERE id = 1", Scalar: ">= 1"}), ws, fail,
			[]string{"query returned 2 columns, want 1 column for a scalar"}, nil},

		{"rows", db(Check{Query: all, Rows: [][]string{{"1", "open", "NULL"}, {"2", "closed", "late"}, {"3", "open", "it's"}}}), ws, pass,
			[]string{"query returned the 3 rows wanted"}, nil},
		{"rows differ", db(Check{Query: all, Rows: [][]string{{"1", "open", "NULL"}, {"2", "open", "late"}, {"3", "open", "it's"}}}), ws, fail,
			[]string{"row 2, column 2 (status): got 'closed', want 'open'"}, nil},
		{"NULL wanted", db(Check{Query: all, Rows: [][]string{{"1", "open", "NULL"}, {"2", "closed", "NULL"}, {"3", "open", "it's"}}}), ws, fail,
			[]string{"row 2, column 3 (note): got 'late', want NULL"}, nil},
		{"NULL returned", db(Check{Query: all, Rows: [][]string{{"1", "open", ""}, {"2", "closed", "late"}, {"3", "open", "it's"}}}), ws, fail,
			[]string{"row 1, column 3 (note): got NULL, want ''"}, nil},
		{"a row too many", db(Check{Query: all, Rows: [][]string{{"1", "open", "NULL"}, {"2", "closed", "late"}}}), ws, fail,
			[]string{"query returned 3 rows, want 2: the first extra row is ('3', 'open', 'it''s')"}, nil},
		{"a row missing", db(Check{Query: all, Rows: [][]string{{"1", "open", "NULL"}, {"2", "closed", "late"}, {"3", "open", "it's"}, {"4", "new", "NULL"}}}), ws, fail,
			[]string{"query returned 3 rows, want 4: row 4 ('4', 'new', NULL) is missing"}, nil},
		{"columns differ", db(Check{Query: all, Rows: [][]string{{"1", "open"}}}), ws, fail,
			[]string{"row 1 has 3 columns, want 2: got ('1', 'open', NULL)"}, nil},
		{"no rows wanted", db(Check{Query: "SELECT id FROM tickets WHERE id > 10", Rows: [][]string{}}), ws, pass, []string{"query returned the 0 rows wanted"}, nil},
		{"no rows wanted, some returned", db(Check{Query: "SELECT id FROM tickets WHERE id = 1", Rows: [][]string{}}), ws, fail,
			[]string{"query returned 1 row, want 0: the first extra row is ('1')"}, nil},
		{"real as text", db(Check{Query: "SELECT price FROM tickets WHERE id < 3 ORDER BY id", Rows: [][]string{{"2.5"}, {"3"}}}), ws, pass, nil, nil},

		{"absolute path", db(Check{DSN: path, Query: all, RowCount: "= 3"}), nil, pass, nil, nil},
		{"file URI", db(Check{DSN: "file:app.db?mode=ro", Query: all, RowCount: "= 3"}), ws, pass, nil, nil},
		{"absolute file URI", db(Check{DSN: "file://" + filepath.ToSlash(path), Query: all, RowCount: "= 3"}), nil, pass, nil, nil},
		{"driver parameters", db(Check{DSN: "app.db?_pragma=busy_timeout(5000)", Query: all, RowCount: "= 3"}), ws, pass, nil, nil},
		{"in memory", db(Check{DSN: ":memory:", Query: "SELECT 1", Scalar: "= 1"}), nil, pass, nil, nil},

		{"query error", db(Check{Query: "SELECT * FROM nope", RowCount: "= 0"}), ws, errored, []string{"query failed", "no such table: nope"}, nil},
		{"missing file", db(Check{DSN: "missing.db", Query: all, RowCount: "= 0"}), ws, errored,
			[]string{`database file "missing.db" does not exist`}, nil},
		{"directory", db(Check{DSN: ".", Query: all, RowCount: "= 0"}), ws, errored, []string{"is a directory"}, nil},
		{"no workspace", db(Check{Query: all, RowCount: "= 3"}), &judge.Transcript{}, fail, []string{noWorkspace}, nil},
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
			if got := runJudge(t, j, inWorkspace(t.TempDir())); got.Name != tc.want || got.Status != judge.StatusError {
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
	got := runJudge(t, j, inWorkspace(dir))
	checkJudgment(t, got, judge.StatusError, []string{"timed out after 200ms"}, nil)
}

func TestSQLBuildErrors(t *testing.T) {
	const q = "SELECT 1"
	runBuildCases(t, []buildCase{
		{"empty DSN", sqlCheck(Check{Query: q, Scalar: "= 1"}), "sql: empty DSN"},
		{"mysql", sqlCheck(Check{DSN: "mysql://u:pw@host/db", Query: q, Scalar: "= 1"}), `unsupported DSN scheme "mysql"`},
		{"sqlite scheme", sqlCheck(Check{DSN: "sqlite://app.db", Query: q, Scalar: "= 1"}), `unsupported DSN scheme "sqlite"`},
		{"remote file URI", sqlCheck(Check{DSN: "file://server/app.db", Query: q, Scalar: "= 1"}), `host "server": only a local file`},
		{"bad escape in file URI", sqlCheck(Check{DSN: "file:a%zz.db", Query: q, Scalar: "= 1"}), "invalid URL escape"},
		{"bad postgres port", sqlCheck(Check{DSN: "postgres://u@host:notaport/db", Query: q, Scalar: "= 1"}), "invalid PostgreSQL DSN"},
		{"bad postgres option", sqlCheck(Check{DSN: "postgres://u@host/db?sslmode=sometimes", Query: q, Scalar: "= 1"}), "invalid PostgreSQL DSN"},
		{"empty query", sqlCheck(Check{DSN: "a.db", Query: "  ", Scalar: "= 1"}), "sql: empty query"},
		{"nothing wanted", sqlCheck(Check{DSN: "a.db", Query: q}), "set exactly one of Scalar, RowCount and Rows (0 are set)"},
		{"two wanted", sqlCheck(Check{DSN: "a.db", Query: q, Scalar: "= 1", Rows: [][]string{}}), "(2 are set)"},
		{"bad operator", sqlCheck(Check{DSN: "a.db", Query: q, Scalar: "~ 1"}), "sql: Scalar: comparison \"~ 1\": no operator"},
		{"ordering strings", sqlCheck(Check{DSN: "a.db", Query: q, Scalar: "> 'a'"}), "strings compare with = or != only"},
		{"row count of a string", sqlCheck(Check{DSN: "a.db", Query: q, RowCount: "= 'a'"}), "a row count compares with a number"},
		{"bad row count", sqlCheck(Check{DSN: "a.db", Query: q, RowCount: ">= two"}), "sql: RowCount: comparison"},
		{"negative timeout", sqlCheck(Check{DSN: "a.db", Query: q, Scalar: "= 1", Timeout: -time.Second}), "sql: negative timeout"},
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
	got := runJudge(t, j, nil)
	checkJudgment(t, got, judge.StatusError, []string{"cannot reach the database at 127.0.0.1:1"}, []string{"secretpw"})
	if got.Name != "sql_scalar" {
		t.Errorf("name = %q, want sql_scalar", got.Name)
	}
}

func TestSQLPostgres(t *testing.T) {
	dsn := postgresURL(t)
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
	runCheckCases(t, []checkCase{
		{"scalar count", pg(Check{Query: "SELECT count(*) FROM " + table, Scalar: ">= 2"}), nil, pass, []string{"scalar is 3 (>= 2)"}, nil},
		{"scalar numeric", pg(Check{Query: "SELECT amount FROM " + table + " WHERE id = 1", Scalar: "= 12.5"}), nil, pass, []string{"scalar is 12.50 (= 12.5)"}, nil},
		{"scalar string differs", pg(Check{Query: "SELECT status FROM " + table + " WHERE id = $1", Args: []any{2}, Scalar: "= 'open'"}), nil, fail,
			[]string{"scalar is 'closed', want = 'open'"}, nil},
		{"scalar NULL", pg(Check{Query: "SELECT amount FROM " + table + " WHERE id = 3", Scalar: ">= 0"}), nil, fail, []string{"scalar is NULL, want >= 0"}, nil},
		{"row count", pg(Check{Query: "SELECT * FROM " + table + " WHERE status = $1", Args: []any{"open"}, RowCount: "= 2"}), nil, pass, nil, nil},
		{"row count too low", pg(Check{Query: "SELECT * FROM " + table + " WHERE done", RowCount: ">= 2"}), nil, fail,
			[]string{"query returned 1 row, want >= 2"}, nil},
		{"rows", pg(Check{Query: "SELECT id, status, amount, done, note FROM " + table + " ORDER BY id", Rows: [][]string{
			{"1", "open", "12.50", "false", "NULL"},
			{"2", "closed", "3.00", "true", "late"},
			{"3", "open", "NULL", "false", "x"},
		}}), nil, pass, nil, nil},
		{"rows differ", pg(Check{Query: "SELECT id, amount FROM " + table + " ORDER BY id", Rows: [][]string{{"1", "12.50"}, {"2", "3"}}}), nil, fail,
			[]string{"row 2, column 2 (amount): got '3.00', want '3'"}, nil},
		{"query error", pg(Check{Query: "SELECT nope FROM " + table, RowCount: "= 0"}), nil, errored,
			[]string{"query failed", `column "nope" does not exist`}, nil},
	})
}
