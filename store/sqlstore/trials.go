package sqlstore

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/gavelhq/gavel"
	"github.com/gavelhq/gavel/judge"
	"github.com/gavelhq/gavel/store"
)

// trialColumns are the columns scanTrial reads; verdictColumns are the
// same with NULL for the transcript, which scanTrial then leaves nil,
// and the database does not read.
const (
	trialColumns   = trialNumbers + ", transcript, verdict"
	verdictColumns = trialNumbers + ", NULL, verdict"
	trialNumbers   = `case_id, n, case_key, duration_ns,
	agent_input_tokens, agent_output_tokens, agent_cached_tokens, agent_cost_usd,
	judge_input_tokens, judge_output_tokens, judge_cached_tokens, judge_cost_usd,
	user_input_tokens, user_output_tokens, user_cached_tokens, user_cost_usd,
	followup_input_tokens, followup_output_tokens, followup_cached_tokens, followup_cost_usd,
	agent_unpriced, judge_unpriced, user_unpriced, followup_unpriced,
	agent_unreported, judge_unreported, user_unreported, followup_unreported,
	agent_calls, agent_cache_hits, judge_calls, judge_cache_hits,
	user_calls, user_cache_hits, followup_calls, followup_cache_hits, models, trace_id`
)

// A trialRow is a trial ready to be written: compressed, with its
// criteria worked out, so that the write itself is short.
type trialRow struct {
	t          gavel.Trial
	caseKey    sql.NullInt64
	transcript []byte // nil when the trial has no transcript
	verdict    []byte
	score      sql.NullFloat64
	criteria   []gavel.CriterionStat
	models     string // t.Models as JSON; "" when it has none
}

func newTrialRow(r store.TrialRecord) (trialRow, error) {
	t := r.Trial
	if t.CaseID == "" || t.N < 1 {
		return trialRow{}, fmt.Errorf("a trial needs a case id and a number from 1 (got %q, %d)", t.CaseID, t.N)
	}
	row := trialRow{t: t, caseKey: sql.NullInt64{Int64: r.CaseKey, Valid: r.CaseKey != 0}}
	var err error
	if t.Transcript != nil {
		if row.transcript, err = compress(t.Transcript); err != nil {
			return trialRow{}, fmt.Errorf("transcript: %w", err)
		}
	}
	if row.verdict, err = compress(t.Verdict); err != nil {
		return trialRow{}, fmt.Errorf("verdict: %w", err)
	}
	if len(t.Models) > 0 {
		m, err := json.Marshal(t.Models)
		if err != nil {
			return trialRow{}, fmt.Errorf("models: %w", err)
		}
		row.models = string(m)
	}
	if v, ok := t.Verdict.Normalized(); ok {
		row.score = sql.NullFloat64{Float64: v, Valid: true}
	}
	// The criteria of one trial, as a run's statistics count them.
	one := gavel.Run{Cases: []gavel.CaseResult{{Trials: []gavel.Trial{t}}}}
	row.criteria = one.Stats().Criteria
	return row, nil
}

// SaveTrial records a finished trial of a run. Saving a trial again (same
// case and number) replaces it; labels on it are kept.
func (db *DB) SaveTrial(ctx context.Context, runID string, r store.TrialRecord) error {
	row, err := newTrialRow(r)
	if err != nil {
		return fmt.Errorf("store: save trial %s %s#%d: %w", runID, r.Trial.CaseID, r.Trial.N, err)
	}
	// The run's heartbeat is written last, so that its row is locked only
	// until the commit: processes saving trials of one run at once (gavel
	// worker) wait that long for each other, not through every insert.
	err = db.write(ctx, func(tx *sql.Tx) error {
		if err := db.saveTrial(ctx, tx, runID, row); err != nil {
			return err
		}
		return db.beat(ctx, tx, runID)
	})
	if err != nil {
		if missing := db.runExists(ctx, db.sql, runID); errors.Is(missing, store.ErrNotFound) {
			err = missing // why the trial's rows were refused
		}
	}
	if err != nil {
		return fmt.Errorf("store: save trial %s %s#%d: %w", runID, r.Trial.CaseID, r.Trial.N, err)
	}
	return nil
}

