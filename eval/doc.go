// Package eval owns a run's whole life: what gavel run, gavel rejudge,
// gavel merge, gavel worker, the web app's "Start a run" and gaveltest
// do with a suite, done one way.
//
// A Session runs suites as its Options say: it opens each suite and
// selects its cases (tags, ids, the paths changed since a git ref),
// plans the trials (all of them, shard K of N, the rest of an incomplete
// run, the ERRORs of a run, or a stored run's transcripts judged again),
// runs them (in this process, cases read as they run, or through the job
// queue for workers), records them in the results database as they
// finish (in batches, with a heartbeat, so that a run whose process died
// is seen to be abandoned), applies the budgets, decides the run's
// status, its verdict against its threshold and its exit code, and
// writes its reports. Merge puts the shards of a run together, Worker
// runs queued trials, and Launcher starts runs for the web app.
//
// A command is then flags, one call, and printing: the exit codes (Exit*)
// are the gavel command's, documented in docs/ci.md.
package eval
