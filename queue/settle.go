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
	"github.com/gavelhq/gavel/spec"
	"github.com/gavelhq/gavel/store"
)

// A planned run is a run's row of gavel_queue_runs: its plan, how many
// of its trials are settled, what they spent, and what stopped it.
type planned struct {
	Plan
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

// planOf reads a run's plan and progress; forUpdate locks its row until
// the transaction ends.
func planOf(ctx context.Context, q querier, run string, forUpdate bool) (planned, error) {
	query := `SELECT suite, digest, timeout_ns, max_cost_usd, max_tokens, cases, total, settled,
		input_tokens, output_tokens, cost_usd, unpriced, stopped, stop_reason, finished
		FROM gavel_queue_runs WHERE run_id = $1`
	if forUpdate {
		query += " FOR UPDATE"
	}
	var p planned
	var timeout int64
	var cases []byte
	var stopped string
	err := q.QueryRowContext(ctx, query, run).Scan(&p.Suite, &p.Digest, &timeout, &p.Budget.MaxCostUSD, &p.Budget.MaxTokens,
		&cases, &p.total, &p.settled, &p.spent.InputTokens, &p.spent.OutputTokens, &p.spent.CostUSD, &p.spent.Unpriced,
		&stopped, &p.reason, &p.finished)
	if errors.Is(err, sql.ErrNoRows) {
		return planned{}, fmt.Errorf("queue: run %s was not enqueued (no plan in gavel_queue_runs)", run)
	}
	if err != nil {
		return planned{}, fmt.Errorf("queue: the plan of run %s: %w", run, err)
	}
	p.Timeout, p.stopped = time.Duration(timeout), gavel.StopCause(stopped)
	if err := json.Unmarshal(cases, &p.Cases); err != nil {
		return planned{}, fmt.Errorf("queue: the plan of run %s: %w", run, err)
	}
	return p, nil
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
// The run's row is locked meanwhile, so settlements of one run go one at
// a time and exactly one sees the last.
func (q *Queue) settle(ctx context.Context, run, caseID string, n int, s settlement) (planned, error) {
	tx, err := q.db.BeginTx(ctx, nil)
	if err != nil {
		return planned{}, fmt.Errorf("queue: settle %s trial %d of run %s: %w", caseID, n, run, err)
	}
	defer tx.Rollback()
	p, err := planOf(ctx, tx, run, true)
	if err != nil {
		return planned{}, err
	}
	res, err := tx.ExecContext(ctx, `INSERT INTO gavel_queue_trials (run_id, case_id, n, skipped) VALUES ($1, $2, $3, $4)
		ON CONFLICT DO NOTHING`, run, caseID, n, s.skipped != "")
	if err != nil {
		return planned{}, fmt.Errorf("queue: settle %s trial %d of run %s: %w", caseID, n, run, err)
	}
	if added, err := res.RowsAffected(); err != nil || added == 0 {
		return p, err // settled before: a job done again
	}
	p.settled++
	p.spent = p.spent.Add(s.spent)
	if p.stopped == "" && s.skipped != "" {
		p.stopped, p.reason = s.skipped, s.reason
	}
	_, err = tx.ExecContext(ctx, `UPDATE gavel_queue_runs SET settled = $2, input_tokens = $3, output_tokens = $4,
		cost_usd = $5, unpriced = $6, stopped = $7, stop_reason = $8 WHERE run_id = $1`,
		run, p.settled, p.spent.InputTokens, p.spent.OutputTokens, p.spent.CostUSD, p.spent.Unpriced, string(p.stopped), p.reason)
	if err != nil {
		return planned{}, fmt.Errorf("queue: settle %s trial %d of run %s: %w", caseID, n, run, err)
	}
	if err := tx.Commit(); err != nil {
		return planned{}, fmt.Errorf("queue: settle %s trial %d of run %s: %w", caseID, n, run, err)
	}
	return p, nil
}

// settled reports whether trial n of case caseID of run is settled.
func (q *Queue) settled(ctx context.Context, run, caseID string, n int) (bool, error) {
	var one int
	err := q.db.QueryRowContext(ctx, "SELECT 1 FROM gavel_queue_trials WHERE run_id = $1 AND case_id = $2 AND n = $3",
		run, caseID, n).Scan(&one)
	if errors.Is(err, sql.ErrNoRows) {
		return false, nil
	}
	return err == nil, err
}

// finish ends a run whose trials are all settled, in the store: its
// cases in the plan's order with the trials saved, those the run skipped
// and why, its statistics, and its status as gavel run decides it. b, if
// not nil, is the run's suite, whose cases the results then show whole.
func (q *Queue) finish(ctx context.Context, runID string, p planned, b *spec.Built) (store.Status, error) {
	stored, err := q.st.RunVerdicts(ctx, runID)
	if err != nil {
		return "", fmt.Errorf("queue: finish run %s: %w", runID, err)
	}
	info := stored.Info
	got := map[string]gavel.CaseResult{}
	for _, c := range stored.Run.Cases {
		got[c.ID()] = c
	}
	run := &gavel.Run{Suite: &gavel.Suite{Name: info.Suite, File: info.SuiteFile, Threshold: info.Threshold},
		Started: info.Started, Stopped: p.stopped, StopReason: p.reason}
	for _, pc := range p.Cases {
		cr := got[pc.ID]
		if b != nil {
			if i := slices.IndexFunc(b.Suite.Cases, func(c *gavel.Case) bool { return c.ID == pc.ID }); i >= 0 {
				cr.Case = b.Suite.Cases[i]
			}
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
// stopped before every trial ran; failed when it missed its threshold;
// else passed.
func StatusOf(run *gavel.Run) store.Status {
	ran, unreachable := 0, 0
	for _, c := range run.Cases {
		for _, t := range c.Trials {
			switch t.Cause() {
			case judge.CauseCancelled:
				continue
			case judge.CauseUnreachable:
				unreachable++
			}
			ran++
		}
	}
	switch {
	case ran > 0 && unreachable == ran:
		return store.Errored
	case !run.Complete():
		return store.Incomplete
	case !run.Met():
		return store.Failed
	}
	return store.Passed
}

// Progress says how many of a run's trials are settled (run, skipped or
// given up on), of how many, and whether the run is finished.
func (q *Queue) Progress(ctx context.Context, run string) (settled, total int, finished bool, err error) {
	p, err := planOf(ctx, q.db, run, false)
	return p.settled, p.total, p.finished, err
}