// SaveTrials records finished trials of a run in one transaction, as
// SaveTrial records one (store.Batcher): all or none.
func (db *DB) SaveTrials(ctx context.Context, runID string, rs []store.TrialRecord) error {
	rows := make([]trialRow, len(rs))
	for i, r := range rs {
		var err error
		if rows[i], err = newTrialRow(r); err != nil {
			return fmt.Errorf("store: save trial %s %s#%d: %w", runID, r.Trial.CaseID, r.Trial.N, err)
		}
	}
	db.prepare(ctx, trialQueries(rows)...)
	// The heartbeat is written last, as SaveTrial writes it: shards of one
	// run saving batches at once wait for each other's commits only.
	err := db.write(ctx, func(tx *sql.Tx) error {
		st := db.stmts(tx)
		for _, row := range rows {
			if err := db.saveTrial(ctx, st, runID, row); err != nil {
				return fmt.Errorf("%s#%d: %w", row.t.CaseID, row.t.N, err)
			}
		}
		return db.beat(ctx, tx, runID)
	})
	if err != nil {
		if missing := db.runExists(ctx, db.sql, runID); errors.Is(missing, store.ErrNotFound) {
			err = missing // why the trials' rows were refused
		}
		return fmt.Errorf("store: save %d trials of run %s: %w", len(rs), runID, err)
	}
	return nil
}

// Heartbeat records that a running run's process is alive now.
func (db *DB) Heartbeat(ctx context.Context, runID string) error {
	if err := db.write(ctx, func(tx *sql.Tx) error { return db.beat(ctx, tx, runID) }); err != nil {
		return fmt.Errorf("store: heartbeat of run %s: %w", runID, err)
	}
	return nil
}

// beat sets a run's heartbeat to now; an unknown run is ErrNotFound.
func (db *DB) beat(ctx context.Context, tx *sql.Tx, runID string) error {
	res, err := tx.ExecContext(ctx, db.q("UPDATE runs SET heartbeat_us = ? WHERE id = ?"), micros(db.now()), runID)
	if err != nil {
		return err
	}
	if n, err := res.RowsAffected(); err != nil {
		return err
	} else if n == 0 {
		return notFound("no such run")
	}
	return nil
}

// runExists returns an ErrNotFound unless the run is there.
func (db *DB) runExists(ctx context.Context, q querier, runID string) error {
	var one int
	err := q.QueryRowContext(ctx, db.q("SELECT 1 FROM runs WHERE id = ?"), runID).Scan(&one)
	if err == sql.ErrNoRows {
		return notFound("no such run")
	}
	return err
}

