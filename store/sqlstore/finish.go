package sqlstore

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"time"

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
	case store.Passed, store.Failed, store.Incomplete, store.Errored:
	default:
		return fmt.Errorf("status %q is not one of passed, failed, incomplete, errored", f.Status)
	}
	ended := f.Ended
	if ended.IsZero() {
		ended = db.now()
	}
	run := f.Run
	if run == nil {
		stored, err := db.loadRun(ctx, runID, trialColumns)
		if err != nil {
			return err
		}
		run = stored.Run
		if run.Stopped == gavel.StopRunning {
			// Read as still running: now that it ends, what stopped it
			// (if anything) is what f says.
			run.Stopped, run.StopReason = "", ""
		}
	}
	saved, err := db.savedTrials(ctx, runID)
	if err != nil {
		return err
	}
	e, err := newRunEnd(f.Status, ended, run, saved)
	if err != nil {
		return err
	}
	return db.write(ctx, func(tx *sql.Tx) error { return db.writeEnd(ctx, tx, runID, e) })
}

// A runEnd is how a run ended, ready to be written: its summary, its
// cases, and its trials not saved yet, compressed.
type runEnd struct {
	status    store.Status
	ended     time.Time
	run       *gavel.Run
	stats     gavel.Stats
	statsJSON string
	cases     []caseResult
	missing   []trialRow
	stopped   gavel.StopCause
	reason    string
}

// newRunEnd prepares the end of a run whose trials saved are saved.
func newRunEnd(status store.Status, ended time.Time, run *gavel.Run, saved map[trialKey]bool) (runEnd, error) {
	stats := run.Stats()
	statsJSON, err := json.Marshal(stats)
	if err != nil {
		return runEnd{}, fmt.Errorf("stats: %w", err)
	}
	cases, missing, err := finishedCases(run, saved)
	if err != nil {
		return runEnd{}, err
	}
	e := runEnd{status: status, ended: ended, run: run, stats: stats, statsJSON: string(statsJSON),
		cases: cases, missing: missing, stopped: run.Stopped, reason: run.StopReason}
	if e.stopped == "" && status == store.Incomplete {
		e.stopped, e.reason = gavel.StopInterrupted, "the run was interrupted"
	}
	return e, nil
}

// writeEnd writes a run's end in tx.
func (db *DB) writeEnd(ctx context.Context, tx *sql.Tx, runID string, e runEnd) error {
	stats := e.stats
	total := stats.Usage.Total()
	res, err := tx.ExecContext(ctx, db.q(`UPDATE runs SET status = ?, ended_us = ?, duration_ns = ?, interrupted = ?,
		stopped = ?, stop_reason = ?, pass_rate = ?, pass_rate_unknown = ?, trials = ?, cost_usd = ?, cost_unpriced = ?, cost_unreported = ?, input_tokens = ?, output_tokens = ?,
		cases_pass = ?, cases_fail = ?, cases_error = ?, cases_flaky = ?, cases_skipped = ?, stats = ?
		WHERE id = ?`),
		string(e.status), micros(normalTime(e.ended)), int64(e.run.Duration), boolInt(e.stopped != ""),
		string(e.stopped), e.reason,
		passRate(stats), boolInt(stats.PassRate == nil), stats.Trials, total.CostUSD, boolInt(total.Unpriced), boolInt(total.Unreported), total.InputTokens, total.OutputTokens,
		stats.Cases[gavel.Passed], stats.Cases[gavel.Failed], stats.Cases[gavel.Errored], stats.Cases[gavel.Flaky], stats.Cases[gavel.Skipped],
		e.statsJSON, runID)
	if err != nil {
		return err
	}
	if n, err := res.RowsAffected(); err != nil {
		return err
	} else if n == 0 {
		return notFound("no such run")
	}
	st := db.stmts(tx)
	for _, row := range e.missing {
		if err := db.saveTrial(ctx, st, runID, row); err != nil {
			return fmt.Errorf("save trial %s#%d: %w", row.t.CaseID, row.t.N, err)
		}
	}
	if err := db.saveCaseResults(ctx, tx, runID, e.cases); err != nil {
		return err
	}
	return db.saveCriteria(ctx, tx, runID, stats.Criteria)
}

// A caseResult is a case's outcome and what reports show of it.
type caseResult struct {
	id                      string
	position                int // in the suite's order, from 1; 0 when read
	outcome                 gavel.Outcome
	skipReason              string
	quarantined             string // why the run left it out of its gate
	snapshot                bool   // the fields below are set
	critical                bool
	name, description       string
	tags                    []string
	source, input, expected string
}

