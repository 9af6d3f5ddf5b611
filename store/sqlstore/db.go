package sqlstore

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"github.com/gavelhq/gavel/store"
)

var _ store.Store = (*DB)(nil)

// A DB is a store.Store on an SQL database. It is safe for concurrent use,
// and several DBs (in several processes) may share one database.
type DB struct {
	sql        *sql.DB
	d          Dialect
	migrations []migration
	// writer is a one-slot semaphore that writes hold when the dialect
	// takes one writer at a time; nil otherwise.
	writer chan struct{}
	// now returns the current time (SetClock).
	now func() time.Time
	// prepared holds the statements of writes prepared once (prepare).
	prepared stmtCache
}

// New returns a store on db, which it then owns (Close closes it),
// without touching the database: call Migrate before using it, or use
// Open. It is for commands that report the schema's version (Version)
// before changing anything.
func New(db *sql.DB, d Dialect) (*DB, error) {
	ms, err := loadMigrations(d)
	if err != nil {
		return nil, fmt.Errorf("load migrations: %w", err)
	}
	s := &DB{sql: db, d: d, migrations: ms, now: time.Now}
	if d.oneWriter {
		s.writer = make(chan struct{}, 1)
	}
	return s, nil
}

// Open returns a store on db, which it then owns, with its schema brought
// up to date (see Migrate). A database written by a newer Gavel is refused
// with a *NewerSchemaError, and left as it was.
func Open(ctx context.Context, db *sql.DB, d Dialect) (*DB, error) {
	s, err := New(db, d)
	if err != nil {
		return nil, err
	}
	if err := s.Migrate(ctx); err != nil {
		return nil, err
	}
	return s, nil
}

// SetClock makes now the store's clock, by which it stamps what it writes
// and decides what has expired or been abandoned (sessions, heartbeats).
// It defaults to time.Now; a test that runs a server on a clock of its own
// gives the store the same one. Call it before the store is used.
func (db *DB) SetClock(now func() time.Time) { db.now = now }

// SQL returns the database the store works on, for tools and tests.
func (db *DB) SQL() *sql.DB { return db.sql }

// Dialect returns the store's dialect.
func (db *DB) Dialect() Dialect { return db.d }

// Close closes the database.
func (db *DB) Close() error { return errors.Join(db.prepared.close(), db.sql.Close()) }

// write runs fn in a transaction and commits it, or rolls it back when fn
// fails. Writes to a one-writer database queue here first.
func (db *DB) write(ctx context.Context, fn func(tx *sql.Tx) error) error {
	if db.writer != nil {
		select {
		case db.writer <- struct{}{}:
			defer func() { <-db.writer }()
		case <-ctx.Done():
			return ctx.Err()
		}
	}
	tx, err := db.sql.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	if err := fn(tx); err != nil {
		return errors.Join(err, rollback(tx))
	}
	return tx.Commit()
}

// rollback rolls tx back; a transaction that is already over is no error.
func rollback(tx *sql.Tx) error {
	if err := tx.Rollback(); err != nil && !errors.Is(err, sql.ErrTxDone) {
		return fmt.Errorf("roll back: %w", err)
	}
	return nil
}

// read runs fn in a read-only transaction, so that its queries see one
// state of the database.
func (db *DB) read(ctx context.Context, fn func(tx *sql.Tx) error) error {
	tx, err := db.sql.BeginTx(ctx, &sql.TxOptions{ReadOnly: true, Isolation: sql.LevelRepeatableRead})
	if err != nil {
		return err
	}
	defer tx.Rollback()
	if err := fn(tx); err != nil {
		return err
	}
	return tx.Commit()
}

// q rebinds a query for the dialect.
func (db *DB) q(query string) string { return db.d.rebind(query) }

// micros returns t as microseconds since the Unix epoch, how the store
// keeps times.
func micros(t time.Time) int64 { return t.UnixMicro() }

// microsCeil returns t as microseconds, rounded up: a bound that keeps
// every stored time before t.
func microsCeil(t time.Time) int64 {
	us := t.UnixMicro()
	if t.After(time.UnixMicro(us)) {
		us++
	}
	return us
}

// fromMicros is the inverse of micros, in UTC.
func fromMicros(us int64) time.Time { return time.UnixMicro(us).UTC() }

// normalTime returns t as the store gives it back: UTC, to the
// microsecond.
func normalTime(t time.Time) time.Time {
	if t.IsZero() {
		return time.Time{}
	}
	return t.Truncate(time.Microsecond).UTC()
}

// notFound wraps store.ErrNotFound.
func notFound(what string) error {
	return fmt.Errorf("%s: %w", what, store.ErrNotFound)
}
