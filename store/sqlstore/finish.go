package sqlstore

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/gavelhq/gavel"
	"github.com/gavelhq/gavel/store"
)

// FinishRun records how a run ended: its status and end (now when zero),
// its cases in suite order with their outcomes, skip reasons and what
// reports show of them, and its statistics, which become the run's
// summary: the pass rate, trials, cost and cases by outcome on the run's
// row, and its per-criterion numbers in run_criteria, so that listing runs
// and trends never read trials.
//
// Trials of f.Run that were not saved are saved. With no f.Run, the run's
// saved trials are what it ran: its statistics are computed from them
// (this is how a run left running by a crash is closed).
// FinishRun may be called again, for instance after more trials were
// saved: the last call wins.
func (db *DB) FinishRun(ctx context.Context, runID string, f store.RunEnd) error {
	if err := db.finishRun(ctx, runID, f); err != nil {
		return fmt.Errorf("store: finish run %s: %w", runID, err)
	}
	return nil
}

func (db *DB) finishRun(ctx context.Context, runID string, f store.RunEnd) error {
	switch f.Status {
	case store.Passed, store.Failed, store.Interrupted, store.Errored:
	default:
		return fmt.Errorf("status %q is not one of passed, failed, interrupted, errored", f.Status)
	}
	ended := f.Ended
	if ended.IsZero() {
		ended = db.now()
	}
	run := f.Run
	if run == nil {
		stored, err := db.loadRun(ctx, runID)
		if err != nil {
			return err
		}
		run = stored.Run
	}
	stats := run.Stats()
	statsJSON, err := json.Marshal(stats)
	if err != nil {
		return fmt.Errorf("stats: %w", err)
	}
	cases, missing, err := db.finishedCases(ctx, runID, run)
	if err != nil {
		return err
	}
	total := stats.Usage.Total()
	return db.write(ctx, func(tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, db.q(`UPDATE runs SET status = ?, ended_us = ?, duration_ns = ?, interrupted = ?,
			pass_rate = ?, trials = ?, cost_usd = ?, input_tokens = ?, output_tokens = ?,
			cases_pass = ?, cases_fail = ?, cases_error = ?, cases_flaky = ?, cases_skipped = ?, stats = ?
			WHERE id = ?`),
			string(f.Status), micros(normalTime(ended)), int64(run.Duration), boolInt(run.Interrupted || f.Status == store.Interrupted),
			stats.PassRate, stats.Trials, total.CostUSD, total.InputTokens, total.OutputTokens,
			stats.Cases[gavel.Passed], stats.Cases[gavel.Failed], stats.Cases[gavel.Errored], stats.Cases[gavel.Flaky], stats.Cases[gavel.Skipped],
			string(statsJSON), runID)
		if err != nil {
			return err
		}
		if n, err := res.RowsAffected(); err != nil {
			return err
		} else if n == 0 {
			return notFound("no such run")
		}
		for _, row := range missing {
			if err := db.saveTrial(ctx, tx, runID, row); err != nil {
				return fmt.Errorf("save trial %s#%d: %w", row.t.CaseID, row.t.N, err)
			}
		}
		for i, c := range cases {
			if err := db.saveCaseResult(ctx, tx, runID, i+1, c); err != nil {
				return fmt.Errorf("case %s: %w", c.id, err)
			}
		}
		return db.saveCriteria(ctx, tx, runID, stats.Criteria)
	})
}

// A caseResult is a case's outcome and what reports show of it.
type caseResult struct {
	id                      string
	outcome                 gavel.Outcome
	skipReason              string
	snapshot                bool // the fields below are set
	name, description       string
	tags                    []string
	source, input, expected string
}

