package queue

import (
	"cmp"
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io"
	"os"
	"sync"
	"time"

	"github.com/riverqueue/river"
	"github.com/riverqueue/river/riverdriver/riverdatabasesql"

	"github.com/gavelhq/gavel"
	"github.com/gavelhq/gavel/runner"
	"github.com/gavelhq/gavel/spec"
	"github.com/gavelhq/gavel/store"
	"github.com/gavelhq/gavel/telemetry"
)

// WorkerConfig says how a Worker works.
type WorkerConfig struct {
	// Load builds the suite file a job names (relative to the working
	// directory unless absolute), with the worker's models, cache and
	// rate limiters. Required.
	Load func(path string) (*spec.Built, error)
	// Concurrency is how many trials the worker runs at once (each
	// converses, then is judged). Defaults to runner.DefaultConcurrency.
	Concurrency int
	// RescueAfter is how long a job may run before River takes its worker
	// for dead and gives it to another worker; make it longer than twice
	// the longest trial timeout of the runs (a conversation, then its
	// judging). Defaults to DefaultRescueAfter.
	RescueAfter time.Duration
	// FetchCooldown is the least time between two fetches of jobs, and
	// FetchPollInterval the most (River's), which is also how often the
	// worker looks for jobs River gave up on (see sweep). Default to
	// 10 ms and 1 s.
	FetchCooldown, FetchPollInterval time.Duration
	// Log receives what the worker has to say: the jobs it refuses, the
	// trials it saves as given up on, the runs it finishes. Defaults to
	// discarding it.
	Log io.Writer
}

// A Worker takes trials from the queue and runs them.
type Worker struct {
	q      *Queue
	cfg    WorkerConfig
	client *river.Client[*sql.Tx]
	swept  chan struct{} // closed when the sweep (see sweep) ends

	mu      sync.Mutex
	suites  map[string]loadedSuite // by path
	old     []*spec.Built          // replaced, closed with the worker
	refused map[[2]string]refusal  // by path and digest
}

// A refusal is a suite a worker could not run a job of, and until when
// it says so without building it again.
type refusal struct {
	err   error
	until time.Time
}

// refuseFor is how long a worker keeps refusing a suite without building
// it again (its files may change meanwhile).
const refuseFor = 30 * time.Second

// A loadedSuite is a suite a worker built, its digest and its cases by
// id.
type loadedSuite struct {
	b      *spec.Built
	digest string
	cases  map[string]*gavel.Case
}

// Worker returns a worker on q, not started.
func (q *Queue) Worker(cfg WorkerConfig) (*Worker, error) {
	if cfg.Load == nil {
		return nil, errors.New("queue: a worker needs WorkerConfig.Load")
	}
	cfg.Concurrency = cmp.Or(cfg.Concurrency, runner.DefaultConcurrency)
	cfg.RescueAfter = cmp.Or(cfg.RescueAfter, DefaultRescueAfter)
	cfg.FetchCooldown = cmp.Or(cfg.FetchCooldown, 10*time.Millisecond)
	cfg.FetchPollInterval = cmp.Or(cfg.FetchPollInterval, time.Second)
	if cfg.Log == nil {
		cfg.Log = io.Discard
	}
	w := &Worker{q: q, cfg: cfg, suites: map[string]loadedSuite{}, refused: map[[2]string]refusal{}}
	workers := river.NewWorkers()
	if err := river.AddWorkerSafely(workers, &trialWorker{w: w}); err != nil {
		return nil, fmt.Errorf("queue: %w", err)
	}
	rc := q.riverConfig()
	rc.Queues = map[string]river.QueueConfig{queueName: {MaxWorkers: cfg.Concurrency}}
	rc.Workers = workers
	rc.RescueStuckJobsAfter = cfg.RescueAfter
	rc.FetchCooldown, rc.FetchPollInterval = cfg.FetchCooldown, cfg.FetchPollInterval
	rc.PollOnly = true // database/sql has no LISTEN
	if host, err := os.Hostname(); err == nil {
		rc.ID = fmt.Sprintf("%s-%d-%d", host, os.Getpid(), time.Now().UnixMilli())
	}
	client, err := river.NewClient(riverdatabasesql.New(q.db), rc)
	if err != nil {
		return nil, fmt.Errorf("queue: %w", err)
	}
	w.client = client
	return w, nil
}

// Start starts taking jobs, and saving as ERRORs the trials whose jobs
// River gave up on; it returns at once.
func (w *Worker) Start(ctx context.Context) error {
	if err := w.client.Start(ctx); err != nil {
		return err
	}
	w.swept = make(chan struct{})
	go w.sweep(ctx)
	return nil
}

