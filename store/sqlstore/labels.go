package sqlstore

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"math"

	"github.com/gavelhq/gavel"
	"github.com/gavelhq/gavel/judge"
	"github.com/gavelhq/gavel/store"
)

// The verdicts a label may give.
const (
	labelCorrect = "correct"
	labelWrong   = "wrong"
)

// AddLabel records a person's label on a judged trial, which must be
// there, and returns it with its ID (and its time set to now when it was
// zero).
func (db *DB) AddLabel(ctx context.Context, l store.Label) (store.Label, error) {
	if err := validLabel(l); err != nil {
		return store.Label{}, fmt.Errorf("store: label %s %s#%d: %w", l.RunID, l.CaseID, l.Trial, err)
	}
	if l.Created.IsZero() {
		l.Created = db.now()
	}
	l.Created = normalTime(l.Created)
	err := db.write(ctx, func(tx *sql.Tx) error {
		var one int
		err := tx.QueryRowContext(ctx, db.q("SELECT 1 FROM trials WHERE run_id = ? AND case_id = ? AND n = ?"), l.RunID, l.CaseID, l.Trial).Scan(&one)
		if errors.Is(err, sql.ErrNoRows) {
			return notFound("no such trial")
		}
		if err != nil {
			return err
		}
		return tx.QueryRowContext(ctx, db.q(`INSERT INTO labels (run_id, case_id, trial, judgment, verdict, score, comment, author, created_us)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id`),
			l.RunID, l.CaseID, l.Trial, l.Judgment, l.Verdict, l.Score, l.Comment, l.Author, micros(l.Created)).Scan(&l.ID)
	})
	if err != nil {
		return store.Label{}, fmt.Errorf("store: label %s %s#%d: %w", l.RunID, l.CaseID, l.Trial, err)
	}
	return l, nil
}

func validLabel(l store.Label) error {
	if l.Verdict != labelCorrect && l.Verdict != labelWrong {
		return fmt.Errorf("verdict %q is not %q or %q", l.Verdict, labelCorrect, labelWrong)
	}
	if l.Score != nil && (math.IsNaN(*l.Score) || *l.Score < 0 || *l.Score > 1) {
		return fmt.Errorf("score %v is not within 0..1", *l.Score)
	}
	return nil
}

// Labels returns the labels of a run's trials, oldest first.
func (db *DB) Labels(ctx context.Context, runID string) ([]store.Label, error) {
	if err := db.runExists(ctx, db.sql, runID); err != nil {
		return nil, fmt.Errorf("store: labels of run %s: %w", runID, err)
	}
	rows, err := db.sql.QueryContext(ctx, db.q(`SELECT id, run_id, case_id, trial, judgment, verdict, score, comment, author, created_us
		FROM labels WHERE run_id = ? ORDER BY created_us, id`), runID)
	if err != nil {
		return nil, fmt.Errorf("store: labels of run %s: %w", runID, err)
	}
	defer rows.Close()
	var out []store.Label
	for rows.Next() {
		var l store.Label
		var created int64
		if err := rows.Scan(&l.ID, &l.RunID, &l.CaseID, &l.Trial, &l.Judgment, &l.Verdict, &l.Score, &l.Comment, &l.Author, &created); err != nil {
			return nil, fmt.Errorf("store: labels of run %s: %w", runID, err)
		}
		l.Created = fromMicros(created)
		out = append(out, l)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("store: labels of run %s: %w", runID, err)
	}
	return out, nil
}

// LabelChecks returns the labels on the verdicts of a suite's trials,
// with the verdicts' status and score from the trials' columns, and
// whether a model took part from the verdict itself (its usage): people
// label few trials, so decompressing their verdicts costs little.
func (db *DB) LabelChecks(ctx context.Context, suite string) ([]gavel.LabelCheck, error) {
	rows, err := db.sql.QueryContext(ctx, db.q(`SELECT l.run_id, l.case_id, l.trial, t.status, t.score, t.verdict, l.verdict, l.score, l.author, l.comment, l.created_us
		FROM labels l
		JOIN trials t ON t.run_id = l.run_id AND t.case_id = l.case_id AND t.n = l.trial
		JOIN runs r ON r.id = l.run_id
		WHERE l.judgment = '' AND (? = '' OR r.suite = ?)
		ORDER BY l.created_us, l.id`), suite, suite)
	if err != nil {
		return nil, fmt.Errorf("store: label checks of suite %q: %w", suite, err)
	}
	defer rows.Close()
	var out []gavel.LabelCheck
	for rows.Next() {
		var c gavel.LabelCheck
		var status, label string
		var verdict []byte
		var created int64
		if err := rows.Scan(&c.RunID, &c.CaseID, &c.Trial, &status, &c.Score, &verdict, &label, &c.HumanScore, &c.Author, &c.Comment, &created); err != nil {
			return nil, fmt.Errorf("store: label checks of suite %q: %w", suite, err)
		}
		var v judge.Judgment
		if err := decompress(verdict, &v); err != nil {
			return nil, fmt.Errorf("store: label checks of suite %q: the verdict of %s %s#%d: %w", suite, c.RunID, c.CaseID, c.Trial, err)
		}
		c.ModelJudged = v.Usage.InputTokens+v.Usage.OutputTokens > 0
		c.Status, c.Correct, c.Created = judge.Status(status), label == labelCorrect, fromMicros(created)
		out = append(out, c)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("store: label checks of suite %q: %w", suite, err)
	}
	return out, nil
}
