// Package queue runs a run's trials on a job queue in PostgreSQL, with
// River (riverqueue.com): gavel run --queue enqueues them, and gavel
// worker processes, on any number of machines, take them, converse,
// judge and save each trial to the same results store. River is confined
// to this package.
//
// # Enqueuing
//
// Enqueue creates the run and inserts its jobs in one transaction: one
// job per (case, trial), unique by (run, case, trial), so that enqueuing
// a run twice duplicates nothing. A job names its suite by the path its
// workers load it from (relative to their working directory) and the
// suite's digest (spec.Built.Digest): a worker whose suite differs
// refuses the job, saying so.
//
// # Working
//
// A Worker takes jobs, Concurrency at a time. Before a trial starts it
// checks the run's budget against what the run's settled trials spent
// (all workers' trials: the spend is kept in the database); a trial the
// budget stops is skipped, and the run ends incomplete. A trial whose
// agent or judges answered badly is a result (an ERROR), never a retry;
// a failure of the worker itself (the store unreachable, the suite
// missing or different) is retried with River's backoff. A worker that
// dies mid-trial (SIGKILL, a lost machine) leaves its job running in
// River's table: River's rescuer, on whichever worker leads, gives it
// back to the queue once it has run for RescueAfter, and another worker
// redoes the trial. Work stopped gently (SIGTERM: Stop) fetches no more
// jobs and finishes the trials in flight.
//
// # Giving up
//
// River gives up on a job after its last attempt (of MaxAttempts) fails,
// times out, panics or is rescued from a dead worker, and on a job
// cancelled: it discards or cancels it, and runs none of Gavel's code
// when its rescuer does. So every worker sweeps River's table as often
// as it polls for jobs: the trial of a job given up on and not settled
// is saved as an ERROR that says why, in the words of its last attempt,
// and settled, so that every run finishes.
//
// # Finishing
//
// Each job settles its trial in the database: once per (case, trial),
// whoever redid it. The worker that settles a run's last trial finishes
// the run in the store: its cases in suite order, their outcomes, its
// statistics and its status, so that the run ends, and its gate is
// decided, even when nobody waits for it.
//
// # Tables
//
// River's tables (river_job, river_leader, …), migrated by River's own
// migrations, and the queue's two (gavel_queue_runs, gavel_queue_trials)
// live in the schema the DSN's search_path names, beside the store's.
// Migrate creates them; Open does when they are missing.
package queue
