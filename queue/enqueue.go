package queue

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"time"

	"github.com/riverqueue/river"
	"github.com/riverqueue/river/riverdriver/riverdatabasesql"

	"github.com/gavelhq/gavel/runner"
	"github.com/gavelhq/gavel/store"
)

// TrialArgs are a job's: one trial of a run. A job is unique by its run,
// case and trial number.
type TrialArgs struct {
	Run  string `json:"run" river:"unique"`
	Case string `json:"case" river:"unique"`
	N    int    `json:"n" river:"unique"`
	// CaseKey is the stored version of the case's definition
	// (store.CaseVersion.Key), for SaveTrial.
	CaseKey int64 `json:"case_key,omitempty"`
	// Suite is the suite file's path, relative to the worker's working
	// directory unless absolute; Digest is its spec.Built.Digest.
	Suite  string `json:"suite"`
	Digest string `json:"digest"`
	// Trace is the trace context of the run's span (telemetry.Carrier),
	// which the trial's spans join; nil when the run is not traced.
	Trace map[string]string `json:"trace,omitempty"`
}

// Kind names the jobs of trials in River's table.
func (TrialArgs) Kind() string { return "gavel_trial" }

// queueName is the River queue of trials.
const queueName = "gavel_trials"

// A Plan is what a run enqueues: its suite, its settings and its trials.
type Plan struct {
	// Suite is the suite file as workers find it: a path relative to
	// their working directory, or absolute. Digest is its digest
	// (spec.Built.Digest).
	Suite  string
	Digest string
	// Timeout bounds each trial's conversation, and again its judging
	// (runner.Config.Timeout). Defaults to runner.DefaultTimeout.
	Timeout time.Duration
	// Budget caps the run's spend across workers: it is checked before a
	// trial starts, against what the run's settled trials spent.
	Budget runner.Budget
	// Trace is the trace context of the run's span (telemetry.Carrier),
	// given to every trial's job; nil when the run is not traced.
	Trace map[string]string
	// Cases are the selected cases in suite order, each with its number
	// of trials (runner.Config.TrialsOf) and its stored version.
	Cases []PlannedCase
}

// A PlannedCase is a case of a Plan.
type PlannedCase struct {
	ID      string `json:"id"`
	Trials  int    `json:"trials"`
	CaseKey int64  `json:"case_key,omitempty"`
}

// Trials is how many trials p has.
func (p Plan) Trials() int {
	n := 0
	for _, c := range p.Cases {
		n += c.Trials
	}
	return n
}

// Enqueue creates the run info describes in the store and enqueues its
// trials, in one transaction: the run exists with all its jobs, or not
// at all. A run should be made for the queue: its PID and Machine unset
// (no one process runs it; workers' saved trials and heartbeats keep it
// alive).
func (q *Queue) Enqueue(ctx context.Context, info store.RunInfo, p Plan) (store.RunInfo, error) {
	if p.Trials() == 0 {
		return store.RunInfo{}, fmt.Errorf("queue: the run of suite %s has no trial to enqueue", info.Suite)
	}
	return q.st.CreateRunWith(ctx, info, func(ctx context.Context, tx *sql.Tx, created store.RunInfo) error {
		return q.insert(ctx, tx, created.ID, p)
	})
}

// insert records run's plan and inserts its jobs in tx. Inserting the
// same run again changes nothing: its plan is kept, and its jobs are
// unique.
func (q *Queue) insert(ctx context.Context, tx *sql.Tx, run string, p Plan) error {
	cases, err := json.Marshal(p.Cases)
	if err != nil {
		return fmt.Errorf("queue: plan of run %s: %w", run, err)
	}
	timeout := p.Timeout
	if timeout <= 0 {
		timeout = runner.DefaultTimeout
	}
	_, err = tx.ExecContext(ctx, `INSERT INTO gavel_queue_runs (run_id, suite, digest, timeout_ns, max_cost_usd, max_tokens, cases, total)
		VALUES ($1, $2, $3, $4, $5, $6, $7, $8) ON CONFLICT (run_id) DO NOTHING`,
		run, p.Suite, p.Digest, int64(timeout), p.Budget.MaxCostUSD, p.Budget.MaxTokens, string(cases), p.Trials())
	if err != nil {
		return fmt.Errorf("queue: plan of run %s: %w", run, err)
	}
	client, err := river.NewClient(riverdatabasesql.New(q.db), q.riverConfig())
	if err != nil {
		return fmt.Errorf("queue: %w", err)
	}
	opts := &river.InsertOpts{Queue: queueName, UniqueOpts: river.UniqueOpts{ByArgs: true}}
	var jobs []river.InsertManyParams
	for _, c := range p.Cases {
		for n := 1; n <= c.Trials; n++ {
			jobs = append(jobs, river.InsertManyParams{InsertOpts: opts,
				Args: TrialArgs{Run: run, Case: c.ID, N: n, CaseKey: c.CaseKey, Suite: p.Suite, Digest: p.Digest, Trace: p.Trace}})
		}
	}
	// In batches: a statement's parameters are limited.
	for len(jobs) > 0 {
		batch := jobs[:min(len(jobs), 1000)]
		jobs = jobs[len(batch):]
		if _, err := client.InsertManyTx(ctx, tx, batch); err != nil {
			return fmt.Errorf("queue: enqueue the trials of run %s: %w", run, err)
		}
	}
	return nil
}
