package sqlstore

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/gavelhq/gavel"
	"github.com/gavelhq/gavel/store"
)

// runColumns are the columns scanRun reads from runs: a run's info and
// summary (pass_rate_unknown says that stats' pass rate, 0 in the stats
// of runs finished before schema 11, is none), and, for a run still
// stored as running, how many trials and cases it saved so far
// (store.RunInfo.SoFar; one look at the trials' primary key, only for the
// few runs not finished).
const runColumns = `id, suite, suite_file, started_by, host, git_commit, git_branch, filters, models, settings,
	threshold, status, started_us, ended_us, stats, pass_rate_unknown, pid, machine, heartbeat_us, stopped, stop_reason, continues, rejudges, git_dirty, label,
	(SELECT COUNT(*) FROM trials t WHERE t.run_id = runs.id AND runs.status = 'running'),
	(SELECT COUNT(DISTINCT t.case_id) FROM trials t WHERE t.run_id = runs.id AND runs.status = 'running')`

// CreateRun records a run as it starts, with status running, and returns
// it with its ID set (and its start and heartbeat set to now when they
// were zero). Times are kept in UTC to the microsecond, as they are
// returned.
func (db *DB) CreateRun(ctx context.Context, r store.RunInfo) (store.RunInfo, error) {
	return db.CreateRunWith(ctx, r, nil)
}

// CreateRunWith is CreateRun, and then, unless nil, runs then in the
// transaction that writes the run, with the run as created: what then
// writes is committed with the run, and when then fails, neither is
// (gavel run --queue enqueues a run's trials so).
func (db *DB) CreateRunWith(ctx context.Context, r store.RunInfo, then func(ctx context.Context, tx *sql.Tx, created store.RunInfo) error) (store.RunInfo, error) {
	if r.Started.IsZero() {
		r.Started = db.now()
	}
	if r.Heartbeat.IsZero() {
		r.Heartbeat = db.now()
	}
	r.Started, r.Heartbeat = normalTime(r.Started), normalTime(r.Heartbeat)
	r.Status, r.Ended, r.Stats = store.Running, normalTime(r.Ended), gavel.Stats{}
	r.Stopped, r.StopReason = "", ""
	filters, models, settings, err := marshalSettings(r)
	if err != nil {
		return store.RunInfo{}, fmt.Errorf("store: create run of suite %s: %w", r.Suite, err)
	}
	err = db.write(ctx, func(tx *sql.Tx) error {
		if r.ID, err = db.insertRun(ctx, tx, r, filters, models, settings); err != nil || then == nil {
			return err
		}
		return then(ctx, tx, r)
	})
	if err != nil {
		return store.RunInfo{}, fmt.Errorf("store: create run of suite %s: %w", r.Suite, err)
	}
	return r, nil
}

// insertRun writes a new run's row and returns its new ID.
func (db *DB) insertRun(ctx context.Context, tx *sql.Tx, r store.RunInfo, filters, models, settings string) (string, error) {
	for range 10 { // a new random part when two runs start in the same second with the same one
		id := runID(r.Started)
		res, err := tx.ExecContext(ctx, db.q(`INSERT INTO runs (id, suite, suite_file, started_by, host, git_commit, git_branch, git_dirty,
			filters, models, settings, threshold, status, started_us, pid, machine, heartbeat_us, continues, rejudges, label)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
			ON CONFLICT (id) DO NOTHING`),
			id, r.Suite, r.SuiteFile, r.StartedBy, r.Host, r.GitCommit, r.GitBranch, flag(r.GitDirty),
			filters, models, settings, r.Threshold, string(r.Status), micros(r.Started),
			r.PID, r.Machine, micros(r.Heartbeat), r.Continues, r.Rejudges, r.Label)
		if err != nil {
			return "", err
		}
		if n, err := res.RowsAffected(); err != nil || n == 1 {
			return id, err
		}
	}
	return "", errors.New("no free run ID")
}

func marshalSettings(r store.RunInfo) (filters, models, settings string, err error) {
	f, err := json.Marshal(r.Filters)
	if err != nil {
		return "", "", "", fmt.Errorf("filters: %w", err)
	}
	m, err := json.Marshal(r.Models)
	if err != nil {
		return "", "", "", fmt.Errorf("models: %w", err)
	}
	s, err := json.Marshal(r.Settings)
	if err != nil {
		return "", "", "", fmt.Errorf("settings: %w", err)
	}
	return string(f), string(m), string(s), nil
}

// RunInfo returns a run's info and summary, without its trials.
func (db *DB) RunInfo(ctx context.Context, id string) (store.RunInfo, error) {
	r, err := db.runInfo(ctx, db.sql, id)
	if err != nil {
		return store.RunInfo{}, fmt.Errorf("store: run %s: %w", id, err)
	}
	return r, nil
}

