package sqlstore

import (
	"embed"
	"io/fs"
	"strconv"
	"strings"
)

//go:embed migrations
var migrations embed.FS

// A Dialect is what differs between the SQL databases the store runs on:
// the placeholders, the schema (each dialect has its own migrations), how
// to tell whether a table exists and how migrations and writers take
// turns. The queries themselves are written once, with ? placeholders.
type Dialect struct {
	name string
	// numbered rewrites ? placeholders as $1, $2, ...
	numbered bool
	// hasTable is a query with one argument, a table name, that returns
	// one row with one boolean-ish column.
	hasTable string
	// migrationLock, when set, runs first in each migration's
	// transaction, so that concurrent processes migrate one at a time.
	migrationLock string
	// oneWriter is set for a database that takes one writer at a time
	// (SQLite): the store's writes then queue in the process instead of
	// polling the database's lock.
	oneWriter bool
	// compilesEachCall is set for a driver that compiles a statement anew
	// at every call (modernc.org/sqlite keeps no prepared statements): a
	// transaction that repeats statements prepares them once (stmts).
	compilesEachCall bool
}

// SQLite is the dialect of SQLite (modernc.org/sqlite). Its connections
// should begin transactions with BEGIN IMMEDIATE (the DSN's
// _txlock=immediate, as package store/sqlite sets it), so that a write
// waits for the lock up front under busy_timeout.
var SQLite = Dialect{
	name:             "sqlite",
	hasTable:         "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = ?",
	oneWriter:        true,
	compilesEachCall: true,
}

// Postgres is the dialect of PostgreSQL (github.com/jackc/pgx/v5/stdlib).
// The tables live in the connection's current schema (its search_path).
var Postgres = Dialect{
	name:     "postgres",
	numbered: true,
	// Not to_regclass: a prepared statement calling it may answer from a
	// stale catalog cache, as it reads no table; a migration that waited
	// for another would then not see the tables it made.
	hasTable:      "SELECT count(*) FROM pg_catalog.pg_tables WHERE schemaname = current_schema() AND tablename = ?",
	migrationLock: "SELECT pg_advisory_xact_lock(7231061942)", // any constant; one for every Gavel
}

// String returns the dialect's name: "sqlite" or "postgres".
func (d Dialect) String() string { return d.name }

// migrations returns the dialect's migration files.
func (d Dialect) migrations() (fs.FS, error) {
	return fs.Sub(migrations, "migrations/"+d.name)
}

// rebind rewrites a query written with ? placeholders for the dialect.
// Question marks inside quoted strings and identifiers are left alone.
func (d Dialect) rebind(query string) string {
	if !d.numbered || !strings.Contains(query, "?") {
		return query
	}
	var b strings.Builder
	b.Grow(len(query) + 16)
	n := 0
	var quote byte // the quote we are inside, or 0
	for i := 0; i < len(query); i++ {
		c := query[i]
		switch {
		case quote != 0:
			if c == quote {
				quote = 0
			}
		case c == '\'' || c == '"':
			quote = c
		case c == '?':
			n++
			b.WriteByte('$')
			b.WriteString(strconv.Itoa(n))
			continue
		}
		b.WriteByte(c)
	}
	return b.String()
}

// placeholders returns n placeholders separated by commas, "?, ?, ?", for
// an IN list.
func placeholders(n int) string {
	if n <= 0 {
		return ""
	}
	return strings.Repeat("?, ", n-1) + "?"
}
