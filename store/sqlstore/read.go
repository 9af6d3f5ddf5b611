package sqlstore

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/gavelhq/gavel"
	"github.com/gavelhq/gavel/conversation"
	"github.com/gavelhq/gavel/store"
)

// Run returns a run whole: its info and every case result with its
// trials, in suite order. Each result's Case holds what reports show: id,
// name, description, tags, source, expectations, and the input as a
// one-round script (Case.Input returns it).
//
// A run that never finished (a crash) has its saved trials, by case in
// the order the cases' first trials were saved, with outcomes and the
// table of models computed from them; its cases' names, tags and sources
// come from the case versions the trials ran, and their inputs from the
// transcripts' goals.
func (db *DB) Run(ctx context.Context, id string) (*store.StoredRun, error) {
	out, err := db.loadRun(ctx, id, trialColumns)
	if err != nil {
		return nil, fmt.Errorf("store: run %s: %w", id, err)
	}
	return out, nil
}

// RunVerdicts is Run without the transcripts, which it never reads: a
// conversation is usually the bulk of a trial, and decompressing and
// decoding it the bulk of reading one. With BenchmarkStore's 1,000 short
// trials (four turns each) it takes 45 ms to Run's 77. The cases of a
// run that never finished have no input: Run takes theirs from the
// transcripts.
func (db *DB) RunVerdicts(ctx context.Context, id string) (*store.StoredRun, error) {
	out, err := db.loadRun(ctx, id, verdictColumns)
	if err != nil {
		return nil, fmt.Errorf("store: run %s: %w", id, err)
	}
	return out, nil
}

// loadRun reads a run, its trials' columns (trialColumns or
// verdictColumns) saying whether with their transcripts.
func (db *DB) loadRun(ctx context.Context, id, columns string) (*store.StoredRun, error) {
	var out *store.StoredRun
	err := db.read(ctx, func(tx *sql.Tx) error {
		info, err := db.runInfo(ctx, tx, id)
		if err != nil {
			return err
		}
		var duration int64
		if err := tx.QueryRowContext(ctx, db.q("SELECT duration_ns FROM runs WHERE id = ?"), id).Scan(&duration); err != nil {
			return err
		}
		trials, keys, err := db.trials(ctx, tx, columns, "run_id = ? ORDER BY case_id, n", id)
		if err != nil {
			return err
		}
		cases, err := db.runCases(ctx, tx, id)
		if err != nil {
			return err
		}
		versions, err := db.caseVersions(ctx, tx, cases, keys)
		if err != nil {
			return err
		}
		digests, err := db.digests(ctx, tx, keys)
		if err != nil {
			return err
		}
		run := &gavel.Run{
			Suite:    &gavel.Suite{Name: info.Suite, File: info.SuiteFile, Threshold: info.Threshold, Gate: info.GateConfig(), Flaky: info.FlakyConfig(), Models: info.Models},
			Started:  info.Started,
			Duration: time.Duration(duration),
			Models:   info.Stats.Models,
		}
		run.Stopped, run.StopReason = info.Stopped, info.StopReason
		switch info.Status {
		case store.Abandoned:
			// Its process is gone before every trial ran: what it saved
			// never passes, whatever its pass rate.
			run.Stopped, run.StopReason = gavel.StopInterrupted, "abandoned: the process that ran it is gone"
		case store.Running:
			run.Stopped, run.StopReason = gavel.StopRunning, "still running: these are the trials saved so far"
		}
		if run.Duration == 0 && !info.Ended.IsZero() {
			run.Duration = info.Ended.Sub(info.Started)
		}
		for _, c := range cases {
			r := c.result(trials[c.id], versions[keys[c.id]])
			r.Definition = digests[keys[c.id]]
			run.Suite.Cases = append(run.Suite.Cases, r.Case)
			run.Cases = append(run.Cases, r)
		}
		if run.Models == nil {
			// Not finished (a crash), so no FinishRun summed the table of
			// models: it is the trials' sum, as the runner makes it.
			run.Models = run.ModelUsage()
		}
		out = &store.StoredRun{Info: info, Run: run}
		return nil
	})
	return out, err
}