// saveTrial writes a trial, its criteria and, the first time the case
// has a trial, the case's place in the run.
func (db *DB) saveTrial(ctx context.Context, tx execer, runID string, row trialRow) error {
	t := row.t
	if _, err := tx.ExecContext(ctx, db.q(insertRunCase), runID, t.CaseID); err != nil {
		return err
	}
	status := t.Verdict.Status
	exec := judge.ExecStatus("")
	if t.Transcript != nil {
		exec = t.Transcript.Status
	}
	u := t.Usage
	_, err := tx.ExecContext(ctx, db.q(upsertTrial),
		runID, t.CaseID, t.N, row.caseKey, string(status), row.score, string(exec), int64(t.Duration),
		u.Agent.InputTokens, u.Agent.OutputTokens, u.Agent.CachedTokens, u.Agent.CostUSD,
		u.Judge.InputTokens, u.Judge.OutputTokens, u.Judge.CachedTokens, u.Judge.CostUSD,
		u.SimulatedUser.InputTokens, u.SimulatedUser.OutputTokens, u.SimulatedUser.CachedTokens, u.SimulatedUser.CostUSD,
		u.FollowUp.InputTokens, u.FollowUp.OutputTokens, u.FollowUp.CachedTokens, u.FollowUp.CostUSD,
		boolInt(u.Agent.Unpriced), boolInt(u.Judge.Unpriced), boolInt(u.SimulatedUser.Unpriced), boolInt(u.FollowUp.Unpriced),
		boolInt(u.Agent.Unreported), boolInt(u.Judge.Unreported), boolInt(u.SimulatedUser.Unreported), boolInt(u.FollowUp.Unreported),
		u.Agent.Calls, u.Agent.CacheHits, u.Judge.Calls, u.Judge.CacheHits,
		u.SimulatedUser.Calls, u.SimulatedUser.CacheHits, u.FollowUp.Calls, u.FollowUp.CacheHits, row.models, t.TraceID,
		row.transcript, row.verdict, micros(db.now()))
	if err != nil {
		return err
	}
	if _, err := tx.ExecContext(ctx, db.q(deleteTrialScores), runID, t.CaseID, t.N); err != nil {
		return err
	}
	rows := make([][]any, len(row.criteria))
	for i, c := range row.criteria {
		rows[i] = []any{runID, t.CaseID, t.N, c.Name, c.Mean, c.Min, c.Count} // trialScoreWidth
	}
	return db.insertRows(ctx, tx, insertTrialScores, rows)
}

// The statements of saveTrial, besides insertTrialScores.
const (
	insertRunCase     = "INSERT INTO run_cases (run_id, case_id) VALUES (?, ?) ON CONFLICT (run_id, case_id) DO NOTHING"
	deleteTrialScores = "DELETE FROM trial_scores WHERE run_id = ? AND case_id = ? AND n = ?"
	upsertTrial       = `INSERT INTO trials (run_id, case_id, n, case_key, status, score, exec_status, duration_ns,
		agent_input_tokens, agent_output_tokens, agent_cached_tokens, agent_cost_usd,
		judge_input_tokens, judge_output_tokens, judge_cached_tokens, judge_cost_usd,
		user_input_tokens, user_output_tokens, user_cached_tokens, user_cost_usd,
		followup_input_tokens, followup_output_tokens, followup_cached_tokens, followup_cost_usd,
		agent_unpriced, judge_unpriced, user_unpriced, followup_unpriced,
		agent_unreported, judge_unreported, user_unreported, followup_unreported,
		agent_calls, agent_cache_hits, judge_calls, judge_cache_hits,
		user_calls, user_cache_hits, followup_calls, followup_cache_hits, models, trace_id,
		transcript, verdict, saved_us)
	VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
	ON CONFLICT (run_id, case_id, n) DO UPDATE SET
		case_key = excluded.case_key, status = excluded.status, score = excluded.score,
		exec_status = excluded.exec_status, duration_ns = excluded.duration_ns,
		agent_input_tokens = excluded.agent_input_tokens, agent_output_tokens = excluded.agent_output_tokens,
		agent_cached_tokens = excluded.agent_cached_tokens, agent_cost_usd = excluded.agent_cost_usd,
		judge_input_tokens = excluded.judge_input_tokens, judge_output_tokens = excluded.judge_output_tokens,
		judge_cached_tokens = excluded.judge_cached_tokens, judge_cost_usd = excluded.judge_cost_usd,
		user_input_tokens = excluded.user_input_tokens, user_output_tokens = excluded.user_output_tokens,
		user_cached_tokens = excluded.user_cached_tokens, user_cost_usd = excluded.user_cost_usd,
		followup_input_tokens = excluded.followup_input_tokens, followup_output_tokens = excluded.followup_output_tokens,
		followup_cached_tokens = excluded.followup_cached_tokens, followup_cost_usd = excluded.followup_cost_usd,
		agent_unpriced = excluded.agent_unpriced, judge_unpriced = excluded.judge_unpriced,
		user_unpriced = excluded.user_unpriced, followup_unpriced = excluded.followup_unpriced,
		agent_unreported = excluded.agent_unreported, judge_unreported = excluded.judge_unreported,
		user_unreported = excluded.user_unreported, followup_unreported = excluded.followup_unreported,
		agent_calls = excluded.agent_calls, agent_cache_hits = excluded.agent_cache_hits,
		judge_calls = excluded.judge_calls, judge_cache_hits = excluded.judge_cache_hits,
		user_calls = excluded.user_calls, user_cache_hits = excluded.user_cache_hits,
		followup_calls = excluded.followup_calls, followup_cache_hits = excluded.followup_cache_hits,
		models = excluded.models, trace_id = excluded.trace_id,
		transcript = excluded.transcript, verdict = excluded.verdict, saved_us = excluded.saved_us`
)