// finishedCases returns the cases of a run to record, and its trials
// that were not saved, compressed.
func (db *DB) finishedCases(ctx context.Context, runID string, run *gavel.Run) ([]caseResult, []trialRow, error) {
	saved, err := db.savedTrials(ctx, runID)
	if err != nil {
		return nil, nil, err
	}
	var cases []caseResult
	var missing []trialRow
	for i := range run.Cases {
		c := &run.Cases[i]
		r := caseResult{id: c.ID(), outcome: c.Outcome, skipReason: c.SkipReason}
		if r.id == "" {
			return nil, nil, fmt.Errorf("case result %d has no case id", i+1)
		}
		if c.Case != nil {
			r.snapshot, r.tags = true, nonEmpty(c.Case.Tags)
			r.name, r.description, r.source = c.Case.Name, c.Case.Description, c.Case.Source
			r.input, r.expected = c.Case.Input(), c.Case.Expected
		}
		cases = append(cases, r)
		for _, t := range c.Trials {
			if t.CaseID == "" {
				t.CaseID = r.id
			}
			if saved[trialKey{t.CaseID, t.N}] {
				continue
			}
			row, err := newTrialRow(store.TrialRecord{Trial: t})
			if err != nil {
				return nil, nil, fmt.Errorf("case %s: %w", r.id, err)
			}
			missing = append(missing, row)
		}
	}
	return cases, missing, nil
}

type trialKey struct {
	caseID string
	n      int
}

// savedTrials returns which trials of a run are saved.
func (db *DB) savedTrials(ctx context.Context, runID string) (map[trialKey]bool, error) {
	rows, err := db.sql.QueryContext(ctx, db.q("SELECT case_id, n FROM trials WHERE run_id = ?"), runID)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	saved := map[trialKey]bool{}
	for rows.Next() {
		var k trialKey
		if err := rows.Scan(&k.caseID, &k.n); err != nil {
			return nil, err
		}
		saved[k] = true
	}
	return saved, rows.Err()
}

// saveCaseResult records a case's place in its run's suite order, its
// outcome and, when the result has its Case, what reports show of it.
func (db *DB) saveCaseResult(ctx context.Context, tx *sql.Tx, runID string, position int, c caseResult) error {
	if !c.snapshot {
		_, err := tx.ExecContext(ctx, db.q(`INSERT INTO run_cases (run_id, case_id, position, outcome, skip_reason) VALUES (?, ?, ?, ?, ?)
			ON CONFLICT (run_id, case_id) DO UPDATE SET position = excluded.position, outcome = excluded.outcome, skip_reason = excluded.skip_reason`),
			runID, c.id, position, string(c.outcome), c.skipReason)
		return err
	}
	tags, err := json.Marshal(c.tags)
	if err != nil {
		return fmt.Errorf("tags: %w", err)
	}
	_, err = tx.ExecContext(ctx, db.q(`INSERT INTO run_cases (run_id, case_id, position, outcome, skip_reason,
			snapshot, name, description, tags, source, input, expected)
		VALUES (?, ?, ?, ?, ?, 1, ?, ?, ?, ?, ?, ?)
		ON CONFLICT (run_id, case_id) DO UPDATE SET position = excluded.position, outcome = excluded.outcome,
			skip_reason = excluded.skip_reason, snapshot = 1, name = excluded.name, description = excluded.description,
			tags = excluded.tags, source = excluded.source, input = excluded.input, expected = excluded.expected`),
		runID, c.id, position, string(c.outcome), c.skipReason, c.name, c.description, string(tags), c.source, c.input, c.expected)
	return err
}

// saveCriteria replaces a run's per-criterion numbers.
func (db *DB) saveCriteria(ctx context.Context, tx *sql.Tx, runID string, criteria []gavel.CriterionStat) error {
	if _, err := tx.ExecContext(ctx, db.q("DELETE FROM run_criteria WHERE run_id = ?"), runID); err != nil {
		return err
	}
	if len(criteria) == 0 {
		return nil
	}
	values := make([]string, len(criteria))
	args := make([]any, 0, 5*len(criteria))
	for i, c := range criteria {
		values[i] = "(?, ?, ?, ?, ?)"
		args = append(args, runID, c.Name, c.Mean, c.Min, c.Count)
	}
	_, err := tx.ExecContext(ctx, db.q("INSERT INTO run_criteria (run_id, criterion, mean, lowest, scores) VALUES "+strings.Join(values, ", ")), args...)
	return err
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}