// RunCase returns one case of a run as Run would give it, and the ids of
// the cases around it. It reads the run's info, the case's row, the ids
// of the run's cases up to the next one (a short row each), and the
// case's trials by their primary key: it decompresses one case's trials,
// whatever the size of the run.
func (db *DB) RunCase(ctx context.Context, runID, caseID string) (*store.StoredCase, error) {
	var out *store.StoredCase
	err := db.read(ctx, func(tx *sql.Tx) error {
		info, err := db.runInfo(ctx, tx, runID)
		if err != nil {
			return err
		}
		c, err := db.runCase(ctx, tx, runID, caseID)
		if err != nil {
			return err
		}
		prev, next, err := db.neighbours(ctx, tx, runID, caseID)
		if err != nil {
			return err
		}
		trials, keys, err := db.trials(ctx, tx, trialColumns, "run_id = ? AND case_id = ? ORDER BY n", runID, caseID)
		if err != nil {
			return err
		}
		versions, err := db.caseVersions(ctx, tx, []caseResult{c}, keys)
		if err != nil {
			return err
		}
		digests, err := db.digests(ctx, tx, keys)
		if err != nil {
			return err
		}
		out = &store.StoredCase{Info: info, Result: c.result(trials[c.id], versions[keys[c.id]]), Prev: prev, Next: next}
		out.Result.Definition = digests[keys[c.id]]
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("store: run %s, case %s: %w", runID, caseID, err)
	}
	return out, nil
}

// trials returns the trials of a query of columns (trialColumns or
// verdictColumns) with a where clause, by case id, in the order the
// clause gives, and the case version each case ran (the first one its
// trials name).
func (db *DB) trials(ctx context.Context, tx *sql.Tx, columns, where string, args ...any) (map[string][]gavel.Trial, map[string]int64, error) {
	rows, err := tx.QueryContext(ctx, db.q("SELECT "+columns+" FROM trials WHERE "+where), args...)
	if err != nil {
		return nil, nil, err
	}
	defer rows.Close()
	trials := map[string][]gavel.Trial{}
	keys := map[string]int64{}
	for rows.Next() {
		t, key, err := scanTrial(rows)
		if err != nil {
			return nil, nil, err
		}
		trials[t.CaseID] = append(trials[t.CaseID], t)
		if keys[t.CaseID] == 0 {
			keys[t.CaseID] = key
		}
	}
	return trials, keys, rows.Err()
}

// runCaseColumns are the columns of run_cases scanRunCase reads, and
// caseOrder orders a run's cases: by their places in the suite's order,
// those of a run that never finished (no place) by when their first
// trials were saved.
const (
	runCaseColumns = "case_id, outcome, skip_reason, snapshot, name, description, tags, source, input, expected, critical, quarantined"
	caseOrder      = "position IS NULL, position, seq"
)

// runCases returns a run's cases in order.
func (db *DB) runCases(ctx context.Context, tx *sql.Tx, runID string) ([]caseResult, error) {
	rows, err := tx.QueryContext(ctx, db.q("SELECT "+runCaseColumns+" FROM run_cases WHERE run_id = ? ORDER BY "+caseOrder), runID)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []caseResult
	for rows.Next() {
		c, err := scanRunCase(rows)
		if err != nil {
			return nil, err
		}
		out = append(out, c)
	}
	return out, rows.Err()
}

// runCase returns one case of a run; ErrNotFound when the run has no
// such case.
func (db *DB) runCase(ctx context.Context, tx *sql.Tx, runID, caseID string) (caseResult, error) {
	c, err := scanRunCase(tx.QueryRowContext(ctx, db.q("SELECT "+runCaseColumns+" FROM run_cases WHERE run_id = ? AND case_id = ?"), runID, caseID))
	if errors.Is(err, sql.ErrNoRows) {
		return caseResult{}, notFound("no such case")
	}
	return c, err
}

// neighbours returns the ids of the cases before and after a case in its
// run's order, "" at either end. It reads the run's case ids in order (a
// short row each) up to the one after the case: a window function (LAG,
// LEAD) over the run's cases took SQLite four times as long (3.3 against
// 0.8 ms for 1,000 cases).
func (db *DB) neighbours(ctx context.Context, tx *sql.Tx, runID, caseID string) (prev, next string, err error) {
	rows, err := tx.QueryContext(ctx, db.q("SELECT case_id FROM run_cases WHERE run_id = ? ORDER BY "+caseOrder), runID)
	if err != nil {
		return "", "", err
	}
	defer rows.Close()
	var last string
	found := false
	for rows.Next() {
		var id string
		if err := rows.Scan(&id); err != nil {
			return "", "", err
		}
		if found {
			return prev, id, nil
		}
		if id == caseID {
			prev, found = last, true
		}
		last = id
	}
	return prev, "", rows.Err()
}

// scanRunCase scans the runCaseColumns.
func scanRunCase(row interface{ Scan(...any) error }) (caseResult, error) {
	var c caseResult
	var outcome, tags string
	var snapshot, critical int
	if err := row.Scan(&c.id, &outcome, &c.skipReason, &snapshot, &c.name, &c.description, &tags, &c.source, &c.input, &c.expected, &critical, &c.quarantined); err != nil {
		return caseResult{}, err
	}
	c.critical = critical != 0
	if err := json.Unmarshal([]byte(tags), &c.tags); err != nil {
		return caseResult{}, fmt.Errorf("case %s: tags: %w", c.id, err)
	}
	c.outcome, c.snapshot = gavel.Outcome(outcome), snapshot != 0
	return c, nil
}

// result returns the stored result of a case, of its trials and the
// version they ran: its Case rebuilt, and its outcome computed from the
// trials when none was recorded (a run that never finished).
func (c caseResult) result(trials []gavel.Trial, v store.CaseVersion) gavel.CaseResult {
	r := gavel.CaseResult{Case: c.rebuild(trials, v), Trials: trials, Outcome: c.outcome, SkipReason: c.skipReason, Quarantined: c.quarantined}
	if r.Outcome == "" {
		r.Summarize()
	}
	return r
}

// caseVersions returns the versions the cases without a snapshot ran, by
// key.
func (db *DB) caseVersions(ctx context.Context, tx *sql.Tx, cases []caseResult, keys map[string]int64) (map[int64]store.CaseVersion, error) {
	var args []any
	for _, c := range cases {
		if !c.snapshot && keys[c.id] != 0 {
			args = append(args, keys[c.id])
		}
	}
	if len(args) == 0 {
		return nil, nil
	}
	rows, err := tx.QueryContext(ctx, db.q("SELECT "+caseColumns+" FROM case_versions WHERE id IN ("+placeholders(len(args))+")"), args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := map[int64]store.CaseVersion{}
	for rows.Next() {
		v, err := scanCase(rows)
		if err != nil {
			return nil, err
		}
		out[v.Key] = v
	}
	return out, rows.Err()
}

// digests returns the digests of the case versions of keys (a case id's
// version key, as trials returns them), by key: what
// gavel.CaseResult.Definition holds, so that a comparison can tell a case
// whose definition changed.
func (db *DB) digests(ctx context.Context, tx *sql.Tx, keys map[string]int64) (map[int64]string, error) {
	var all []any
	for _, k := range keys {
		if k != 0 {
			all = append(all, k)
		}
	}
	out := map[int64]string{}
	for len(all) > 0 {
		batch := all[:min(maxRows, len(all))]
		all = all[len(batch):]
		rows, err := tx.QueryContext(ctx, db.q("SELECT id, digest FROM case_versions WHERE id IN ("+placeholders(len(batch))+")"), batch...)
		if err != nil {
			return nil, err
		}
		for rows.Next() {
			var key int64
			var digest string
			if err := rows.Scan(&key, &digest); err != nil {
				rows.Close()
				return nil, err
			}
			out[key] = digest
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// rebuild returns the Case of a stored result: from its snapshot, or,
// for a run that never finished, from the version its trials ran and
// their transcripts.
func (c caseResult) rebuild(trials []gavel.Trial, v store.CaseVersion) *gavel.Case {
	out := &gavel.Case{ID: c.id}
	input := c.input
	if c.snapshot {
		out.Name, out.Description, out.Source, out.Expected = c.name, c.description, c.source, c.expected
		out.Critical = c.critical
		out.Tags = nonEmpty(c.tags)
	} else {
		out.Name, out.Tags, out.Source = v.Name, v.Tags, v.Source
		for _, t := range trials {
			if t.Transcript != nil && t.Transcript.Goal != "" {
				input = t.Transcript.Goal
				break
			}
		}
	}
	if input != "" {
		out.Script = conversation.Script{Rounds: []conversation.Round{{Prompt: input}}}
	}
	return out
}
