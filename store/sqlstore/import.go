package sqlstore

import (
	"context"
	"database/sql"
	"errors"
	"fmt"

	"github.com/gavelhq/gavel/store"
)

// ImportRun records a whole finished run in one transaction: its info,
// every trial of end.Run and how it ended, as CreateRun, SaveTrial and
// FinishRun would together; when any part fails nothing is written.
func (db *DB) ImportRun(ctx context.Context, r store.RunInfo, end store.RunEnd) (store.RunInfo, error) {
	info, err := db.importRun(ctx, r, end)
	if err != nil {
		return store.RunInfo{}, fmt.Errorf("store: import run of suite %s: %w", r.Suite, err)
	}
	return info, nil
}

func (db *DB) importRun(ctx context.Context, r store.RunInfo, end store.RunEnd) (store.RunInfo, error) {
	switch end.Status {
	case store.Passed, store.Failed, store.Incomplete, store.Errored:
	default:
		return store.RunInfo{}, fmt.Errorf("status %q is not one of passed, failed, incomplete, errored", end.Status)
	}
	if end.Run == nil {
		return store.RunInfo{}, errors.New("a run to import needs its cases and trials")
	}
	if r.Started.IsZero() {
		r.Started = db.now()
	}
	if r.Heartbeat.IsZero() {
		r.Heartbeat = db.now()
	}
	if end.Ended.IsZero() {
		end.Ended = db.now()
	}
	r.Started, r.Heartbeat, r.Ended = normalTime(r.Started), normalTime(r.Heartbeat), normalTime(end.Ended)
	r.Status, r.Stats = store.Running, end.Run.Stats()
	filters, models, settings, err := marshalSettings(r)
	if err != nil {
		return store.RunInfo{}, err
	}
	e, err := newRunEnd(end.Status, r.Ended, end.Run, nil)
	if err != nil {
		return store.RunInfo{}, err
	}
	err = db.write(ctx, func(tx *sql.Tx) error {
		if r.ID, err = db.insertRun(ctx, tx, r, filters, models, settings); err != nil {
			return err
		}
		return db.writeEnd(ctx, tx, r.ID, e)
	})
	if err != nil {
		return store.RunInfo{}, err
	}
	r.Status, r.Stopped, r.StopReason = end.Status, e.stopped, e.reason
	return r, nil
}
