package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io/fs"
	"net/url"
	"os"
	"path/filepath"
	"syscall"
	"time"

	"modernc.org/sqlite"
	sqlite3 "modernc.org/sqlite/lib"

	"github.com/gavelhq/gavel/store/sqlstore"
)

// DefaultPath is where Gavel keeps its store unless told otherwise,
// relative to the directory it runs in.
const DefaultPath = ".gavel/gavel.db"

// maxConns caps the connections to the file: writes take one at a time,
// and a few more serve readers.
const maxConns = 8

// Open opens the store in the SQLite file at path, creating its directory
// and the file on first use, and brings its schema up to date. A file
// written by a newer Gavel is refused (a *sqlstore.NewerSchemaError) and
// left as it was. Errors name the file.
func Open(path string) (*sqlstore.DB, error) {
	db, err := Connect(path)
	if err != nil {
		return nil, err
	}
	s, err := sqlstore.Open(context.Background(), db, sqlstore.SQLite)
	if err != nil {
		db.Close()
		return nil, explain(path, err)
	}
	return s, nil
}

// Connect returns the connections Open uses, to the file at path,
// created if need be, without touching the schema: for
// sqlstore.New(db, sqlstore.SQLite), to report the schema's version
// before migrating.
func Connect(path string) (*sql.DB, error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return nil, fmt.Errorf("store: open %s: %w", path, err)
	}
	if err := os.MkdirAll(filepath.Dir(abs), 0o755); err != nil {
		return nil, explain(path, err)
	}
	db, err := sql.Open("sqlite", DSN(abs))
	if err != nil {
		return nil, fmt.Errorf("store: open %s: %w", path, err)
	}
	db.SetMaxOpenConns(maxConns)
	db.SetMaxIdleConns(maxConns)
	// SQLite opens the file with the first connection.
	if err := ping(db); err != nil {
		db.Close()
		return nil, explain(path, err)
	}
	return db, nil
}

// busyTimeout is how long a connection waits for a lock; DSN sets it.
const busyTimeout = 10 * time.Second

// ping opens the first connection. A connection that asks for WAL while
// another process is turning a new file to WAL is answered SQLITE_BUSY
// at once, whatever the busy timeout (four shards starting together on
// one new file were seen failing so): ping tries again, for as long as
// the busy timeout would have waited.
func ping(db *sql.DB) error {
	deadline := time.Now().Add(busyTimeout)
	for wait := time.Millisecond; ; wait = min(2*wait, 100*time.Millisecond) {
		err := db.Ping()
		var se *sqlite.Error
		if err == nil || !errors.As(err, &se) || se.Code()&0xff != sqlite3.SQLITE_BUSY || time.Now().After(deadline) {
			return err
		}
		time.Sleep(wait)
	}
}

// DSN returns the modernc.org/sqlite data source name of the file at the
// absolute path abs, with the settings the store needs: WAL, a busy
// timeout of ten seconds, foreign keys, synchronous NORMAL and
// transactions that take the write lock as they begin (so that a writer
// waits for it under the busy timeout instead of failing when it finds a
// reader became a writer).
func DSN(abs string) string {
	q := url.Values{}
	q["_pragma"] = []string{fmt.Sprintf("busy_timeout(%d)", busyTimeout.Milliseconds()), "journal_mode(WAL)", "foreign_keys(ON)", "synchronous(NORMAL)"}
	q.Set("_txlock", "immediate")
	u := url.URL{Scheme: "file", Path: abs, OmitHost: true, RawQuery: q.Encode()}
	return u.String()
}

// explain wraps an error of opening or writing the file with the file's
// name and, for the errors a user can fix, what is wrong.
func explain(path string, err error) error {
	var newer *sqlstore.NewerSchemaError
	if errors.As(err, &newer) {
		return fmt.Errorf("store: open %s: %w", path, err)
	}
	dir := filepath.Dir(path)
	var se *sqlite.Error
	code := 0
	if errors.As(err, &se) {
		code = se.Code() & 0xff // the primary result code
	}
	switch {
	case errors.Is(err, syscall.EROFS):
		return fmt.Errorf("store: open %s: %s is on a read-only file system: give Gavel a writable place for its results: %w", path, dir, err)
	case errors.Is(err, fs.ErrPermission) || code == sqlite3.SQLITE_READONLY || code == sqlite3.SQLITE_PERM || code == sqlite3.SQLITE_CANTOPEN:
		name := filepath.Base(path)
		return fmt.Errorf("store: open %s: cannot write it: Gavel writes the file, and %s-wal and %s-shm beside it, so it needs write permission on them and on %s: %w", path, name, name, dir, err)
	case code == sqlite3.SQLITE_FULL || errors.Is(err, syscall.ENOSPC):
		return fmt.Errorf("store: open %s: the disk is full: %w", path, err)
	}
	return fmt.Errorf("store: open %s: %w", path, err)
}
