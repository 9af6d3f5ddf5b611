package sqlstore

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"slices"

	"github.com/gavelhq/gavel/judge"
	"github.com/gavelhq/gavel/store"
)

// Trend returns a suite's pass rate, cost and per-criterion means over its
// last n finished runs (100 when n is not positive), oldest first. A
// finished run is one that passed, failed or was interrupted: a run that
// errored (the agent or a provider could not be reached) measured
// nothing, and one still running has no numbers yet. Trend reads the
// runs' summaries and run_criteria, never trials.
//
// It reads the runs first, then their criteria by the runs' ids, in one
// read transaction. A join of the two in one query made PostgreSQL's
// planner hash the whole of run_criteria (it costs n lookups by key above
// a sequential scan), so that a trend grew with the history: with 10,000
// runs the join took 4.8 ms on the server, the runs' query alone 0.9 and
// the lookups 0.6.
func (db *DB) Trend(ctx context.Context, suite string, n int) ([]store.TrendPoint, error) {
	if n <= 0 {
		n = 100
	}
	var points []store.TrendPoint
	err := db.read(ctx, func(tx *sql.Tx) error {
		var err error
		if points, err = db.trendRuns(ctx, tx, suite, n); err != nil {
			return err
		}
		if err := db.trendCriteria(ctx, tx, points); err != nil {
			return err
		}
		return db.trendNames(ctx, tx, points)
	})
	if err != nil {
		return nil, fmt.Errorf("store: trend of suite %s: %w", suite, err)
	}
	return points, nil
}

// trendRuns returns the points of a suite's last n finished runs, oldest
// first, without their criteria.
func (db *DB) trendRuns(ctx context.Context, tx *sql.Tx, suite string, n int) ([]store.TrendPoint, error) {
	rows, err := tx.QueryContext(ctx, db.q(`SELECT id, started_us, threshold, pass_rate, pass_rate_unknown, cost_usd, cost_unpriced, cost_unreported FROM runs
		WHERE suite = ? AND status IN (?, ?, ?)
		ORDER BY started_us DESC, id DESC LIMIT ?`),
		suite, string(store.Passed), string(store.Failed), string(store.Incomplete), n)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []store.TrendPoint
	for rows.Next() {
		var p store.TrendPoint
		var started int64
		var rate float64
		var unknown int
		if err := rows.Scan(&p.RunID, &started, &p.Threshold, &rate, &unknown, &p.CostUSD, &p.CostUnpriced, &p.CostUnreported); err != nil {
			return nil, err
		}
		p.Started = fromMicros(started)
		if unknown == 0 {
			p.PassRate = &rate
		}
		out = append(out, p)
	}
	slices.Reverse(out)
	return out, rows.Err()
}

// trendCriteria sets the points' criteria from run_criteria, looked up by
// the runs' ids, up to maxRows ids (and maxParams) a query.
func (db *DB) trendCriteria(ctx context.Context, tx *sql.Tx, points []store.TrendPoint) error {
	byRun := make(map[string]*store.TrendPoint, len(points))
	ids := make([]any, len(points))
	for i := range points {
		byRun[points[i].RunID] = &points[i]
		ids[i] = points[i].RunID
	}
	for len(ids) > 0 {
		batch := ids[:min(maxRows, maxParams, len(ids))]
		ids = ids[len(batch):]
		if err := db.readCriteria(ctx, tx, batch, byRun); err != nil {
			return err
		}
	}
	return nil
}

