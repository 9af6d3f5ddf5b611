package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"time"

	flag "github.com/spf13/pflag"

	"github.com/gavelhq/gavel/llm"
	"github.com/gavelhq/gavel/queue"
	"github.com/gavelhq/gavel/runner"
	"github.com/gavelhq/gavel/spec"
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
trace of their run when gavel run --queue traced it too (README: Traces).

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
	db := dbFlag(fs)
	concurrency := fs.Int("concurrency", runner.DefaultConcurrency, "trials this worker runs at once")
	rescueAfter := fs.Duration("rescue-after", queue.DefaultRescueAfter, "how long a trial may run before it is taken for a dead worker's and given to another: more than twice the longest --timeout of the runs (a conversation, then its judging)")
	noCache := fs.Bool("no-cache", false, "ask the models again instead of reusing cached answers")
	quiet := fs.Bool("quiet", false, "discard what exec agents write to their stderr")
	if code, ok := parse(fs, args); !ok {
		return code
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "gavel worker: unexpected %q: the suites are the runs' (gavel run --queue)\n", fs.Arg(0))
		return exitUsage
	}
	m, err := newModels(defaultCacheDir(), *noCache, false)
	if err != nil {
		fmt.Fprintln(stderr, "gavel worker: the model cache:", err)
		return exitInfra
	}
	defer m.Close()

	ctx, stop := interrupts(io.Discard) // says what it does below, as a worker
	defer stop.release()
	flush, ok := startTracing("gavel worker", stderr)
	if !ok {
		return exitUsage
	}
	defer flush()
	st, err := openStore(ctx, *db)
	if err != nil {
		fmt.Fprintln(stderr, "gavel worker: the results database:", err)
		return exitInfra
	}
	defer st.Close()
	q, err := openQueue(ctx, st)
	if err != nil {
		fmt.Fprintln(stderr, "gavel worker:", err)
		return queueExit(err)
	}
	agentStderr := stderr
	if *quiet {
		agentStderr = io.Discard
	}
	limits := &llm.Limiters{} // per worker: one process's view of each server
	w, err := q.Worker(queue.WorkerConfig{
		Concurrency: *concurrency,
		RescueAfter: *rescueAfter,
		Log:         stderr,
		Load: func(path string) (*spec.Built, error) {
			meter := llm.NewMeter(llm.DefaultPrices())
			b, err := spec.Open(path, suiteEnv(limits, m, meter, agentStderr))
			if err != nil {
				return nil, err
			}
			warnSharedDir(path, stderr)
			meter.SetPrices(llm.DefaultPrices().With(b.Prices))
			return b, nil
		},
	})
	if err != nil {
		fmt.Fprintln(stderr, "gavel worker:", err)
		return exitInfra
	}
	defer w.Close()
	if err := w.Start(context.WithoutCancel(ctx)); err != nil {
		fmt.Fprintln(stderr, "gavel worker:", err)
		return exitInfra
	}
	fmt.Fprintf(stderr, "gavel worker: taking trials, %d at a time (pid %d)\n", *concurrency, os.Getpid())
	select {
	case <-stop.ch:
	case <-w.Stopped():
		fmt.Fprintln(stderr, "gavel worker: stopped")
		return exitInfra
	}
	fmt.Fprintln(stderr, "gavel worker: stopping: no new trial; those in flight finish (send the signal again to cancel them)")
	if err := w.Stop(ctx); err != nil && ctx.Err() == nil {
		fmt.Fprintln(stderr, "gavel worker: stopping:", err)
	} else if err != nil {
		fmt.Fprintln(stderr, "gavel worker: cancelling the trials in flight: they go back to the queue")
		cancelCtx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		_ = w.StopAndCancel(cancelCtx)
	}
	fmt.Fprintln(stderr, "gavel worker: stopped")
	return exitPassed
}
