package queue

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"time"

	"github.com/riverqueue/river"
	"github.com/riverqueue/river/riverdriver/riverdatabasesql"
	"github.com/riverqueue/river/rivermigrate"

	"github.com/gavelhq/gavel/runner"
	"github.com/gavelhq/gavel/store/sqlstore"
)

// A Queue is the job queue in the PostgreSQL database of a results
// store.
type Queue struct {
	st     *sqlstore.DB
	db     *sql.DB
	schema string
}

// Open returns the queue in st's database, which must be PostgreSQL,
// migrating its tables first (see Migrate).
func Open(ctx context.Context, st *sqlstore.DB) (*Queue, error) {
	if st.Dialect() != sqlstore.Postgres {
		return nil, errors.New("the job queue needs a PostgreSQL results database (--db postgres://...), not " + st.Dialect().String())
	}
	q := &Queue{st: st, db: st.SQL()}
	if err := q.db.QueryRowContext(ctx, "SELECT current_schema()").Scan(&q.schema); err != nil {
		return nil, fmt.Errorf("queue: the database's schema: %w", err)
	}
	if q.schema == "" {
		return nil, errors.New("queue: the DSN's search_path names no schema that exists")
	}
	if _, err := q.Migrate(ctx); err != nil {
		return nil, err
	}
	return q, nil
}

// migrateLock is the advisory lock Migrate holds, so that workers
// starting together migrate one at a time.
const migrateLock = 0x6761_7665_6c71 // "gavelq"

// Migrate brings River's tables and the queue's up to date, under an
// advisory lock (River's migrations run one transaction each: some
// cannot share one), and returns River's migration version.
func (q *Queue) Migrate(ctx context.Context) (int, error) {
	m, err := rivermigrate.New(riverdatabasesql.New(q.db), &rivermigrate.Config{Schema: q.schema, Logger: quiet})
	if err != nil {
		return 0, fmt.Errorf("queue: migrate: %w", err)
	}
	conn, err := q.db.Conn(ctx)
	if err != nil {
		return 0, fmt.Errorf("queue: migrate: %w", err)
	}
	defer conn.Close()
	if _, err := conn.ExecContext(ctx, "SELECT pg_advisory_lock($1)", migrateLock); err != nil {
		return 0, fmt.Errorf("queue: migrate: %w", err)
	}
	defer conn.ExecContext(context.WithoutCancel(ctx), "SELECT pg_advisory_unlock($1)", migrateLock)
	if _, err := m.Migrate(ctx, rivermigrate.DirectionUp, nil); err != nil {
		return 0, fmt.Errorf("queue: migrate River's tables: %w", err)
	}
	if _, err := q.db.ExecContext(ctx, tablesDDL); err != nil {
		return 0, fmt.Errorf("queue: migrate the queue's tables: %w", err)
	}
	versions, err := m.ExistingVersions(ctx)
	if err != nil || len(versions) == 0 {
		return 0, err
	}
	return versions[len(versions)-1].Version, nil
}

// tablesDDL creates the queue's own tables: a run's plan, progress and
// spend (gavel_queue_runs), and the (case, trial) pairs settled
// (gavel_queue_trials).
const tablesDDL = `
CREATE TABLE IF NOT EXISTS gavel_queue_runs (
	run_id        text PRIMARY KEY,
	suite         text NOT NULL,
	digest        text NOT NULL,
	timeout_ns    bigint NOT NULL,
	max_cost_usd  double precision NOT NULL DEFAULT 0,
	max_tokens    bigint NOT NULL DEFAULT 0,
	cases         jsonb NOT NULL,
	total         integer NOT NULL,
	settled       integer NOT NULL DEFAULT 0,
	input_tokens  bigint NOT NULL DEFAULT 0,
	output_tokens bigint NOT NULL DEFAULT 0,
	cost_usd      double precision NOT NULL DEFAULT 0,
	unpriced      boolean NOT NULL DEFAULT false,
	stopped       text NOT NULL DEFAULT '',
	stop_reason   text NOT NULL DEFAULT '',
	finished      boolean NOT NULL DEFAULT false
);
CREATE TABLE IF NOT EXISTS gavel_queue_trials (
	run_id  text NOT NULL REFERENCES gavel_queue_runs ON DELETE CASCADE,
	case_id text NOT NULL,
	n       integer NOT NULL,
	skipped boolean NOT NULL,
	PRIMARY KEY (run_id, case_id, n)
);`

// quiet is River's logger: its warnings and errors, on stderr.
var quiet = slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelWarn}))

// riverConfig is the River configuration every client of q shares.
func (q *Queue) riverConfig() *river.Config {
	return &river.Config{Schema: q.schema, Logger: quiet, JobTimeout: -1, MaxAttempts: MaxAttempts}
}

// MaxAttempts is how many times a job is tried when its worker fails
// (not when its trial fails: that is a result): River's backoff waits
// about 1 s, 16 s, 81 s and 256 s between them.
const MaxAttempts = 5

// DefaultRescueAfter is how long a job may run before River takes its
// worker for dead and gives the job to another: twice the default trial
// timeout (a conversation, then its judging, each within the timeout)
// and a minute.
const DefaultRescueAfter = 2*runner.DefaultTimeout + time.Minute
