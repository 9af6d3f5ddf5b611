package eval

import (
	"context"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/gavelhq/gavel/llm"
	"github.com/gavelhq/gavel/queue"
	"github.com/gavelhq/gavel/spec"
)

// A Worker takes the trials that runs enqueued (Options.Queue) in a
// PostgreSQL results database and runs them (gavel worker): it loads a
// run's suite from the path the run names, relative to its working
// directory, converses, judges, saves each trial, and finishes the run
// whose last trial it ran.
type Worker struct {
	// DB is the results database, which holds the queue: a postgres://
	// URL. Defaults as Options.DB.
	DB string
	// Concurrency is how many trials the worker runs at once.
	Concurrency int
	// RescueAfter is how long a trial may run before it is taken for a
	// dead worker's and given to another (queue.WorkerConfig).
	RescueAfter time.Duration
	// NoCache asks the models again instead of reusing cached answers.
	NoCache bool
	// Quiet discards what exec agents write to their stderr.
	Quiet bool
	// Log gets what the worker does, and what exec agents write to their
	// stderr.
	Log io.Writer
	// Stop, when stopped, stops taking trials and lets those in flight
	// finish and be saved; cancelling Work's context then cancels them
	// (they go back to the queue).
	Stop *Drain
}

// Work runs trials until w.Stop is stopped, or the worker stops on its
// own, and returns the exit code it earns.
func (w *Worker) Work(ctx context.Context) int {
	if w.Stop == nil {
		w.Stop = NewDrain()
	}
	m, err := OpenModels(DefaultCacheDir(), w.NoCache, false)
	if err != nil {
		fmt.Fprintln(w.Log, "gavel worker: the model cache:", err)
		return ExitInfra
	}
	defer m.Close()
	st, err := OpenStore(ctx, w.DB)
	if err != nil {
		fmt.Fprintln(w.Log, "gavel worker: the results database:", err)
		return ExitInfra
	}
	defer st.Close()
	q, err := OpenQueue(ctx, st)
	if err != nil {
		fmt.Fprintln(w.Log, "gavel worker:", err)
		return QueueExit(err)
	}
	agentStderr := w.Log
	if w.Quiet {
		agentStderr = io.Discard
	}
	limits := &llm.Limiters{} // per worker: one process's view of each server
	qw, err := q.Worker(queue.WorkerConfig{
		Concurrency: w.Concurrency,
		RescueAfter: w.RescueAfter,
		Log:         w.Log,
		Load: func(path string) (*spec.Built, error) {
			meter := llm.NewMeter(llm.DefaultPrices())
			b, err := spec.Open(path, suiteEnv(limits, m, meter, agentStderr, st))
			if err != nil {
				return nil, err
			}
			warnSharedDir(path, w.Log)
			meter.SetPrices(llm.DefaultPrices().With(b.Prices))
			return b, nil
		},
	})
	if err != nil {
		fmt.Fprintln(w.Log, "gavel worker:", err)
		return ExitInfra
	}
	defer qw.Close()
	if err := qw.Start(context.WithoutCancel(ctx)); err != nil {
		fmt.Fprintln(w.Log, "gavel worker:", err)
		return ExitInfra
	}
	fmt.Fprintf(w.Log, "gavel worker: taking trials, %d at a time (pid %d)\n", w.Concurrency, os.Getpid())
	select {
	case <-w.Stop.Stopped():
	case <-qw.Stopped():
		fmt.Fprintln(w.Log, "gavel worker: stopped")
		return ExitInfra
	}
	fmt.Fprintln(w.Log, "gavel worker: stopping: no new trial; those in flight finish (send the signal again to cancel them)")
	if err := qw.Stop(ctx); err != nil && ctx.Err() == nil {
		fmt.Fprintln(w.Log, "gavel worker: stopping:", err)
	} else if err != nil {
		fmt.Fprintln(w.Log, "gavel worker: cancelling the trials in flight: they go back to the queue")
		cancelCtx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		_ = qw.StopAndCancel(cancelCtx)
	}
	fmt.Fprintln(w.Log, "gavel worker: stopped")
	return ExitPassed
}
