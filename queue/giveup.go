package queue

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/riverqueue/river/rivertype"

	"github.com/gavelhq/gavel"
	"github.com/gavelhq/gavel/judge"
)

// A givenUp is a trial whose job River gave up on, and the trial not
// settled: its job was discarded after its last attempt (which failed,
// timed out, panicked, or was rescued from a dead worker by River's
// rescuer, which runs none of Gavel's code) or cancelled.
type givenUp struct {
	args      TrialArgs
	cancelled bool
	attempt   int
	// last is the job's last attempt's error, if it recorded one.
	last *rivertype.AttemptError
}

// givenUpBatch is how many given-up trials a worker saves in one sweep.
const givenUpBatch = 100

// givenUp returns trials of unfinished runs whose jobs River gave up on
// and that nobody settled, givenUpBatch at most.
func (q *Queue) givenUp(ctx context.Context) ([]givenUp, error) {
	rows, err := q.db.QueryContext(ctx, `SELECT j.args, j.state = 'cancelled', j.attempt, j.errors[array_length(j.errors, 1)]
		FROM river_job j JOIN gavel_queue_runs r ON r.run_id = j.args->>'run'
		WHERE j.kind = $1 AND j.state IN ('discarded', 'cancelled') AND j.finalized_at IS NOT NULL AND NOT r.finished
			AND NOT EXISTS (SELECT 1 FROM gavel_queue_trials t
				WHERE t.run_id = r.run_id AND t.case_id = j.args->>'case' AND t.n::text = j.args->>'n')
		ORDER BY j.id LIMIT $2`, TrialArgs{}.Kind(), givenUpBatch)
	if err != nil {
		return nil, fmt.Errorf("queue: the trials River gave up on: %w", err)
	}
	defer rows.Close()
	var out []givenUp
	for rows.Next() {
		var g givenUp
		var args, last []byte
		if err := rows.Scan(&args, &g.cancelled, &g.attempt, &last); err != nil {
			return nil, fmt.Errorf("queue: the trials River gave up on: %w", err)
		}
		if err := json.Unmarshal(args, &g.args); err != nil {
			return nil, fmt.Errorf("queue: a job River gave up on: %w", err)
		}
		if last != nil {
			g.last = &rivertype.AttemptError{}
			if err := json.Unmarshal(last, g.last); err != nil {
				return nil, fmt.Errorf("queue: the last error of %s trial %d of run %s: %w", g.args.Case, g.args.N, g.args.Run, err)
			}
		}
		out = append(out, g)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("queue: the trials River gave up on: %w", err)
	}
	return out, nil
}

// rescuedError is the error River's rescuer records on a job it takes
// from a worker it holds for dead.
const rescuedError = "Stuck job rescued by JobRescuer"

// why says why a trial was given up on, as its ERROR says it.
func (g givenUp) why() string {
	attempts := fmt.Sprintf("%d attempts", g.attempt)
	if g.attempt == 1 {
		attempts = "1 attempt"
	}
	var last string
	if g.last != nil {
		last = "the last " + lastWords(g.last.Error, g.last.Trace != "")
	}
	switch {
	case g.cancelled && g.attempt == 0:
		return "the trial's job was cancelled before any worker ran it"
	case g.cancelled && last == "":
		return fmt.Sprintf("the trial's job was cancelled (after %s)", attempts)
	case g.cancelled:
		return fmt.Sprintf("the trial's job was cancelled (after %s); %s", attempts, last)
	case last == "":
		return fmt.Sprintf("no worker could run the trial (%s)", attempts)
	}
	return fmt.Sprintf("no worker could run the trial (%s); %s", attempts, last)
}

// lastWords says what a failed attempt said: "said: ...", "panicked:
// ...", or, rescued by River's rescuer, what that means.
func lastWords(said string, panicked bool) string {
	switch {
	case said == rescuedError:
		return "ran longer than the workers' --rescue-after: its worker died, or the trial outlasted it"
	case panicked:
		return "panicked: " + said
	}
	return "said: " + said
}

// trial is the ERROR a trial given up on is saved as.
func (g givenUp) trial() gavel.Trial {
	a, why := g.args, g.why()
	return gavel.Trial{CaseID: a.Case, N: a.N,
		Transcript: &judge.Transcript{CaseID: a.Case, Trial: a.N, Status: judge.ExecFailed, Error: why},
		Verdict:    judge.Judgment{Name: "worker", Status: judge.StatusError, Reasoning: why}}
}

// sweep saves, every FetchPollInterval until the worker stops, the
// trials whose jobs River gave up on as ERRORs, so that their runs
// finish; it says when it cannot, once until it can again.
func (w *Worker) sweep(ctx context.Context) {
	defer close(w.swept)
	tick := time.NewTicker(w.cfg.FetchPollInterval)
	defer tick.Stop()
	failing := false
	for {
		select {
		case <-tick.C:
		case <-w.client.Stopped():
			return
		case <-ctx.Done():
			return
		}
		err := w.sweepOnce(ctx)
		if err != nil && !failing {
			fmt.Fprintf(w.cfg.Log, "gavel worker: cannot save the trials River gave up on (tries again): %v\n", err)
		}
		failing = err != nil
	}
}

// sweepOnce saves the trials whose jobs River gave up on, a batch.
func (w *Worker) sweepOnce(ctx context.Context) error {
	given, err := w.q.givenUp(ctx)
	if err != nil {
		return err
	}
	for _, g := range given {
		fmt.Fprintf(w.cfg.Log, "gavel worker: %s trial %d of run %s is saved as an ERROR: %s\n", g.args.Case, g.args.N, g.args.Run, g.why())
		if err := w.save(ctx, g.args, g.trial(), w.built(g.args.Suite, g.args.Digest)); err != nil {
			return err
		}
	}
	return nil
}
