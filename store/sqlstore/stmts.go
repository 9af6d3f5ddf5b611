package sqlstore

import (
	"context"
	"database/sql"
	"errors"
	"sync"
)

// An execer runs statements: a *sql.Tx, or a *stmts on one.
type execer interface {
	ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error)
	QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row
}

// maxPrepared caps the statements a DB keeps prepared (prepare).
const maxPrepared = 64

// A stmtCache holds statements prepared once for a DB, by query, when
// its dialect compiles a statement at every call otherwise (SQLite:
// compiling the upsert of a trial and its companions, at every trial,
// was a sixth of the CPU time of a 10,000-case run).
type stmtCache struct {
	mu sync.Mutex
	m  map[string]*sql.Stmt
}

// prepare prepares the queries (rebound for the dialect) for the DB's
// writes to use (stmts), if the dialect needs it and they are not yet.
// It is called outside transactions: preparing takes a connection of
// its own. A query that fails to prepare is left to fail where it runs.
func (db *DB) prepare(ctx context.Context, queries ...string) {
	if !db.d.compilesEachCall {
		return
	}
	c := &db.prepared
	for _, query := range queries {
		query = db.q(query)
		c.mu.Lock()
		_, ok := c.m[query]
		full := len(c.m) >= maxPrepared
		c.mu.Unlock()
		if ok || full {
			continue
		}
		st, err := db.sql.PrepareContext(ctx, query)
		if err != nil {
			continue
		}
		c.mu.Lock()
		if _, ok := c.m[query]; ok || len(c.m) >= maxPrepared {
			st.Close()
		} else {
			if c.m == nil {
				c.m = make(map[string]*sql.Stmt)
			}
			c.m[query] = st
		}
		c.mu.Unlock()
	}
}

// close closes the prepared statements.
func (c *stmtCache) close() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	var errs []error
	for _, st := range c.m {
		errs = append(errs, st.Close())
	}
	c.m = nil
	return errors.Join(errs...)
}

// get returns the statement prepared for query, or nil.
func (c *stmtCache) get(query string) *sql.Stmt {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.m[query]
}

// stmts runs the statements of a transaction with those the DB has
// prepared (prepare), and passes any other to the transaction as it is.
type stmts struct {
	db *DB
	tx *sql.Tx
	m  map[string]*sql.Stmt // the transaction's, by query
}

// stmts returns the statements of tx.
func (db *DB) stmts(tx *sql.Tx) *stmts { return &stmts{db: db, tx: tx} }

// stmt returns query as a statement of the transaction, or nil when the
// DB has not prepared it.
func (s *stmts) stmt(ctx context.Context, query string) *sql.Stmt {
	if !s.db.d.compilesEachCall {
		return nil
	}
	if st, ok := s.m[query]; ok {
		return st
	}
	p := s.db.prepared.get(query)
	if p == nil {
		return nil
	}
	st := s.tx.StmtContext(ctx, p)
	if s.m == nil {
		s.m = make(map[string]*sql.Stmt)
	}
	s.m[query] = st
	return st
}

// ExecContext runs query in the transaction.
func (s *stmts) ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error) {
	if st := s.stmt(ctx, query); st != nil {
		return st.ExecContext(ctx, args...)
	}
	return s.tx.ExecContext(ctx, query, args...)
}

// QueryRowContext runs query in the transaction, for one row.
func (s *stmts) QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row {
	if st := s.stmt(ctx, query); st != nil {
		return st.QueryRowContext(ctx, args...)
	}
	return s.tx.QueryRowContext(ctx, query, args...)
}