func (db *DB) runInfo(ctx context.Context, q querier, id string) (store.RunInfo, error) {
	r, err := scanRun(q.QueryRowContext(ctx, db.q("SELECT "+runColumns+" FROM runs WHERE id = ?"), id))
	if errors.Is(err, sql.ErrNoRows) {
		return store.RunInfo{}, notFound("no such run")
	}
	return db.shown(r), err
}

// shown is a run as readers see it: a running run whose process is gone
// is abandoned.
func (db *DB) shown(r store.RunInfo) store.RunInfo {
	if r.Abandoned(db.now()) {
		r.Status = store.Abandoned
	}
	return r
}

// Runs lists runs, newest first. Running and abandoned runs are both
// stored as running: listing either reads every running run that matches
// the other filters (there are few: those in progress and those that
// crashed) and keeps those with the status asked for.
func (db *DB) Runs(ctx context.Context, f store.RunFilter) ([]store.RunInfo, error) {
	query := "SELECT " + runColumns + " FROM runs"
	var where []string
	var args []any
	add := func(cond string, arg any) {
		where = append(where, cond)
		args = append(args, arg)
	}
	if f.Suite != "" {
		add("suite = ?", f.Suite)
	}
	live := f.Status == store.Running || f.Status == store.Abandoned
	switch {
	case live:
		add("status = ?", string(store.Running))
	case f.Status != "":
		add("status = ?", string(f.Status))
	}
	if f.Branch != "" {
		add("git_branch = ?", f.Branch)
	}
	if !f.Before.IsZero() {
		add("started_us < ?", microsCeil(f.Before))
	}
	for i, w := range where {
		if i == 0 {
			query += " WHERE " + w
		} else {
			query += " AND " + w
		}
	}
	limit := f.Limit
	if limit <= 0 {
		limit = 50
	}
	query += " ORDER BY started_us DESC, id DESC"
	if !live {
		query += " LIMIT ?"
		args = append(args, limit)
	}

	rows, err := db.sql.QueryContext(ctx, db.q(query), args...)
	if err != nil {
		return nil, fmt.Errorf("store: list runs: %w", err)
	}
	defer rows.Close()
	var out []store.RunInfo
	for rows.Next() {
		r, err := scanRun(rows)
		if err != nil {
			return nil, fmt.Errorf("store: list runs: %w", err)
		}
		if r = db.shown(r); (!live || r.Status == f.Status) && len(out) < limit {
			out = append(out, r)
		}
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("store: list runs: %w", err)
	}
	return out, nil
}

// scanRun scans the runColumns.
func scanRun(row interface{ Scan(...any) error }) (store.RunInfo, error) {
	var r store.RunInfo
	var filters, models, settings, status string
	var started, heartbeat int64
	var ended sql.NullInt64
	var stats sql.NullString
	var stopped string
	var dirty, unknown int
	err := row.Scan(&r.ID, &r.Suite, &r.SuiteFile, &r.StartedBy, &r.Host, &r.GitCommit, &r.GitBranch,
		&filters, &models, &settings, &r.Threshold, &status, &started, &ended, &stats, &unknown,
		&r.PID, &r.Machine, &heartbeat, &stopped, &r.StopReason, &r.Continues, &r.Rejudges, &dirty, &r.Label,
		&r.SoFar.Trials, &r.SoFar.Cases)
	if err != nil {
		return store.RunInfo{}, err
	}
	r.GitDirty = dirty != 0
	r.Status, r.Started, r.Heartbeat, r.Stopped = store.Status(status), fromMicros(started), fromMicros(heartbeat), gavel.StopCause(stopped)
	if ended.Valid {
		r.Ended = fromMicros(ended.Int64)
	}
	for _, f := range []struct {
		name string
		text string
		v    any
	}{
		{"filters", filters, &r.Filters},
		{"models", models, &r.Models},
		{"settings", settings, &r.Settings},
	} {
		if err := json.Unmarshal([]byte(f.text), f.v); err != nil {
			return store.RunInfo{}, fmt.Errorf("run %s: %s: %w", r.ID, f.name, err)
		}
	}
	if stats.Valid {
		if err := json.Unmarshal([]byte(stats.String), &r.Stats); err != nil {
			return store.RunInfo{}, fmt.Errorf("run %s: stats: %w", r.ID, err)
		}
		if unknown != 0 {
			r.Stats.PassRate = nil
		}
	}
	return r, nil
}

// flag is a boolean as the schema keeps it: an INTEGER, 1 or 0.
func flag(b bool) int {
	if b {
		return 1
	}
	return 0
}
