package eval

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/gavelhq/gavel/queue"
	"github.com/gavelhq/gavel/report"
	"github.com/gavelhq/gavel/store"
)

// awaitPoll is how often gavel run --queue looks at its run's progress.
const awaitPoll = 250 * time.Millisecond

// awaitSay is how often at most gavel run --queue says how far its run
// got, and looks for what failed attempts at its trials said.
const awaitSay = 2 * time.Second

// await waits for a queued run to finish, saying how far it got and what
// failed attempts at its trials said, then reports it and returns the
// exit code it earns. It outlives a restart of the database (see reach).
// A signal stops the waiting, not the run.
func (r *Session) await(ctx context.Context, q *queue.Queue, runID string, endSpan func(complete, passed bool)) int {
	tick := time.NewTicker(awaitPoll)
	defer tick.Stop()
	shown, said, looked := -1, time.Time{}, time.Time{}
	told := map[string]bool{} // failures said
	for {
		var settled, total int
		var finished bool
		var failures []queue.Failure
		look := time.Since(looked) >= awaitSay
		err := r.reach(runID, func() (err error) {
			if settled, total, finished, err = q.Progress(ctx, runID); err != nil || !look {
				return err
			}
			failures, err = q.Failures(ctx, runID)
			return err
		})
		if err != nil {
			return r.stopAwaiting(runID, err, endSpan)
		}
		if finished {
			break
		}
		if look {
			looked = time.Now()
			r.tellFailures(runID, failures, told)
		}
		if !r.Options.Quiet && settled != shown && time.Since(said) >= awaitSay {
			fmt.Fprintf(r.Stderr, "gavel: run %s: %d of %d trials done\n", runID, settled, total)
			shown, said = settled, time.Now()
		}
		select {
		case <-tick.C:
		case <-r.Stop.Stopped():
			return r.stopAwaiting(runID, errStopped, endSpan)
		}
	}
	var stored *store.StoredRun
	err := r.reach(runID, func() (err error) {
		stored, err = r.st.Run(context.WithoutCancel(ctx), runID)
		return err
	})
	if err != nil {
		return r.stopAwaiting(runID, err, endSpan)
	}
	run := stored.Run
	endSpan(run.Complete(), run.Passed())
	fmt.Fprintf(r.Stderr, "gavel: run %s saved (gavel show %s)\n", runID, runID)
	if !run.Complete() {
		fmt.Fprintf(r.Stderr, "gavel: run %s is incomplete (%s)\n", runID, run.StopReason)
	}
	opts := report.Options{Verbose: r.Options.Verbose, Version: r.Version}
	return r.write(run, ExitCode(run), opts, writeReports(r.outs, run, opts))
}

// errStopped is reach's error when a signal stopped the waiting.
var errStopped = errors.New("stopped")

// stopAwaiting says why gavel run --queue stops waiting for its run
// (a signal, or the database out of reach), which the workers carry on
// with, and returns the exit code.
func (r *Session) stopAwaiting(runID string, err error, endSpan func(complete, passed bool)) int {
	endSpan(false, false)
	if errors.Is(err, errStopped) {
		fmt.Fprintf(r.Stderr, "gavel: stopped waiting for run %s (%s); the workers carry on with it (gavel show %s)\n",
			runID, r.Stop.Why(), runID)
		return ExitIncomplete
	}
	fmt.Fprintf(r.Stderr, "gavel run --queue: %v; the workers carry on with run %s (gavel show %s)\n", err, runID, runID)
	return ExitInfra
}

// tellFailures says what failed attempts at a run's trials said, each
// saying once (told holds those said).
func (r *Session) tellFailures(runID string, failures []queue.Failure, told map[string]bool) {
	for _, f := range failures {
		if told[f.Said] {
			continue
		}
		told[f.Said] = true
		more := ""
		if f.Trials > 1 {
			more = fmt.Sprintf(" and %d more", f.Trials-1)
		}
		fmt.Fprintf(r.Stderr, "gavel: run %s: %s trial %d%s failed (attempt %d of %d; River tries again, then saves an ERROR); the last attempt %s\n",
			runID, f.Case, f.N, more, f.Attempt, f.MaxAttempts, f.Said)
	}
}

// awaitOutage is how long gavel run --queue tries to reach the results
// database again before it gives up waiting: a restart or a fail-over
// takes less.
const awaitOutage = 5 * time.Minute

// An outage is the results database out of reach of gavel run --queue:
// since when, and how many tries failed.
type outage struct {
	since time.Time
	tries int
}

// retry counts a try that failed at now and returns how long to wait
// before the next: awaitPoll, doubled each try up to 8 s; ok is false
// once the outage has lasted awaitOutage.
func (o *outage) retry(now time.Time) (wait time.Duration, ok bool) {
	if o.tries == 0 {
		o.since = now
	}
	o.tries++
	if now.Sub(o.since) >= awaitOutage {
		return 0, false
	}
	return min(awaitPoll<<min(o.tries-1, 5), 8*time.Second), true
}

// reach calls read until it succeeds, through an outage of the results
// database (a restart): it says it is reconnecting, tries again with
// backoff, and says when it is back. It gives up after awaitOutage, or
// on a signal (errStopped).
func (r *Session) reach(runID string, read func() error) error {
	var o outage
	for {
		err := read()
		if err == nil {
			if o.tries > 0 {
				fmt.Fprintf(r.Stderr, "gavel: run %s: reconnected to the results database\n", runID)
			}
			return nil
		}
		wait, ok := o.retry(time.Now())
		if !ok {
			return fmt.Errorf("the results database was out of reach for %v: %w", awaitOutage, err)
		}
		if o.tries == 1 {
			fmt.Fprintf(r.Stderr, "gavel: run %s: the results database: %v; reconnecting (for up to %v)\n", runID, err, awaitOutage)
		}
		select {
		case <-time.After(wait):
		case <-r.Stop.Stopped():
			return errStopped
		}
	}
}
