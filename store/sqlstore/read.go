package sqlstore

import (
	"context"
	"database/sql"
	"encoding/json"
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
// the order the cases' first trials were saved, with outcomes computed
// from them; its cases' names, tags and sources come from the case
// versions the trials ran, and their inputs from the transcripts' goals.
func (db *DB) Run(ctx context.Context, id string) (*store.StoredRun, error) {
	out, err := db.loadRun(ctx, id)
	if err != nil {
		return nil, fmt.Errorf("store: run %s: %w", id, err)
	}
	return out, nil
}

func (db *DB) loadRun(ctx context.Context, id string) (*store.StoredRun, error) {
	var out *store.StoredRun
	err := db.read(ctx, func(tx *sql.Tx) error {
		info, err := db.runInfo(ctx, tx, id)
		if err != nil {
			return err
		}
		var duration int64
		var interrupted int
		if err := tx.QueryRowContext(ctx, db.q("SELECT duration_ns, interrupted FROM runs WHERE id = ?"), id).Scan(&duration, &interrupted); err != nil {
			return err
		}
		trials, keys, err := db.runTrials(ctx, tx, id)
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
		run := &gavel.Run{
			Suite:       &gavel.Suite{Name: info.Suite, File: info.SuiteFile, Threshold: info.Threshold, Models: info.Models},
			Started:     info.Started,
			Duration:    time.Duration(duration),
			Interrupted: interrupted != 0,
			Models:      info.Stats.Models,
		}
		if run.Duration == 0 && !info.Ended.IsZero() {
			run.Duration = info.Ended.Sub(info.Started)
		}
		for _, c := range cases {
			r := gavel.CaseResult{Case: c.rebuild(trials[c.id], versions[keys[c.id]]), Trials: trials[c.id],
				Outcome: c.outcome, SkipReason: c.skipReason}
			if r.Outcome == "" {
				r.Summarize()
			}
			run.Suite.Cases = append(run.Suite.Cases, r.Case)
			run.Cases = append(run.Cases, r)
		}
		out = &store.StoredRun{Info: info, Run: run}
		return nil
	})
	return out, err
}

// runTrials returns a run's trials by case id, in order, and the case
// version each case ran (the first one its trials name).
func (db *DB) runTrials(ctx context.Context, tx *sql.Tx, runID string) (map[string][]gavel.Trial, map[string]int64, error) {
	rows, err := tx.QueryContext(ctx, db.q("SELECT "+trialColumns+" FROM trials WHERE run_id = ? ORDER BY case_id, n"), runID)
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

// runCases returns a run's cases in order.
func (db *DB) runCases(ctx context.Context, tx *sql.Tx, runID string) ([]caseResult, error) {
	rows, err := tx.QueryContext(ctx, db.q(`SELECT case_id, outcome, skip_reason, snapshot, name, description, tags, source, input, expected
		FROM run_cases WHERE run_id = ? ORDER BY position IS NULL, position, seq`), runID)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []caseResult
	for rows.Next() {
		var c caseResult
		var outcome, tags string
		var snapshot int
		if err := rows.Scan(&c.id, &outcome, &c.skipReason, &snapshot, &c.name, &c.description, &tags, &c.source, &c.input, &c.expected); err != nil {
			return nil, err
		}
		if err := json.Unmarshal([]byte(tags), &c.tags); err != nil {
			return nil, fmt.Errorf("case %s: tags: %w", c.id, err)
		}
		c.outcome, c.snapshot = gavel.Outcome(outcome), snapshot != 0
		out = append(out, c)
	}
	return out, rows.Err()
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

// rebuild returns the Case of a stored result: from its snapshot, or,
// for a run that never finished, from the version its trials ran and
// their transcripts.
func (c caseResult) rebuild(trials []gavel.Trial, v store.CaseVersion) *gavel.Case {
	out := &gavel.Case{ID: c.id}
	input := c.input
	if c.snapshot {
		out.Name, out.Description, out.Source, out.Expected = c.name, c.description, c.source, c.expected
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
