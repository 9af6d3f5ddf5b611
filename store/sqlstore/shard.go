package sqlstore

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"github.com/gavelhq/gavel"
	"github.com/gavelhq/gavel/store"
)

var _ store.Sharder = (*DB)(nil)

// errLabelTaken says that another shard created the labelled run while
// this one was creating it: the transaction is rolled back and tried
// again, and then joins that run.
var errLabelTaken = errors.New("label taken meanwhile")

// JoinRun creates the run labelled label, or joins it. The label is the
// primary key of labelled_runs: a shard that finds no run inserts one
// and its label, and when another shard inserted the label meanwhile
// (PostgreSQL makes the second insert wait for the first to commit), it
// rolls back its run and joins that one. SQLite takes one writer at a
// time, so there the first simply wins.
func (db *DB) JoinRun(ctx context.Context, label string, info store.RunInfo, part store.Shard) (store.Joined, error) {
	if label == "" || part.Count < 1 || part.Index < 1 || part.Index > part.Count {
		return store.Joined{}, fmt.Errorf("store: join run %q as shard %d/%d: a label and a shard K/N with 1 <= K <= N are needed", label, part.Index, part.Count)
	}
	for range 3 {
		j, err := db.joinRun(ctx, label, info, part)
		if errors.Is(err, errLabelTaken) {
			continue
		}
		if err != nil {
			return store.Joined{}, fmt.Errorf("store: join run %q as shard %d/%d: %w", label, part.Index, part.Count, err)
		}
		return j, nil
	}
	return store.Joined{}, fmt.Errorf("store: join run %q as shard %d/%d: the label is taken and no run has it", label, part.Index, part.Count)
}

func (db *DB) joinRun(ctx context.Context, label string, info store.RunInfo, part store.Shard) (store.Joined, error) {
	if info.Started.IsZero() {
		info.Started = db.now()
	}
	// The run's process is none of its shards': it is abandoned when none
	// is heard of.
	info.PID, info.Machine = 0, ""
	info.Heartbeat = db.now()
	info.Started, info.Heartbeat = normalTime(info.Started), normalTime(info.Heartbeat)
	info.Status, info.Ended, info.Stats, info.Stopped, info.StopReason = store.Running, time.Time{}, gavel.Stats{}, "", ""
	filters, models, settings, err := marshalSettings(info)
	if err != nil {
		return store.Joined{}, err
	}
	var j store.Joined
	err = db.write(ctx, func(tx *sql.Tx) error {
		var runID, selection string
		var count int
		err := tx.QueryRowContext(ctx, db.q("SELECT run_id, shards, selection FROM labelled_runs WHERE label = ?"), label).Scan(&runID, &count, &selection)
		switch {
		case errors.Is(err, sql.ErrNoRows):
			if runID, err = db.insertRun(ctx, tx, info, filters, models, settings); err != nil {
				return err
			}
			res, err := tx.ExecContext(ctx, db.q(`INSERT INTO labelled_runs (label, run_id, shards, selection) VALUES (?, ?, ?, ?)
				ON CONFLICT (label) DO NOTHING`), label, runID, part.Count, part.Selection)
			if err != nil {
				return err
			}
			if n, err := res.RowsAffected(); err != nil {
				return err
			} else if n == 0 {
				return errLabelTaken
			}
			j.Created = true
		case err != nil:
			return err
		}
		// The run's row is locked from here (the heartbeat's update):
		// shards of one run join and end one at a time.
		if err := db.beat(ctx, tx, runID); err != nil {
			return err
		}
		if j.Info, err = db.runInfo(ctx, tx, runID); err != nil {
			return err
		}
		if !j.Created {
			switch {
			case j.Info.Suite != info.Suite:
				return fmt.Errorf("%w: run %s (label %q) is of suite %q, not %q", store.ErrJoinRefused, runID, label, j.Info.Suite, info.Suite)
			case count != part.Count:
				return fmt.Errorf("%w: run %s (label %q) has %d shards, not %d", store.ErrJoinRefused, runID, label, count, part.Count)
			case selection != part.Selection:
				return fmt.Errorf("%w: run %s (label %q) selected other cases or trials (another commit, --tag, --id, --changed-since or --trials?)", store.ErrJoinRefused, runID, label)
			}
		}
		again, err := db.takeShard(ctx, tx, runID, part)
		if err != nil {
			return err
		}
		j.Again = again
		if again || j.Info.Status != store.Running {
			// The run runs again, until its last shard ends again.
			if _, err := tx.ExecContext(ctx, db.q("UPDATE runs SET status = ?, ended_us = NULL WHERE id = ?"), string(store.Running), runID); err != nil {
				return err
			}
			j.Info.Status, j.Info.Ended = store.Running, time.Time{}
		}
		return nil
	})
	return j, err
}

