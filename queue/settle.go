package queue

import (
	"cmp"
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/gavelhq/gavel"
	"github.com/gavelhq/gavel/judge"
	"github.com/gavelhq/gavel/store"
)

// A planned run is a run's row of gavel_queue_runs: its plan, how many
// of its trials are settled, what they spent, and what stopped it.
type planned struct {
	Plan           // without its Cases but in finish
	total, settled int
	spent          judge.Usage
	stopped        gavel.StopCause
	reason         string
	finished       bool
}

// querier is a *sql.DB or a *sql.Tx.
type querier interface {
	QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row
}

// planColumns are what planOf reads of gavel_queue_runs, but the cases:
// a run's row without its plan's cases is small, and read by every job.
const planColumns = `suite, digest, timeout_ns, max_cost_usd, max_tokens, total, settled,
	input_tokens, output_tokens, cost_usd, unpriced, stopped, stop_reason, finished`

// scanPlan scans planColumns, and then more.
func scanPlan(row interface{ Scan(...any) error }, more ...any) (planned, error) {
	var p planned
	var timeout int64
	var stopped string
	err := row.Scan(append([]any{&p.Suite, &p.Digest, &timeout, &p.Budget.MaxCostUSD, &p.Budget.MaxTokens,
		&p.total, &p.settled, &p.spent.InputTokens, &p.spent.OutputTokens, &p.spent.CostUSD, &p.spent.Unpriced,
		&stopped, &p.reason, &p.finished}, more...)...)
	p.Timeout, p.stopped = time.Duration(timeout), gavel.StopCause(stopped)
	return p, err
}

// planOf reads a run's plan and progress, without its cases, and whether
// trial n of case caseID is settled.
func planOf(ctx context.Context, q querier, run, caseID string, n int) (p planned, settled bool, err error) {
	p, err = scanPlan(q.QueryRowContext(ctx, `SELECT `+planColumns+`,
		EXISTS (SELECT 1 FROM gavel_queue_trials t WHERE t.run_id = r.run_id AND t.case_id = $2 AND t.n = $3)
		FROM gavel_queue_runs r WHERE run_id = $1`, run, caseID, n), &settled)
	return p, settled, planErr(run, err)
}

// planErr says what went wrong reading the plan of run.
func planErr(run string, err error) error {
	switch {
	case errors.Is(err, sql.ErrNoRows):
		return fmt.Errorf("queue: run %s was not enqueued (no plan in gavel_queue_runs)", run)
	case err != nil:
		return fmt.Errorf("queue: the plan of run %s: %w", run, err)
	}
	return nil
}

// casesOf reads the cases of a run's plan.
func (q *Queue) casesOf(ctx context.Context, run string) ([]PlannedCase, error) {
	var raw []byte
	err := q.db.QueryRowContext(ctx, "SELECT cases FROM gavel_queue_runs WHERE run_id = $1", run).Scan(&raw)
	if err := planErr(run, err); err != nil {
		return nil, err
	}
	var cases []PlannedCase
	if err := json.Unmarshal(raw, &cases); err != nil {
		return nil, fmt.Errorf("queue: the plan of run %s: %w", run, err)
	}
	return cases, nil
}

// A settlement is how a trial of a run ended for the queue: saved (its
// spend counted), or skipped (the run stopped before it started).
type settlement struct {
	spent   judge.Usage
	skipped gavel.StopCause
	reason  string
}

// settle records that trial n of case caseID of run is done with, once
// whoever does it again, and returns the run's plan and progress after it:
// the caller whose settlement makes settled reach total finishes the run.
// It is one statement: the run's row is locked while it runs, so
// settlements of one run go one at a time, and exactly one sees the last.
func (q *Queue) settle(ctx context.Context, run, caseID string, n int, s settlement) (planned, error) {
	p, err := scanPlan(q.db.QueryRowContext(ctx, `WITH added AS (
			INSERT INTO gavel_queue_trials (run_id, case_id, n, skipped) VALUES ($1, $2, $3, $4)
			ON CONFLICT DO NOTHING RETURNING 1),
		k AS (SELECT COUNT(*) AS k FROM added)
		UPDATE gavel_queue_runs SET settled = settled + k.k,
			input_tokens = `+saturated("input_tokens", "$5")+`, output_tokens = `+saturated("output_tokens", "$6")+`,
			cost_usd = cost_usd + k.k * $7::double precision, unpriced = unpriced OR (k.k > 0 AND $8::boolean),
			stopped = CASE WHEN stopped = '' AND k.k > 0 THEN $9::text ELSE stopped END,
			stop_reason = CASE WHEN stopped = '' AND k.k > 0 THEN $10::text ELSE stop_reason END
		FROM k WHERE run_id = $1
		RETURNING `+planColumns,
		run, caseID, n, s.skipped != "", s.spent.InputTokens, s.spent.OutputTokens, s.spent.CostUSD, s.spent.Unpriced,
		string(s.skipped), s.reason))
	if err := planErr(run, err); err != nil {
		return planned{}, fmt.Errorf("settle %s trial %d: %w", caseID, n, err)
	}
	return p, nil
}

