package sqlstore_test

import (
	"context"
	"database/sql"
	"errors"
	"testing"

	"github.com/gavelhq/gavel/store"
)

// CreateRunWith writes what its function writes in the transaction that
// creates the run: both are committed, or neither (the transactional
// enqueue of gavel run --queue).
func TestCreateRunWith(t *testing.T) {
	s, ctx := open(t), context.Background()
	if _, err := s.SQL().ExecContext(ctx, "CREATE TABLE jobs (run_id TEXT)"); err != nil {
		t.Fatal(err)
	}
	enqueue := func(ctx context.Context, tx *sql.Tx, r store.RunInfo) error {
		_, err := tx.ExecContext(ctx, "INSERT INTO jobs VALUES (?)", r.ID)
		return err
	}
	created, err := s.CreateRunWith(ctx, store.RunInfo{Suite: "s"}, enqueue)
	if err != nil {
		t.Fatal(err)
	}
	var jobRun string
	if err := s.SQL().QueryRowContext(ctx, "SELECT run_id FROM jobs").Scan(&jobRun); err != nil || jobRun != created.ID {
		t.Errorf("the job's run = %q (%v), want %q", jobRun, err, created.ID)
	}

	refused := errors.New("the queue refused")
	_, err = s.CreateRunWith(ctx, store.RunInfo{Suite: "s"}, func(ctx context.Context, tx *sql.Tx, r store.RunInfo) error {
		if err := enqueue(ctx, tx, r); err != nil {
			return err
		}
		return refused
	})
	if !errors.Is(err, refused) {
		t.Fatalf("CreateRunWith = %v, want %v", err, refused)
	}
	runs, err := s.Runs(ctx, store.RunFilter{})
	if err != nil {
		t.Fatal(err)
	}
	var jobs int
	s.SQL().QueryRowContext(ctx, "SELECT COUNT(*) FROM jobs").Scan(&jobs)
	if len(runs) != 1 || jobs != 1 {
		t.Errorf("after a refused enqueue: %d runs and %d jobs, want 1 and 1 (the first)", len(runs), jobs)
	}
}