// takeShard records that part runs now, in this process; again is true
// when it ran before. A shard running in a live process is refused.
func (db *DB) takeShard(ctx context.Context, tx *sql.Tx, runID string, part store.Shard) (again bool, err error) {
	var status, host, machine string
	var pid int
	var heartbeat int64
	err = tx.QueryRowContext(ctx, db.q("SELECT status, host, pid, machine, heartbeat_us FROM run_shards WHERE run_id = ? AND shard = ?"),
		runID, part.Index).Scan(&status, &host, &pid, &machine, &heartbeat)
	now := micros(db.now())
	if errors.Is(err, sql.ErrNoRows) {
		_, err = tx.ExecContext(ctx, db.q(`INSERT INTO run_shards (run_id, shard, status, host, pid, machine, started_us, heartbeat_us)
			VALUES (?, ?, 'running', ?, ?, ?, ?, ?)`), runID, part.Index, part.Host, part.PID, part.Machine, now, now)
		return false, err
	}
	if err != nil {
		return false, err
	}
	running := store.RunInfo{Status: store.Running, PID: pid, Machine: machine, Heartbeat: fromMicros(heartbeat)}
	if status == "running" && !running.Abandoned(db.now()) {
		return false, fmt.Errorf("%w: its shard %d/%d is running now (pid %d on %s): let it end, or stop it first", store.ErrJoinRefused, part.Index, part.Count, pid, host)
	}
	_, err = tx.ExecContext(ctx, db.q(`UPDATE run_shards SET status = 'running', host = ?, pid = ?, machine = ?, started_us = ?,
		heartbeat_us = ?, ended_us = NULL, stopped = '', stop_reason = '' WHERE run_id = ? AND shard = ?`),
		part.Host, part.PID, part.Machine, now, now, runID, part.Index)
	return true, err
}

// ShardHeartbeat records that a shard's process, and so its run, is
// alive now.
func (db *DB) ShardHeartbeat(ctx context.Context, runID string, index int) error {
	err := db.write(ctx, func(tx *sql.Tx) error {
		if err := db.beat(ctx, tx, runID); err != nil {
			return err
		}
		_, err := tx.ExecContext(ctx, db.q("UPDATE run_shards SET heartbeat_us = ? WHERE run_id = ? AND shard = ?"), micros(db.now()), runID, index)
		return err
	})
	if err != nil {
		return fmt.Errorf("store: heartbeat of run %s, shard %d: %w", runID, index, err)
	}
	return nil
}

// EndShard records that a shard ended, and returns how the run's shards
// stand. The run's row is locked first, so that shards ending at once
// end one after the other and the last one sees them all ended.
func (db *DB) EndShard(ctx context.Context, runID string, index int, stopped gavel.StopCause, why string) (store.Shards, error) {
	var out store.Shards
	err := db.write(ctx, func(tx *sql.Tx) error {
		if err := db.beat(ctx, tx, runID); err != nil {
			return err
		}
		res, err := tx.ExecContext(ctx, db.q(`UPDATE run_shards SET status = 'ended', ended_us = ?, heartbeat_us = ?, stopped = ?, stop_reason = ?
			WHERE run_id = ? AND shard = ?`), micros(db.now()), micros(db.now()), string(stopped), why, runID, index)
		if err != nil {
			return err
		}
		if n, err := res.RowsAffected(); err != nil {
			return err
		} else if n == 0 {
			return notFound(fmt.Sprintf("the run has no shard %d", index))
		}
		out, err = db.shards(ctx, tx, runID)
		return err
	})
	if err != nil {
		return store.Shards{}, fmt.Errorf("store: end shard %d of run %s: %w", index, runID, err)
	}
	return out, nil
}

// RunByLabel returns the run labelled label and how its shards stand.
func (db *DB) RunByLabel(ctx context.Context, label string) (store.RunInfo, store.Shards, error) {
	var info store.RunInfo
	var shards store.Shards
	err := db.read(ctx, func(tx *sql.Tx) error {
		var runID string
		err := tx.QueryRowContext(ctx, db.q("SELECT run_id FROM labelled_runs WHERE label = ?"), label).Scan(&runID)
		if errors.Is(err, sql.ErrNoRows) {
			return notFound("no run has that label")
		} else if err != nil {
			return err
		}
		if info, err = db.runInfo(ctx, tx, runID); err != nil {
			return err
		}
		shards, err = db.shards(ctx, tx, runID)
		return err
	})
	if err != nil {
		return store.RunInfo{}, store.Shards{}, fmt.Errorf("store: run labelled %q: %w", label, err)
	}
	return info, shards, nil
}

// shards reads how a labelled run's shards stand.
func (db *DB) shards(ctx context.Context, q *sql.Tx, runID string) (store.Shards, error) {
	var s store.Shards
	if err := q.QueryRowContext(ctx, db.q("SELECT shards FROM labelled_runs WHERE run_id = ?"), runID).Scan(&s.Count); err != nil {
		if errors.Is(err, sql.ErrNoRows) {
			return s, notFound("the run has no label")
		}
		return s, err
	}
	rows, err := q.QueryContext(ctx, db.q("SELECT status, stopped, stop_reason FROM run_shards WHERE run_id = ? ORDER BY shard"), runID)
	if err != nil {
		return s, err
	}
	defer rows.Close()
	for rows.Next() {
		var status, stopped, why string
		if err := rows.Scan(&status, &stopped, &why); err != nil {
			return s, err
		}
		if status != "ended" {
			continue
		}
		s.Ended++
		if stopped != "" && s.Stopped == "" {
			s.Stopped, s.StopReason = gavel.StopCause(stopped), why
		}
	}
	return s, rows.Err()
}