// saturated is the SQL of a count column plus k.k times a parameter,
// saturating at the largest bigint as judge.Usage.Add does: past it,
// PostgreSQL refused the sum and the trial was never settled.
func saturated(column, param string) string {
	return "LEAST(" + column + "::numeric + k.k * " + param + "::numeric, 9223372036854775807)::bigint"
}

// finish ends a run whose trials are all settled, in the store: its
// cases in the plan's order with the trials saved, those the run skipped
// and why, its statistics, and its status as gavel run decides it.
// cases, if not nil, are the run's suite's by id (a worker's
// loadedSuite.cases), which the results then show whole.
func (q *Queue) finish(ctx context.Context, runID string, p planned, cases map[string]*gavel.Case) (store.Status, error) {
	stored, err := q.st.RunVerdicts(ctx, runID)
	if err != nil {
		return "", fmt.Errorf("queue: finish run %s: %w", runID, err)
	}
	if p.Cases, err = q.casesOf(ctx, runID); err != nil {
		return "", err
	}
	info := stored.Info
	got := map[string]gavel.CaseResult{}
	for _, c := range stored.Run.Cases {
		got[c.ID()] = c
	}
	run := &gavel.Run{Suite: &gavel.Suite{Name: info.Suite, File: info.SuiteFile, Threshold: info.Threshold, Gate: info.GateConfig(), Flaky: info.FlakyConfig()},
		Started: info.Started, Stopped: p.stopped, StopReason: p.reason}
	for _, pc := range p.Cases {
		cr := got[pc.ID]
		if c, ok := cases[pc.ID]; ok {
			cr.Case = c
		}
		if cr.Case == nil {
			cr.Case = &gavel.Case{ID: pc.ID}
		}
		slices.SortFunc(cr.Trials, func(a, b gavel.Trial) int { return cmp.Compare(a.N, b.N) })
		cr.Summarize()
		cr.SkipReason = ""
		if cr.Outcome == gavel.Skipped {
			cr.SkipReason = cmp.Or(p.reason, "not run")
		}
		run.Cases = append(run.Cases, cr)
	}
	if err := store.ApplyQuarantine(ctx, q.st, run, runID); err != nil {
		return "", fmt.Errorf("queue: finish run %s: the quarantined cases: %w", runID, err)
	}
	now := time.Now()
	run.Models, run.Duration = run.ModelUsage(), now.Sub(info.Started)
	status := StatusOf(run)
	if err := q.st.FinishRun(ctx, runID, store.RunEnd{Status: status, Ended: now, Run: run}); err != nil {
		return "", err
	}
	if _, err := q.db.ExecContext(ctx, "UPDATE gavel_queue_runs SET finished = true WHERE run_id = $1", runID); err != nil {
		return "", fmt.Errorf("queue: finish run %s: %w", runID, err)
	}
	return status, nil
}

// StatusOf is the status a finished run earns, as gavel run decides it:
// errored when trials ran and every one (but those cut short) was an
// ERROR because a service could not be reached; incomplete when it was
// stopped before every trial ran; failed when its gate does not pass it
// (gavel.Run.Gate); else passed.
func StatusOf(run *gavel.Run) store.Status {
	switch {
	case run.Unreachable():
		return store.Errored
	case !run.Complete():
		return store.Incomplete
	case !run.Gate().Passes:
		return store.Failed
	}
	return store.Passed
}

// Progress says how many of a run's trials are settled (run, skipped or
// given up on), of how many, and whether the run is finished.
func (q *Queue) Progress(ctx context.Context, run string) (settled, total int, finished bool, err error) {
	p, _, err := planOf(ctx, q.db, run, "", 0)
	return p.settled, p.total, p.finished, err
}