// finishedCases returns the cases of a run to record, and its trials
// that were not saved, compressed. A case id that comes twice is
// recorded once, as its last result, in that result's place.
func finishedCases(run *gavel.Run, saved map[trialKey]bool) ([]caseResult, []trialRow, error) {
	var cases []caseResult
	index := map[string]int{} // where each case id is in cases
	var missing []trialRow
	for i := range run.Cases {
		c := &run.Cases[i]
		r := caseResult{id: c.ID(), position: i + 1, outcome: c.Outcome, skipReason: c.SkipReason, quarantined: c.Quarantined}
		if r.id == "" {
			return nil, nil, fmt.Errorf("case result %d has no case id", i+1)
		}
		if c.Case != nil {
			r.snapshot, r.tags = true, nonEmpty(c.Case.Tags)
			r.name, r.description, r.source = c.Case.Name, c.Case.Description, c.Case.Source
			r.input, r.expected = c.Case.Input(), c.Case.Expected
			r.critical = c.Case.Critical
		}
		if j, seen := index[r.id]; seen {
			cases[j] = r
		} else {
			index[r.id] = len(cases)
			cases = append(cases, r)
		}
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

// Statements that record a run's cases (saveCaseResults), many rows
// each: a case's place in the suite's order, its outcome and skip
// reason, and, for a result with its Case, what reports show of it.
var (
	upsertOutcomes = insert{
		Head: "INSERT INTO run_cases (run_id, case_id, position, outcome, skip_reason, quarantined) VALUES",
		Tail: `ON CONFLICT (run_id, case_id) DO UPDATE SET position = excluded.position, outcome = excluded.outcome,
			skip_reason = excluded.skip_reason, quarantined = excluded.quarantined`,
	}
	upsertSnapshots = insert{
		Head: `INSERT INTO run_cases (run_id, case_id, position, outcome, skip_reason, quarantined,
			snapshot, name, description, tags, source, input, expected, critical) VALUES`,
		Tail: `ON CONFLICT (run_id, case_id) DO UPDATE SET position = excluded.position, outcome = excluded.outcome,
			skip_reason = excluded.skip_reason, quarantined = excluded.quarantined, snapshot = excluded.snapshot, name = excluded.name,
			description = excluded.description, tags = excluded.tags, source = excluded.source,
			input = excluded.input, expected = excluded.expected, critical = excluded.critical`,
	}
)

// saveCaseResults records the cases' places in their run's suite order,
// their outcomes and, for the results with their Case, what reports show
// of them: maxRows cases a statement. One statement a case made a suite
// of 1,000 cases a thousand round trips, holding SQLite's one write lock
// meanwhile: FinishRun of 1,000 cases (BenchmarkStore in store/sqlite and
// store/postgres) took 23-25 ms on SQLite and 110-140 ms on PostgreSQL,
// and takes 8 and 16-22 ms now. A statement prepared in the transaction
// and run for each case did as well on SQLite (7 ms), which is in
// process, but not on PostgreSQL (110-150 ms): a round trip a row.
func (db *DB) saveCaseResults(ctx context.Context, tx *sql.Tx, runID string, cases []caseResult) error {
	var outcomes, snapshots [][]any
	for _, c := range cases {
		if !c.snapshot {
			outcomes = append(outcomes, []any{runID, c.id, c.position, string(c.outcome), c.skipReason, c.quarantined})
			continue
		}
		tags, err := json.Marshal(c.tags)
		if err != nil {
			return fmt.Errorf("case %s: tags: %w", c.id, err)
		}
		snapshots = append(snapshots, []any{runID, c.id, c.position, string(c.outcome), c.skipReason, c.quarantined,
			1, c.name, c.description, string(tags), c.source, c.input, c.expected, boolInt(c.critical)})
	}
	if err := db.insertRows(ctx, tx, upsertOutcomes, outcomes); err != nil {
		return fmt.Errorf("cases: %w", err)
	}
	if err := db.insertRows(ctx, tx, upsertSnapshots, snapshots); err != nil {
		return fmt.Errorf("cases: %w", err)
	}
	return nil
}

// insertCriteria writes a run's per-criterion numbers.
var insertCriteria = insert{Head: "INSERT INTO run_criteria (run_id, criterion, mean, lowest, scores) VALUES"}

// saveCriteria replaces a run's per-criterion numbers.
func (db *DB) saveCriteria(ctx context.Context, tx *sql.Tx, runID string, criteria []gavel.CriterionStat) error {
	if _, err := tx.ExecContext(ctx, db.q("DELETE FROM run_criteria WHERE run_id = ?"), runID); err != nil {
		return err
	}
	rows := make([][]any, len(criteria))
	for i, c := range criteria {
		rows[i] = []any{runID, c.Name, c.Mean, c.Min, c.Count}
	}
	return db.insertRows(ctx, tx, insertCriteria, rows)
}

// passRate is a run's pass rate as its row keeps it: 0 when it has none,
// which pass_rate_unknown then says.
func passRate(s gavel.Stats) float64 {
	if s.PassRate == nil {
		return 0
	}
	return *s.PassRate
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}
