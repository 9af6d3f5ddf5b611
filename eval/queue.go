package eval

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/gavelhq/gavel/queue"
	"github.com/gavelhq/gavel/runner"
	"github.com/gavelhq/gavel/store"
	"github.com/gavelhq/gavel/store/sqlstore"
	"github.com/gavelhq/gavel/telemetry"
)

// errNotPostgres is OpenQueue's error for a store that is not in
// PostgreSQL: a usage error.
var errNotPostgres = errors.New("the job queue lives in a PostgreSQL results database: give one with --db postgres://... (or GAVEL_DB)")

// OpenQueue opens the job queue in st's database, which must be
// PostgreSQL.
func OpenQueue(ctx context.Context, st store.Store) (*queue.Queue, error) {
	db, ok := st.(*sqlstore.DB)
	if !ok || db.Dialect() != sqlstore.Postgres {
		return nil, errNotPostgres
	}
	return queue.Open(ctx, db)
}

// QueueExit is the exit code of OpenQueue's error.
func QueueExit(err error) int {
	if errors.Is(err, errNotPostgres) {
		return ExitUsage
	}
	return ExitInfra
}

// enqueue creates the run of s and enqueues its trials for gavel worker;
// unless --detach, it then waits for the run to finish and reports it as
// gavel run does.
func (r *Session) enqueue(ctx context.Context, s meteredSuite) int {
	f := &r.Options
	q, err := OpenQueue(ctx, r.st)
	if err != nil {
		fmt.Fprintln(r.Stderr, "gavel run --queue:", err)
		return QueueExit(err)
	}
	digest, err := s.Digest()
	if err != nil {
		fmt.Fprintln(r.Stderr, "gavel run --queue:", err)
		return ExitInfra
	}
	plan := queue.Plan{
		Suite:   workerPath(s.Suite.File),
		Digest:  digest,
		Timeout: cmp.Or(f.Timeout, s.Timeout, runner.DefaultTimeout),
		Budget:  runner.Budget{MaxCostUSD: f.MaxCostUSD, MaxTokens: f.MaxTokens},
	}
	trials := runner.Config{Trials: f.Trials}
	defs := make([]store.CaseDef, len(s.Suite.Cases))
	for i, c := range s.Suite.Cases {
		defs[i] = caseDef(s.Suite.Name, c, s.Definition(c.ID))
	}
	versions, err := store.SaveCases(ctx, r.st, defs)
	if err != nil {
		fmt.Fprintln(r.Stderr, "gavel run: the results database:", err)
		return ExitInfra
	}
	plan.Cases = make([]queue.PlannedCase, len(s.Suite.Cases))
	for i, c := range s.Suite.Cases {
		plan.Cases[i] = queue.PlannedCase{ID: c.ID, Trials: trials.TrialsOf(s.Suite, c), CaseKey: versions[i].Key}
	}
	info := NewRunInfo(s.Built, f, s.Suite.Threshold)
	// No one process runs the run: the workers' trials and heartbeats
	// say it is alive.
	info.PID, info.Machine = 0, ""
	info.Settings["queue"] = plan.Suite
	delete(info.Settings, "concurrency") // each worker's own
	// The run's span is carried in the jobs: the workers' trials join
	// its trace. It ends when the waiting does (at once with --detach).
	ctx, endSpan := telemetry.StartRun(ctx, telemetry.Run{Suite: s.Suite.Name})
	plan.Trace = telemetry.Carrier(ctx)
	created, err := q.Enqueue(ctx, info, plan)
	if err != nil {
		endSpan(false, false)
		fmt.Fprintln(r.Stderr, "gavel run --queue:", err)
		return ExitInfra
	}
	telemetry.SetRunID(ctx, created.ID)
	fmt.Fprintf(r.Stderr, "gavel: run %s: %d trials of %s enqueued for gavel worker (gavel show %s)\n",
		created.ID, plan.Trials(), plan.Suite, created.ID)
	if f.Detach {
		endSpan(false, false)
		return ExitPassed
	}
	return r.await(ctx, q, created.ID, endSpan)
}

// workerPath is the path workers load a suite file from: relative to
// the working directory when the file is under it, else absolute.
func workerPath(file string) string {
	abs, err := filepath.Abs(file)
	if err != nil {
		return file
	}
	if wd, err := os.Getwd(); err == nil {
		if rel, err := filepath.Rel(wd, abs); err == nil && filepath.IsLocal(rel) {
			return filepath.ToSlash(rel)
		}
	}
	return abs
}