// trendNames sets what names the points' runs (TrendPoint.Info),
// looked up by the runs' ids, up to maxRows ids (and maxParams) a query.
func (db *DB) trendNames(ctx context.Context, tx *sql.Tx, points []store.TrendPoint) error {
	byRun := make(map[string]*store.TrendPoint, len(points))
	ids := make([]any, len(points))
	for i := range points {
		byRun[points[i].RunID] = &points[i]
		ids[i] = points[i].RunID
	}
	for len(ids) > 0 {
		batch := ids[:min(maxRows, maxParams, len(ids))]
		ids = ids[len(batch):]
		rows, err := tx.QueryContext(ctx, db.q("SELECT id, label, git_branch, git_commit, git_dirty, started_by FROM runs WHERE id IN ("+placeholders(len(batch))+")"), batch...)
		if err != nil {
			return err
		}
		for rows.Next() {
			var id string
			var p store.TrendPoint
			var dirty int
			if err := rows.Scan(&id, &p.Label, &p.GitBranch, &p.GitCommit, &dirty, &p.StartedBy); err != nil {
				rows.Close()
				return err
			}
			if point := byRun[id]; point != nil {
				point.Label, point.GitBranch, point.GitCommit, point.GitDirty, point.StartedBy = p.Label, p.GitBranch, p.GitCommit, dirty != 0, p.StartedBy
			}
		}
		if err := rows.Close(); err != nil {
			return err
		}
		if err := rows.Err(); err != nil {
			return err
		}
	}
	return nil
}

// readCriteria reads the criteria of the runs ids into their points.
func (db *DB) readCriteria(ctx context.Context, tx *sql.Tx, ids []any, byRun map[string]*store.TrendPoint) error {
	rows, err := tx.QueryContext(ctx, db.q("SELECT run_id, criterion, mean FROM run_criteria WHERE run_id IN ("+placeholders(len(ids))+")"), ids...)
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		var runID, criterion string
		var mean float64
		if err := rows.Scan(&runID, &criterion, &mean); err != nil {
			return err
		}
		p := byRun[runID]
		if p.Criteria == nil {
			p.Criteria = map[string]float64{}
		}
		p.Criteria[criterion] = mean
	}
	return rows.Err()
}

