package sqlstore

import (
	"context"
	"fmt"

	"github.com/gavelhq/gavel/store"
)

// Trend returns a suite's pass rate, cost and per-criterion means over its
// last n finished runs (100 when n is not positive), oldest first. A
// finished run is one that passed, failed or was interrupted: a run that
// errored (the agent or a provider could not be reached) measured
// nothing, and one still running has no numbers yet. Trend reads the
// runs' summaries and run_criteria, never trials.
func (db *DB) Trend(ctx context.Context, suite string, n int) ([]store.TrendPoint, error) {
	if n <= 0 {
		n = 100
	}
	rows, err := db.sql.QueryContext(ctx, db.q(`SELECT r.id, r.started_us, r.pass_rate, r.cost_usd, c.criterion, c.mean
		FROM (SELECT id, started_us, pass_rate, cost_usd FROM runs
			WHERE suite = ? AND status IN (?, ?, ?)
			ORDER BY started_us DESC, id DESC LIMIT ?) r
		LEFT JOIN run_criteria c ON c.run_id = r.id
		ORDER BY r.started_us, r.id`),
		suite, string(store.Passed), string(store.Failed), string(store.Interrupted), n)
	if err != nil {
		return nil, fmt.Errorf("store: trend of suite %s: %w", suite, err)
	}
	defer rows.Close()
	var out []store.TrendPoint
	for rows.Next() {
		var p store.TrendPoint
		var started int64
		var criterion *string
		var mean *float64
		if err := rows.Scan(&p.RunID, &started, &p.PassRate, &p.CostUSD, &criterion, &mean); err != nil {
			return nil, fmt.Errorf("store: trend of suite %s: %w", suite, err)
		}
		if len(out) == 0 || out[len(out)-1].RunID != p.RunID {
			p.Started = fromMicros(started)
			out = append(out, p)
		}
		if criterion != nil && mean != nil {
			last := &out[len(out)-1]
			if last.Criteria == nil {
				last.Criteria = map[string]float64{}
			}
			last.Criteria[*criterion] = *mean
		}
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("store: trend of suite %s: %w", suite, err)
	}
	return out, nil
}