// Stop stops taking jobs and waits for the trials in flight to finish
// (and be saved), or for ctx to end.
func (w *Worker) Stop(ctx context.Context) error { return w.stopped(ctx, w.client.Stop(ctx)) }

// StopAndCancel stops taking jobs and cancels the trials in flight: their
// jobs go back to the queue, for another worker, without counting as an
// attempt.
func (w *Worker) StopAndCancel(ctx context.Context) error {
	return w.stopped(ctx, w.client.StopAndCancel(ctx))
}

// stopped waits, once River's client has stopped, for the worker's
// sweep to end (or for ctx), and returns err, the client's.
func (w *Worker) stopped(ctx context.Context, err error) error {
	if w.swept == nil || err != nil {
		return err
	}
	select {
	case <-w.swept:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// Stopped is closed once the worker has stopped.
func (w *Worker) Stopped() <-chan struct{} { return w.client.Stopped() }

// Close closes the suites the worker built (their MCP servers, say).
func (w *Worker) Close() error {
	w.mu.Lock()
	defer w.mu.Unlock()
	var errs []error
	for _, l := range w.suites {
		errs = append(errs, l.b.Close())
	}
	for _, b := range w.old {
		errs = append(errs, b.Close())
	}
	w.suites, w.old = map[string]loadedSuite{}, nil
	return errors.Join(errs...)
}

// A RefusedError is a worker's refusal of a job: it cannot run it as
// enqueued.
type RefusedError struct{ Why string }

func (e *RefusedError) Error() string { return e.Why }

// suite returns the suite at path, built once, if its digest is digest.
// A suite whose digest differs is built again (its files may have
// changed since), and refused if it still differs.
func (w *Worker) suite(path, digest string) (loadedSuite, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if l, ok := w.suites[path]; ok && l.digest == digest {
		return l, nil
	}
	key := [2]string{path, digest}
	if r, ok := w.refused[key]; ok && time.Now().Before(r.until) {
		return loadedSuite{}, r.err
	}
	l, err := w.load(path, digest)
	if err != nil {
		w.refused[key] = refusal{err, time.Now().Add(refuseFor)}
	}
	return l, err
}

// load builds the suite at path, and keeps it if its digest is digest;
// w.mu is held.
func (w *Worker) load(path, digest string) (loadedSuite, error) {
	wd, _ := os.Getwd()
	b, err := w.cfg.Load(path)
	if err != nil {
		return loadedSuite{}, &RefusedError{fmt.Sprintf("cannot load the run's suite %s here (in %s): %v", path, wd, err)}
	}
	d, err := b.Digest()
	if err == nil && d != digest {
		err = &RefusedError{fmt.Sprintf("the suite %s here (in %s) is not the one the run was enqueued with "+
			"(its digest is %.12s here, %.12s in the job): run gavel worker from a checkout of the same suite files", path, wd, d, digest)}
	}
	if err != nil {
		b.Close()
		return loadedSuite{}, err
	}
	if l, ok := w.suites[path]; ok {
		w.old = append(w.old, l.b) // trials in flight may still use it
	}
	l := loadedSuite{b, d, make(map[string]*gavel.Case, len(b.Suite.Cases))}
	for _, c := range b.Suite.Cases {
		l.cases[c.ID] = c
	}
	w.suites[path] = l
	return l, nil
}

// trialWorker is River's worker of trial jobs.
type trialWorker struct {
	river.WorkerDefaults[TrialArgs]
	w *Worker
}

// Timeout is how long a trial's job may run: RescueAfter, the time after
// which River's rescuer takes its worker for dead (a job without a timeout
// is never rescued). The trial's own timeouts (its conversation's, its
// judging's) come first.
func (tw *trialWorker) Timeout(*river.Job[TrialArgs]) time.Duration { return tw.w.cfg.RescueAfter }

// Work runs one trial, saves it and settles it; the last trial of a run
// finishes the run.
func (tw *trialWorker) Work(ctx context.Context, job *river.Job[TrialArgs]) error {
	w, q, a := tw.w, tw.w.q, job.Args
	p, done, err := planOf(ctx, q.db, a.Run, a.Case, a.N)
	if err != nil || p.finished {
		return err
	}
	if done {
		// Done before, by a worker that died before River knew.
		return w.finishIfLast(ctx, a.Run, p, nil)
	}
	l, err := w.suite(a.Suite, a.Digest)
	cs, b := l.cases[a.Case], l.b
	if err == nil && cs == nil {
		err = &RefusedError{fmt.Sprintf("the suite %s here has no case %s", a.Suite, a.Case)}
	}
	if err != nil {
		return w.refuse(job, err)
	}
	if why := p.Budget.Exceeded(p.spent); why != "" {
		after, err := q.settle(ctx, a.Run, a.Case, a.N, settlement{skipped: gavel.StopBudget, reason: why})
		if err != nil {
			return err
		}
		return w.finishIfLast(ctx, a.Run, after, l.cases)
	}
	beating := w.heartbeat(a.Run)
	t := runner.RunTrial(telemetry.FromCarrier(ctx, a.Trace), b.Suite, cs, a.N, runner.Config{Timeout: p.Timeout, FollowUps: b.FollowUps})
	close(beating)
	switch {
	case errors.Is(ctx.Err(), context.DeadlineExceeded):
		// River's timeout of the job, not the trial's own: what was cut
		// short is not the trial's result.
		return fmt.Errorf("%s trial %d of run %s outlasted the worker's rescue-after (%v): make it longer than twice the run's trial timeout (%v)",
			a.Case, a.N, a.Run, w.cfg.RescueAfter, p.Timeout)
	case ctx.Err() != nil:
		// The worker is stopping: the trial goes back to the queue, for
		// another worker, without counting as an attempt.
		return river.JobSnooze(0)
	}
	return w.save(ctx, a, t, l.cases)
}

// save saves a trial, settles it, and finishes the run if it was its
// last; cases are its suite's by id, or nil (see finish).
func (w *Worker) save(ctx context.Context, a TrialArgs, t gavel.Trial, cases map[string]*gavel.Case) error {
	ctx = context.WithoutCancel(ctx) // what ran is kept, whatever stops the worker now
	if err := w.q.st.SaveTrial(ctx, a.Run, store.TrialRecord{CaseKey: a.CaseKey, Trial: t}); err != nil {
		return fmt.Errorf("queue: save %s trial %d of run %s: %w", a.Case, a.N, a.Run, err)
	}
	after, err := w.q.settle(ctx, a.Run, a.Case, a.N, settlement{spent: t.Usage.Total()})
	if err != nil {
		return err
	}
	return w.finishIfLast(ctx, a.Run, after, cases)
}

// refuse says why the worker cannot run a job, and returns the error
// River retries it for; after its last attempt, River gives up on the job
// and the trial is saved as an ERROR that says why (see sweep), so that
// the run can finish.
func (w *Worker) refuse(job *river.Job[TrialArgs], err error) error {
	a := job.Args
	then := "it goes back to the queue, for another worker"
	if job.Attempt >= job.MaxAttempts {
		then = "it was the last attempt: the trial is saved as an ERROR"
	}
	fmt.Fprintf(w.cfg.Log, "gavel worker: refusing %s trial %d of run %s (attempt %d of %d): %v; %s\n",
		a.Case, a.N, a.Run, job.Attempt, job.MaxAttempts, err, then)
	return err
}

// built returns the cases by id of the suite at path if the worker built
// it with digest, else nil.
func (w *Worker) built(path, digest string) map[string]*gavel.Case {
	w.mu.Lock()
	defer w.mu.Unlock()
	if l, ok := w.suites[path]; ok && l.digest == digest {
		return l.cases
	}
	return nil
}

// finishIfLast finishes the run when p says every trial is settled and
// nobody finished it yet; cases are its suite's by id, or nil (see
// finish).
func (w *Worker) finishIfLast(ctx context.Context, run string, p planned, cases map[string]*gavel.Case) error {
	if p.finished || p.settled < p.total {
		return nil
	}
	status, err := w.q.finish(ctx, run, p, cases)
	if err != nil {
		return err
	}
	fmt.Fprintf(w.cfg.Log, "gavel worker: run %s finished: %s\n", run, status)
	return nil
}

// heartbeat records that run is alive every store.HeartbeatInterval until
// the channel it returns is closed.
func (w *Worker) heartbeat(run string) chan struct{} {
	done := make(chan struct{})
	go func() {
		tick := time.NewTicker(store.HeartbeatInterval)
		defer tick.Stop()
		for {
			select {
			case <-tick.C:
				ctx, cancel := context.WithTimeout(context.Background(), store.HeartbeatInterval)
				_ = w.q.st.Heartbeat(ctx, run)
				cancel()
			case <-done:
				return
			}
		}
	}()
	return done
}
