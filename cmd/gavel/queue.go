package main

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"

	flag "github.com/spf13/pflag"

	"github.com/gavelhq/gavel/queue"
	"github.com/gavelhq/gavel/runner"
	"github.com/gavelhq/gavel/store"
	"github.com/gavelhq/gavel/store/sqlstore"
	"github.com/gavelhq/gavel/telemetry"
)

// queueFlags adds gavel run's flags of the job queue.
func queueFlags(fs *flag.FlagSet, f *runFlags) {
	fs.BoolVar(&f.queue, "queue", false, "enqueue the run's trials in the PostgreSQL database of --db, for gavel worker processes to run, then wait for the run to finish and report it as usual (a signal stops the waiting, exit 5, not the run)")
	fs.BoolVar(&f.detach, "detach", false, "with --queue: return once the trials are enqueued; the run finishes when its last trial does (gavel show RUN)")
}

// queueConflicts refuses what --queue cannot do.
func (f *runFlags) queueConflicts() error {
	switch {
	case f.detach && !f.queue:
		return errors.New("--detach goes with --queue")
	case !f.queue:
		return nil
	case f.resume != "" || f.retry != "":
		return errors.New("--queue cannot carry on a run (--resume, --retry-errors): run those without --queue")
	case f.failFast:
		return errors.New("--queue cannot stop at the first failure (--fail-fast): workers run the trials independently")
	case f.shard.Count > 0:
		return errors.New("--queue spreads the whole run over the workers: give no --shard (shards are for machines that each run a part without a queue)")
	case f.pricesFile != "":
		return errors.New("--queue cannot take --prices: workers price the models from the suite file; put the prices under prices: in it")
	}
	return nil
}

// errNotPostgres is openQueue's error for a store that is not in
// PostgreSQL: a usage error.
var errNotPostgres = errors.New("the job queue lives in a PostgreSQL results database: give one with --db postgres://... (or GAVEL_DB)")

// openQueue opens the job queue in st's database, which must be
// PostgreSQL.
func openQueue(ctx context.Context, st store.Store) (*queue.Queue, error) {
	db, ok := st.(*sqlstore.DB)
	if !ok || db.Dialect() != sqlstore.Postgres {
		return nil, errNotPostgres
	}
	return queue.Open(ctx, db)
}

// queueExit is the exit code of openQueue's error.
func queueExit(err error) int {
	if errors.Is(err, errNotPostgres) {
		return exitUsage
	}
	return exitInfra
}

// enqueue creates the run of s and enqueues its trials for gavel worker;
// unless --detach, it then waits for the run to finish and reports it as
// gavel run does.
func (r *runSession) enqueue(ctx context.Context, s meteredSuite) int {
	f := r.f
	q, err := openQueue(ctx, r.st)
	if err != nil {
		fmt.Fprintln(r.stderr, "gavel run --queue:", err)
		return queueExit(err)
	}
	digest, err := s.Digest()
	if err != nil {
		fmt.Fprintln(r.stderr, "gavel run --queue:", err)
		return exitInfra
	}
	plan := queue.Plan{
		Suite:   workerPath(s.Suite.File),
		Digest:  digest,
		Timeout: cmp.Or(f.timeout, s.Timeout, runner.DefaultTimeout),
		Budget:  runner.Budget{MaxCostUSD: f.maxCost, MaxTokens: f.maxTokens},
	}
	trials := runner.Config{Trials: f.trials}
	defs := make([]store.CaseDef, len(s.Suite.Cases))
	for i, c := range s.Suite.Cases {
		defs[i] = caseDef(s.Suite.Name, c, s.Definition(c.ID))
	}
	versions, err := store.SaveCases(ctx, r.st, defs)
	if err != nil {
		fmt.Fprintln(r.stderr, "gavel run: the results database:", err)
		return exitInfra
	}
	plan.Cases = make([]queue.PlannedCase, len(s.Suite.Cases))
	for i, c := range s.Suite.Cases {
		plan.Cases[i] = queue.PlannedCase{ID: c.ID, Trials: trials.TrialsOf(s.Suite, c), CaseKey: versions[i].Key}
	}
	info := runInfo(s.Built, f, s.Suite.Threshold)
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
		fmt.Fprintln(r.stderr, "gavel run --queue:", err)
		return exitInfra
	}
	telemetry.SetRunID(ctx, created.ID)
	fmt.Fprintf(r.stderr, "gavel: run %s: %d trials of %s enqueued for gavel worker (gavel show %s)\n",
		created.ID, plan.Trials(), plan.Suite, created.ID)
	if f.detach {
		endSpan(false, false)
		return exitPassed
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
