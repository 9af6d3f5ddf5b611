package queue

import (
	"context"
	"testing"

	"github.com/gavelhq/gavel/internal/pgtest"
	"github.com/gavelhq/gavel/store"
	"github.com/gavelhq/gavel/store/postgres"
)

func openQueue(t *testing.T) *Queue {
	t.Helper()
	st, err := postgres.Open(context.Background(), pgtest.Schema(t))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	q, err := Open(context.Background(), st)
	if err != nil {
		t.Fatal(err)
	}
	return q
}

// jobs counts the jobs of a run in River's table.
func (q *Queue) jobs(t *testing.T, run string) int {
	t.Helper()
	var n int
	if err := q.db.QueryRow("SELECT COUNT(*) FROM river_job WHERE args->>'run' = $1", run).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

// Enqueuing a run's trials again inserts nothing: a job is unique by its
// run, case and trial, and the plan is kept as it was.
func TestEnqueueTwiceDuplicatesNothing(t *testing.T) {
	q, ctx := openQueue(t), context.Background()
	p := Plan{Suite: "evals/gavel.yaml", Digest: "d1", Cases: []PlannedCase{{ID: "a", Trials: 3}, {ID: "b", Trials: 2}}}
	info, err := q.Enqueue(ctx, store.RunInfo{Suite: "s"}, p)
	if err != nil {
		t.Fatal(err)
	}
	if n := q.jobs(t, info.ID); n != 5 {
		t.Fatalf("%d jobs enqueued, want 5", n)
	}
	tx, err := q.db.BeginTx(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := q.insert(ctx, tx, info.ID, p); err != nil {
		t.Fatal(err)
	}
	if err := tx.Commit(); err != nil {
		t.Fatal(err)
	}
	if n := q.jobs(t, info.ID); n != 5 {
		t.Errorf("enqueued twice: %d jobs, want 5", n)
	}
	settled, total, _, err := q.Progress(ctx, info.ID)
	if settled != 0 || total != 5 || err != nil {
		t.Errorf("progress: %d of %d (%v), want 0 of 5", settled, total, err)
	}
}

// A run whose jobs cannot be enqueued is not created: the run and its
// jobs are one transaction.
func TestEnqueueIsOneTransaction(t *testing.T) {
	q, ctx := openQueue(t), context.Background()
	// A case id River refuses in no job, but the plan cannot be stored:
	// a NUL byte is no text for PostgreSQL.
	_, err := q.Enqueue(ctx, store.RunInfo{Suite: "s"}, Plan{Suite: "x\x00", Cases: []PlannedCase{{ID: "a", Trials: 1}}})
	if err == nil {
		t.Fatal("Enqueue of an impossible plan: no error")
	}
	runs, err := q.st.Runs(ctx, store.RunFilter{})
	if err != nil || len(runs) != 0 {
		t.Errorf("after a failed enqueue: runs %v (%v), want none", runs, err)
	}
}
