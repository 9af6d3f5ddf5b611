package queue

import (
	"context"
	"fmt"
)

// A Failure is what the last failed attempts at some of a run's trials
// said, trials that River tries again: a worker that refuses the run's
// suite, a trial that outlasts --rescue-after, a store a worker cannot
// reach. Waiting for River's last attempt to learn it can take minutes.
type Failure struct {
	// Said is what the attempts said ("said: ...", "panicked: ...").
	Said string
	// Case and N name one of the trials; Trials counts them.
	Case   string
	N      int
	Trials int
	// Attempt is the most attempts made at one of the trials so far, of
	// MaxAttempts.
	Attempt, MaxAttempts int
}

// maxFailures is how many distinct Failures Failures returns at most.
const maxFailures = 10

// Failures returns what the last failed attempts at a run's trials that
// River will try again said, one Failure per distinct saying, the most
// frequent first, maxFailures at most.
func (q *Queue) Failures(ctx context.Context, run string) ([]Failure, error) {
	rows, err := q.db.QueryContext(ctx, `SELECT e->>'error', COALESCE(e->>'trace', '') <> '', COUNT(*),
			(array_agg(args->>'case' ORDER BY id))[1], (array_agg(args->>'n' ORDER BY id))[1]::int,
			MAX(attempt), MAX(max_attempts)
		FROM (SELECT id, args, attempt, max_attempts, errors[array_length(errors, 1)] AS e FROM river_job
			WHERE kind = $1 AND args @> jsonb_build_object('run', $2::text)
				AND state IN ('available', 'retryable', 'scheduled', 'running') AND errors IS NOT NULL) f
		GROUP BY 1, 2 ORDER BY 3 DESC, 1 LIMIT $3`, TrialArgs{}.Kind(), run, maxFailures)
	if err != nil {
		return nil, fmt.Errorf("queue: the failed attempts of run %s: %w", run, err)
	}
	defer rows.Close()
	var out []Failure
	for rows.Next() {
		var f Failure
		var said string
		var panicked bool
		if err := rows.Scan(&said, &panicked, &f.Trials, &f.Case, &f.N, &f.Attempt, &f.MaxAttempts); err != nil {
			return nil, fmt.Errorf("queue: the failed attempts of run %s: %w", run, err)
		}
		f.Said = lastWords(said, panicked)
		out = append(out, f)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("queue: the failed attempts of run %s: %w", run, err)
	}
	return out, nil
}
