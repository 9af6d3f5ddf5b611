package dbstate

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gavelhq/gavel/internal/pgtest"
	"github.com/gavelhq/gavel/judge"
	"github.com/gavelhq/gavel/judge/judgetest"
)

// A setup statement writes a past timestamp that a check then sees, in the
// same workspace-relative SQLite file.
func TestExecSQLite(t *testing.T) {
	dir := t.TempDir()
	sqlExec(t, "sqlite", filepath.Join(dir, "app.db"), `CREATE TABLE reminders (id INTEGER PRIMARY KEY, due TEXT NOT NULL)`)
	ctx := context.Background()
	err := Exec(ctx, Statement{DSN: "app.db", Workspace: dir, SQL: `INSERT INTO reminders VALUES (1, datetime('now', '-2 days'))`})
	if err != nil {
		t.Fatal(err)
	}
	check, err := New(Check{DSN: "app.db", Query: `SELECT count(*) FROM reminders WHERE due < datetime('now', '-1 day')`, Scalar: "= 1"})
	if err != nil {
		t.Fatal(err)
	}
	judgetest.Check(t, judgetest.Run(t, check, inWorkspace(dir)), judge.StatusPass, nil, nil)
}

func TestExecErrors(t *testing.T) {
	dir := t.TempDir()
	sqlExec(t, "sqlite", filepath.Join(dir, "app.db"), `CREATE TABLE t (id INTEGER)`)
	for _, tc := range []struct {
		name string
		s    Statement
		want string
	}{
		{"bad statement", Statement{DSN: "app.db", Workspace: dir, SQL: "INSERT INTO nope VALUES (1)"}, `sql setup on database file "app.db"`},
		{"missing file", Statement{DSN: "other.db", Workspace: dir, SQL: "SELECT 1"}, "does not exist"},
		{"relative without workspace", Statement{DSN: "app.db", SQL: "SELECT 1"}, "no workspace"},
		{"empty DSN", Statement{SQL: "SELECT 1"}, "empty DSN"},
		{"unreachable server, password hidden", Statement{DSN: "postgres://u:secretpw@127.0.0.1:1/x?connect_timeout=2", SQL: "SELECT 1", Timeout: 10 * time.Second},
			"the database at 127.0.0.1:1"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := Exec(context.Background(), tc.s)
			if err == nil || !strings.Contains(err.Error(), tc.want) || strings.Contains(err.Error(), "secretpw") {
				t.Errorf("Exec error = %v, want one containing %q and no password", err, tc.want)
			}
		})
	}
}

func TestExecPostgres(t *testing.T) {
	dsn := pgtest.URL(t)
	table := "gavel_exec_test_" + strings.ReplaceAll(t.Name(), "/", "_")
	sqlExec(t, "pgx", dsn, `DROP TABLE IF EXISTS `+table, `CREATE TABLE `+table+` (id integer, due timestamptz)`)
	t.Cleanup(func() { sqlExec(t, "pgx", dsn, `DROP TABLE IF EXISTS `+table) })
	err := Exec(context.Background(), Statement{DSN: dsn, SQL: `INSERT INTO ` + table + ` VALUES ($1, now() - interval '3 days')`, Args: []any{7}})
	if err != nil {
		t.Fatal(err)
	}
	check, _ := New(Check{DSN: dsn, Query: "SELECT id FROM " + table + " WHERE due < now() - interval '2 days'", Scalar: "= 7"})
	judgetest.Check(t, judgetest.Run(t, check, nil), judge.StatusPass, nil, nil)
}