// trialQueries returns the statements saveTrial runs for rows.
func trialQueries(rows []trialRow) []string {
	qs := []string{insertRunCase, upsertTrial, deleteTrialScores}
	seen := map[int]bool{0: true}
	for _, row := range rows {
		if n := len(row.criteria); !seen[n] && n <= maxRows {
			seen[n] = true
			qs = append(qs, insertTrialScores.query(trialScoreWidth, n))
		}
	}
	return qs
}

// trialScoreWidth is the number of values of a row of insertTrialScores.
const trialScoreWidth = 7

// insertTrialScores writes a trial's criteria.
var insertTrialScores = insert{Head: "INSERT INTO trial_scores (run_id, case_id, n, criterion, mean, lowest, scores) VALUES"}

// scanTrial scans the trialColumns into a trial and its case key.
func scanTrial(row interface{ Scan(...any) error }) (gavel.Trial, int64, error) {
	var t gavel.Trial
	var key sql.NullInt64
	var duration int64
	var transcript, verdict []byte
	var models string
	u := &t.Usage
	err := row.Scan(&t.CaseID, &t.N, &key, &duration,
		&u.Agent.InputTokens, &u.Agent.OutputTokens, &u.Agent.CachedTokens, &u.Agent.CostUSD,
		&u.Judge.InputTokens, &u.Judge.OutputTokens, &u.Judge.CachedTokens, &u.Judge.CostUSD,
		&u.SimulatedUser.InputTokens, &u.SimulatedUser.OutputTokens, &u.SimulatedUser.CachedTokens, &u.SimulatedUser.CostUSD,
		&u.FollowUp.InputTokens, &u.FollowUp.OutputTokens, &u.FollowUp.CachedTokens, &u.FollowUp.CostUSD,
		&u.Agent.Unpriced, &u.Judge.Unpriced, &u.SimulatedUser.Unpriced, &u.FollowUp.Unpriced,
		&u.Agent.Unreported, &u.Judge.Unreported, &u.SimulatedUser.Unreported, &u.FollowUp.Unreported,
		&u.Agent.Calls, &u.Agent.CacheHits, &u.Judge.Calls, &u.Judge.CacheHits,
		&u.SimulatedUser.Calls, &u.SimulatedUser.CacheHits, &u.FollowUp.Calls, &u.FollowUp.CacheHits, &models, &t.TraceID,
		&transcript, &verdict)
	if err != nil {
		return gavel.Trial{}, 0, err
	}
	t.Duration = time.Duration(duration)
	if models != "" {
		if err := json.Unmarshal([]byte(models), &t.Models); err != nil {
			return gavel.Trial{}, 0, fmt.Errorf("trial %s#%d: models: %w", t.CaseID, t.N, err)
		}
	}
	if transcript != nil {
		t.Transcript = new(judge.Transcript)
		if err := decompress(transcript, t.Transcript); err != nil {
			return gavel.Trial{}, 0, fmt.Errorf("trial %s#%d: transcript: %w", t.CaseID, t.N, err)
		}
	}
	if err := decompress(verdict, &t.Verdict); err != nil {
		return gavel.Trial{}, 0, fmt.Errorf("trial %s#%d: verdict: %w", t.CaseID, t.N, err)
	}
	return t, key.Int64, nil
}
