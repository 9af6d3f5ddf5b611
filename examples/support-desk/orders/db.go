package orders

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
	"time"

	"modernc.org/sqlite" // registers the "sqlite" driver
	sqlite3 "modernc.org/sqlite/lib"
)

// schemaVersion is stored in the file's user_version. A new file has 0,
// which is how Open tells a file it must set up from one it has set up
// before: unlike "CREATE TABLE IF NOT EXISTS" and "INSERT OR IGNORE", it
// never re-seeds a file whose orders were changed or deleted on purpose.
const schemaVersion = 1

// options are the driver's DSN parameters for every connection.
//   - busy_timeout comes first (the driver applies it first anyway), so
//     that switching to WAL waits for a lock instead of failing.
//   - WAL lets readers in other processes run while a write is under way.
//   - _txlock=immediate takes the write lock at BEGIN, so two processes
//     setting up the same new file do it one after the other instead of
//     both reading user_version 0.
const options = "_pragma=busy_timeout(5000)&_pragma=journal_mode(WAL)&_txlock=immediate"

const schema = `
CREATE TABLE orders (
	id         TEXT PRIMARY KEY,
	status     TEXT NOT NULL,
	eta        TEXT,
	customer   TEXT NOT NULL,
	item       TEXT NOT NULL,
	updated_at TEXT NOT NULL
)`

// seed is the data of a new file. The first two orders are the seed
// document's MOCK_ORDERS; the others give every status an example.
var seed = []struct {
	id, status, eta, customer, item string
}{
	{"12345", StatusShipped, "2026-03-15", "Maya Chen", "Noise-cancelling headphones"},
	{"67890", StatusProcessing, "2026-03-20", "Tom Okafor", "Standing desk"},
	{"24680", StatusDelivered, "2026-03-02", "Priya Nair", "Espresso machine"},
	{"13579", StatusProcessing, "2026-03-25", "Lucas Silva", "Trail running shoes"},
	{"11223", StatusCancelled, "", "Sara Lind", "Mechanical keyboard"},
}

// seedTime is the updated_at of every seed order: fixed, so that a new
// file's contents never depend on when it was made.
const seedTime = "2026-03-09T09:00:00Z"

// A DB is an orders database. Its methods may be called from several
// goroutines at once.
type DB struct {
	sqldb *sql.DB
}

// Open opens the orders database in the SQLite file at path, creating the
// file, its schema and its seed orders when they are missing. Opening a
// file that is already set up changes nothing in it.
func Open(ctx context.Context, path string) (*DB, error) {
	switch {
	case path == "":
		return nil, errors.New("open orders database: the path is empty")
	case strings.Contains(path, "?"):
		// The driver would take what follows the '?' for its parameters.
		return nil, fmt.Errorf("open orders database %q: the path must not contain '?'", path)
	}
	sqldb, err := sql.Open("sqlite", path+"?"+options)
	if err != nil {
		return nil, fmt.Errorf("open orders database %s: %w", path, err)
	}
	if err := firstConnection(ctx, sqldb); err != nil {
		sqldb.Close()
		return nil, fmt.Errorf("open orders database %s: %w", path, err)
	}
	if err := setUp(ctx, sqldb); err != nil {
		sqldb.Close()
		return nil, fmt.Errorf("open orders database %s: %w", path, err)
	}
	return &DB{sqldb: sqldb}, nil
}

// busyWait is how long opening the file waits for another process that
// holds it, as the busy timeout of options says.
const busyWait = 5 * time.Second

// firstConnection opens the file's first connection. A connection that
// asks for WAL while another process is turning the new file to WAL is
// answered SQLITE_BUSY at once, whatever the busy timeout (eight trials
// opening one new file together were seen failing so): it tries again,
// for as long as the busy timeout would have waited.
func firstConnection(ctx context.Context, sqldb *sql.DB) error {
	deadline := time.Now().Add(busyWait)
	for wait := time.Millisecond; ; wait = min(2*wait, 100*time.Millisecond) {
		err := sqldb.PingContext(ctx)
		var se *sqlite.Error
		if err == nil || !errors.As(err, &se) || se.Code()&0xff != sqlite3.SQLITE_BUSY || time.Now().After(deadline) {
			return err
		}
		select {
		case <-time.After(wait):
		case <-ctx.Done():
			return err
		}
	}
}

// setUp creates the schema and the seed orders in a new file, in one
// transaction, so that no reader ever sees a half-made file.
func setUp(ctx context.Context, sqldb *sql.DB) error {
	tx, err := sqldb.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback() // a no-op after Commit

	var version int
	if err := tx.QueryRowContext(ctx, "PRAGMA user_version").Scan(&version); err != nil {
		return fmt.Errorf("read schema version: %w", err)
	}
	switch {
	case version == schemaVersion:
		return nil
	case version != 0:
		return fmt.Errorf("schema version %d is not the %d this program knows", version, schemaVersion)
	}
	if _, err := tx.ExecContext(ctx, schema); err != nil {
		return fmt.Errorf("create schema: %w", err)
	}
	for _, o := range seed {
		_, err := tx.ExecContext(ctx,
			"INSERT INTO orders (id, status, eta, customer, item, updated_at) VALUES (?, ?, ?, ?, ?, ?)",
			o.id, o.status, sql.NullString{String: o.eta, Valid: o.eta != ""}, o.customer, o.item, seedTime)
		if err != nil {
			return fmt.Errorf("seed order %s: %w", o.id, err)
		}
	}
	// PRAGMA takes no placeholders; schemaVersion is a constant.
	if _, err := tx.ExecContext(ctx, fmt.Sprintf("PRAGMA user_version = %d", schemaVersion)); err != nil {
		return fmt.Errorf("set schema version: %w", err)
	}
	return tx.Commit()
}

// Close closes the database.
func (db *DB) Close() error {
	return db.sqldb.Close()
}
