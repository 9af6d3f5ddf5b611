package main

import (
	"fmt"
	"io"

	flag "github.com/spf13/pflag"

	"github.com/gavelhq/gavel/eval"
	"github.com/gavelhq/gavel/queue"
	"github.com/gavelhq/gavel/runner"
)

const workerHelp = `Usage: gavel worker --db postgres://... [flags]

Takes the trials that gavel run --queue enqueued in the PostgreSQL
database of --db and runs them: converses, judges, and saves each trial
to that database. Start as many workers as you like, on any machines that
reach the database; each loads a run's suite from the path the run names,
relative to its working directory (run it from a checkout of the same
suite files: a worker whose suite differs refuses the run's trials, and
says so). The worker whose trial is a run's last finishes the run.

Each worker runs --concurrency trials at once; the provider rate limits
it adapts to are its own, and its model cache is the .gavel/cache of its
working directory, shared by the workers of that machine (same keys as
gavel run). A run's --max-cost-usd and --max-tokens hold across workers:
before a trial starts, the run's spend so far is checked. A worker killed
mid-trial loses that trial only: once it has run for --rescue-after, it
goes back to the queue and another worker redoes it. A trial whose job
River gives up on (five attempts failed, timed out or were rescued, or
the job was cancelled) is saved as an ERROR that says why, by whichever
worker sees it first, so that its run finishes.

Workers of one machine started in one directory share the files a
suite's runs write there (a database its MCP server resets, a workspace):
a worker warns when another holds a suite's directory. Give each worker a
checkout of its own when a suite writes files.

With OTEL_EXPORTER_OTLP_ENDPOINT set (and the other standard OTEL_*
variables), the trials a worker runs are traced to that endpoint, in the
trace of their run when gavel run --queue traced it too (docs/traces.md).

SIGINT or SIGTERM stops taking trials and lets those in flight finish and
be saved; a second one cancels them (they go back to the queue).

Examples:
  gavel worker --db postgres://gavel@db.internal/gavel
  gavel worker --db "$GAVEL_DB" --concurrency 16 --rescue-after 30m

Flags:
`

func workerCommand(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("worker", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() { fmt.Fprint(stderr, workerHelp); fs.PrintDefaults() }
	var w eval.Worker
	dbFlagVar(fs, &w.DB)
	fs.IntVar(&w.Concurrency, "concurrency", runner.DefaultConcurrency, "trials this worker runs at once")
	fs.DurationVar(&w.RescueAfter, "rescue-after", queue.DefaultRescueAfter, "how long a trial may run before it is taken for a dead worker's and given to another: more than twice the longest --timeout of the runs (a conversation, then its judging)")
	fs.BoolVar(&w.NoCache, "no-cache", false, "ask the models again instead of reusing cached answers")
	fs.BoolVar(&w.Quiet, "quiet", false, "discard what exec agents write to their stderr")
	if code, ok := parse(fs, args); !ok {
		return code
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "gavel worker: unexpected %q: the suites are the runs' (gavel run --queue)\n", fs.Arg(0))
		return eval.ExitUsage
	}
	ctx, stop := interrupts(io.Discard) // says what it does below, as a worker
	defer stop.release()
	flush, ok := startTracing("gavel worker", stderr)
	if !ok {
		return eval.ExitUsage
	}
	defer flush()
	w.Log, w.Stop = stderr, stop.Drain
	return w.Work(ctx)
}
