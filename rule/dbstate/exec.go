package dbstate

import (
	"context"
	"database/sql"
	"fmt"
	"time"

	"github.com/gavelhq/gavel/judge"
)

// A Statement changes a database before a round of a case: it writes past
// timestamps so that time-dependent behaviour ("remind me in two days")
// can be tested without waiting, or puts the data a case needs in place.
type Statement struct {
	// DSN names the database as in Check: postgres://…, a file: URI or
	// the path of an SQLite file, which must exist. A relative path is
	// resolved against Workspace.
	DSN       string
	Workspace string
	// SQL is the statement (or, for SQLite, several separated by
	// semicolons); Args are its placeholders' values.
	SQL  string
	Args []any
	// Timeout bounds connecting and running. Defaults to 30 seconds.
	Timeout time.Duration
}

// Exec runs s. Its error names the database, never its password.
func Exec(ctx context.Context, s Statement) error {
	db, err := parseDSN(s.DSN)
	if err != nil {
		return fmt.Errorf("sql setup: %w", err)
	}
	dsn, fail, err := db.resolve(&judge.Transcript{Workspace: s.Workspace})
	switch {
	case err != nil:
		return fmt.Errorf("sql setup: %w", err)
	case fail != "":
		return fmt.Errorf("sql setup on %s: the path is relative and no workspace was given", db.where)
	}
	timeout := s.Timeout
	if timeout <= 0 {
		timeout = defaultTimeout
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	conn, err := sql.Open(db.driver, dsn)
	if err != nil {
		return fmt.Errorf("sql setup: open %s: %s", db.where, db.redact(err.Error()))
	}
	defer conn.Close()
	if _, err := conn.ExecContext(ctx, s.SQL, s.Args...); err != nil {
		return fmt.Errorf("sql setup on %s: %s", db.where, db.redact(err.Error()))
	}
	return nil
}