// TrendTag is Trend restricted to the cases carrying a tag. It reads the
// last n finished runs first, then only their cases, trials and
// trial_scores (by their primary keys): the pass rate is the mean of the
// tagged cases' pass rates (passed trials / judged trials: a trial whose
// verdict abstained was not judged; none when no tagged case's trial
// was), the cost the sum of
// their trials' costs, and each criterion's mean the mean of its scores
// over their trials, as gavel.Stats counts them for a whole run. Tags are
// matched exactly, in Go: the ones of the run's snapshot of the case, or,
// for a run that never finished, of the case version its trials ran.
// Runs where no tagged case ran are left out.
func (db *DB) TrendTag(ctx context.Context, suite, tag string, n int) ([]store.TrendPoint, error) {
	if n <= 0 {
		n = 100
	}
	fail := func(err error) ([]store.TrendPoint, error) {
		return nil, fmt.Errorf("store: trend of suite %s, tag %q: %w", suite, tag, err)
	}
	const last = `WITH r AS (SELECT id, started_us, threshold FROM runs
			WHERE suite = ? AND status IN (?, ?, ?)
			ORDER BY started_us DESC, id DESC LIMIT ?) `
	args := []any{suite, string(store.Passed), string(store.Failed), string(store.Incomplete), n}

	type caseKey struct{ run, id string }
	type agg struct{ sum, count float64 } // a pass-rate or criterion sum and its count
	var points []store.TrendPoint
	passRates := map[string]*agg{} // by run
	tagged := map[caseKey]bool{}
	err := db.read(ctx, func(tx *sql.Tx) error {
		rows, err := tx.QueryContext(ctx, db.q(last+`SELECT r.id, r.started_us, r.threshold, c.case_id, c.snapshot, c.tags, v.tags,
				t.trials, t.judged, t.passed, t.cost, t.unpriced, t.unreported
			FROM r
			JOIN (SELECT run_id, case_id, count(*) AS trials,
					sum(CASE WHEN status <> ? THEN 1 ELSE 0 END) AS judged,
					sum(CASE WHEN status = ? THEN 1 ELSE 0 END) AS passed,
					sum(agent_cost_usd + judge_cost_usd + user_cost_usd + followup_cost_usd) AS cost,
					max(agent_unpriced + judge_unpriced + user_unpriced + followup_unpriced) AS unpriced,
					max(agent_unreported + judge_unreported + user_unreported + followup_unreported) AS unreported,
					min(case_key) AS case_key
				FROM trials WHERE run_id IN (SELECT id FROM r)
				GROUP BY run_id, case_id) t ON t.run_id = r.id
			JOIN run_cases c ON c.run_id = t.run_id AND c.case_id = t.case_id
			LEFT JOIN case_versions v ON v.id = t.case_key
			ORDER BY r.started_us, r.id, c.case_id`), append(args, string(judge.StatusAbstain), string(judge.StatusPass))...)
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			var runID, caseID, snapTags string
			var started, trials, judged, passed int64
			var snapshot int
			var versionTags sql.NullString
			var threshold, cost float64
			var unpriced, unreported int64
			if err := rows.Scan(&runID, &started, &threshold, &caseID, &snapshot, &snapTags, &versionTags, &trials, &judged, &passed, &cost, &unpriced, &unreported); err != nil {
				return err
			}
			tags := snapTags
			if snapshot == 0 {
				tags = versionTags.String
			}
			var list []string
			if tags != "" {
				if err := json.Unmarshal([]byte(tags), &list); err != nil {
					return fmt.Errorf("run %s, case %s: tags: %w", runID, caseID, err)
				}
			}
			if !slices.Contains(list, tag) || trials == 0 {
				continue
			}
			tagged[caseKey{runID, caseID}] = true
			if len(points) == 0 || points[len(points)-1].RunID != runID {
				points = append(points, store.TrendPoint{RunID: runID, Started: fromMicros(started), Threshold: threshold})
				passRates[runID] = &agg{}
			}
			points[len(points)-1].CostUSD += cost
			points[len(points)-1].CostUnpriced = points[len(points)-1].CostUnpriced || unpriced > 0
			points[len(points)-1].CostUnreported = points[len(points)-1].CostUnreported || unreported > 0
			if judged > 0 {
				a := passRates[runID]
				a.sum += float64(passed) / float64(judged)
				a.count++
			}
		}
		if err := rows.Err(); err != nil {
			return err
		}
		if len(points) == 0 {
			return nil
		}
		rows, err = tx.QueryContext(ctx, db.q(last+`SELECT s.run_id, s.case_id, s.criterion,
				sum(s.mean * s.scores), CAST(sum(s.scores) AS BIGINT)
			FROM trial_scores s JOIN r ON r.id = s.run_id
			GROUP BY s.run_id, s.case_id, s.criterion`), args...)
		if err != nil {
			return err
		}
		defer rows.Close()
		criteria := map[string]map[string]*agg{} // by run, then criterion
		for rows.Next() {
			var runID, caseID, criterion string
			var sum float64
			var count int64
			if err := rows.Scan(&runID, &caseID, &criterion, &sum, &count); err != nil {
				return err
			}
			if !tagged[caseKey{runID, caseID}] || count == 0 {
				continue
			}
			if criteria[runID] == nil {
				criteria[runID] = map[string]*agg{}
			}
			a := criteria[runID][criterion]
			if a == nil {
				a = &agg{}
				criteria[runID][criterion] = a
			}
			a.sum += sum
			a.count += float64(count)
		}
		if err := rows.Err(); err != nil {
			return err
		}
		for i := range points {
			p := &points[i]
			if a := passRates[p.RunID]; a.count > 0 {
				rate := a.sum / a.count
				p.PassRate = &rate
			}
			for name, c := range criteria[p.RunID] {
				if p.Criteria == nil {
					p.Criteria = map[string]float64{}
				}
				p.Criteria[name] = c.sum / c.count
			}
		}
		return db.trendNames(ctx, tx, points)
	})
	if err != nil {
		return fail(err)
	}
	return points, nil
}
