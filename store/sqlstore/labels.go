package sqlstore

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"math"
	"strings"
	"time"

	"github.com/gavelhq/gavel"
	"github.com/gavelhq/gavel/judge"
	"github.com/gavelhq/gavel/store"
)

// The verdicts a label may give.
const (
	labelCorrect = "correct"
	labelWrong   = "wrong"
)

// labelColumns are the columns a label is read from (see scanLabel).
const labelColumns = `id, run_id, case_id, trial, judgment, category, verdict, score, comment, author, created_us, replaced_us, deleted`

// AddLabel records a person's current label on a judgment of a trial
// (see store.Store).
func (db *DB) AddLabel(ctx context.Context, l store.Label) (store.Label, error) {
	out, err := db.AddLabels(ctx, []store.Label{l})
	if err != nil {
		return store.Label{}, err
	}
	return out[0], nil
}

// AddLabels records labels in one transaction: all or none.
func (db *DB) AddLabels(ctx context.Context, ls []store.Label) ([]store.Label, error) {
	out := make([]store.Label, len(ls))
	for i, l := range ls {
		l.Category = gavel.NormalCategory(l.Category)
		l.Comment = strings.TrimSpace(l.Comment)
		if err := validLabel(l); err != nil {
			return nil, fmt.Errorf("store: %w", &store.LabelError{Index: i, Err: fmt.Errorf("label %s %s#%d: %w", l.RunID, l.CaseID, l.Trial, err)})
		}
		if l.Created.IsZero() {
			l.Created = db.now()
		}
		l.Created, l.Replaced, l.Deleted = normalTime(l.Created), time.Time{}, false
		out[i] = l
	}
	err := db.write(ctx, func(tx *sql.Tx) error {
		for i, l := range out {
			saved, err := db.addLabel(ctx, tx, l)
			if err != nil {
				return &store.LabelError{Index: i, Err: fmt.Errorf("label %s %s#%d: %w", l.RunID, l.CaseID, l.Trial, err)}
			}
			out[i] = saved
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("store: %w", err)
	}
	return out, nil
}

// addLabel records one label in tx: it replaces its author's current
// label on the judgment, unless it says the same (it is then the current
// one) or is older (it then goes into the history, replaced by the
// current one). The trial's verdict must have the judgment, and the
// category must be on its scale (gavel.CheckLabel).
func (db *DB) addLabel(ctx context.Context, tx *sql.Tx, l store.Label) (store.Label, error) {
	var blob []byte
	err := tx.QueryRowContext(ctx, db.q("SELECT verdict FROM trials WHERE run_id = ? AND case_id = ? AND n = ?"), l.RunID, l.CaseID, l.Trial).Scan(&blob)
	if errors.Is(err, sql.ErrNoRows) {
		return store.Label{}, notFound("no such trial")
	}
	if err != nil {
		return store.Label{}, err
	}
	var verdict judge.Judgment
	if err := decompress(blob, &verdict); err != nil {
		return store.Label{}, fmt.Errorf("the trial's verdict: %w", err)
	}
	if err := gavel.CheckLabel(verdict, l.Judgment, l.Category); err != nil {
		return store.Label{}, err
	}
	cur, err := scanLabel(tx.QueryRowContext(ctx, db.q(`SELECT `+labelColumns+` FROM labels
		WHERE run_id = ? AND case_id = ? AND trial = ? AND judgment = ? AND author = ? AND replaced_us = 0`),
		l.RunID, l.CaseID, l.Trial, l.Judgment, l.Author))
	switch {
	case errors.Is(err, sql.ErrNoRows):
	case err != nil:
		return store.Label{}, err
	case sameLabel(cur, l):
		return cur, nil
	case l.Created.Before(cur.Created):
		l.Replaced = cur.Created
	default:
		if _, err := tx.ExecContext(ctx, db.q("UPDATE labels SET replaced_us = ? WHERE id = ?"), max(micros(l.Created), 1), cur.ID); err != nil {
			return store.Label{}, err
		}
	}
	var replaced int64
	if !l.Replaced.IsZero() {
		replaced = max(micros(l.Replaced), 1)
	}
	err = tx.QueryRowContext(ctx, db.q(`INSERT INTO labels (run_id, case_id, trial, judgment, category, verdict, score, comment, author, created_us, replaced_us, deleted)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 0) RETURNING id`),
		l.RunID, l.CaseID, l.Trial, l.Judgment, l.Category, l.Verdict, l.Score, l.Comment, l.Author, micros(l.Created), replaced).Scan(&l.ID)
	return l, err
}

// sameLabel reports whether two labels say the same: category, verdict,
// score and comment.
func sameLabel(a, b store.Label) bool {
	sameScore := (a.Score == nil) == (b.Score == nil) && (a.Score == nil || *a.Score == *b.Score)
	return a.Category == b.Category && a.Verdict == b.Verdict && sameScore && a.Comment == b.Comment
}

func validLabel(l store.Label) error {
	switch {
	case l.Category == "" && l.Verdict == "":
		return errors.New("no category and no verdict: give the judgment's category (pass, fail, a score) or say it was correct or wrong")
	case l.Category != "" && l.Verdict != "":
		return fmt.Errorf("category %q and verdict %q: give one of them", l.Category, l.Verdict)
	case l.Verdict != "" && l.Verdict != labelCorrect && l.Verdict != labelWrong:
		return fmt.Errorf("verdict %q is not %q or %q", l.Verdict, labelCorrect, labelWrong)
	case len(l.Category) > 100 || strings.ContainsAny(l.Category, "\r\n\t"):
		return fmt.Errorf("category %.40q is not a category's name: one line of at most 100 characters", l.Category)
	case l.Score != nil && (math.IsNaN(*l.Score) || *l.Score < 0 || *l.Score > 1):
		return fmt.Errorf("score %v is not within 0..1", *l.Score)
	case l.Trial < 1:
		return fmt.Errorf("trial %d: trials count from 1", l.Trial)
	}
	return nil
}

// rowScanner is a *sql.Row or *sql.Rows.
type rowScanner interface{ Scan(dest ...any) error }

// scanLabel reads a label's labelColumns.
func scanLabel(r rowScanner) (store.Label, error) {
	var l store.Label
	var created, replaced int64
	var deleted int
	if err := r.Scan(&l.ID, &l.RunID, &l.CaseID, &l.Trial, &l.Judgment, &l.Category, &l.Verdict, &l.Score, &l.Comment, &l.Author,
		&created, &replaced, &deleted); err != nil {
		return store.Label{}, err
	}
	l.Created, l.Deleted = fromMicros(created), deleted != 0
	if replaced != 0 {
		l.Replaced = fromMicros(replaced)
	}
	return l, nil
}

// DeleteLabel ends a current label, keeping it in the history.
func (db *DB) DeleteLabel(ctx context.Context, id int64) error {
	err := db.write(ctx, func(tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, db.q("UPDATE labels SET replaced_us = ?, deleted = 1 WHERE id = ? AND replaced_us = 0"), max(micros(db.now()), 1), id)
		if err != nil {
			return err
		}
		if n, err := res.RowsAffected(); err != nil {
			return err
		} else if n == 0 {
			return notFound("no current label with that id")
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("store: delete label %d: %w", id, err)
	}
	return nil
}

// Labels returns the current labels of a run's trials, oldest first.
func (db *DB) Labels(ctx context.Context, runID string) ([]store.Label, error) {
	return db.labels(ctx, runID, "labels", "AND replaced_us = 0")
}

// LabelHistory returns every label of a run's trials, oldest first.
func (db *DB) LabelHistory(ctx context.Context, runID string) ([]store.Label, error) {
	return db.labels(ctx, runID, "label history", "")
}

func (db *DB) labels(ctx context.Context, runID, what, where string) ([]store.Label, error) {
	if err := db.runExists(ctx, db.sql, runID); err != nil {
		return nil, fmt.Errorf("store: %s of run %s: %w", what, runID, err)
	}
	rows, err := db.sql.QueryContext(ctx, db.q(`SELECT `+labelColumns+` FROM labels WHERE run_id = ? `+where+` ORDER BY created_us, id`), runID)
	if err != nil {
		return nil, fmt.Errorf("store: %s of run %s: %w", what, runID, err)
	}
	defer rows.Close()
	var out []store.Label
	for rows.Next() {
		l, err := scanLabel(rows)
		if err != nil {
			return nil, fmt.Errorf("store: %s of run %s: %w", what, runID, err)
		}
		out = append(out, l)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("store: %s of run %s: %w", what, runID, err)
	}
	return out, nil
}

// LabelChecks returns the current labels f selects, each beside the
// labelled judgment, read from the trial's verdict: people label few
// trials, so decompressing their verdicts costs little.
func (db *DB) LabelChecks(ctx context.Context, f store.LabelFilter) ([]gavel.LabelCheck, error) {
	var runsSince, labelsSince int64
	if !f.RunsSince.IsZero() {
		runsSince = micros(f.RunsSince)
	}
	if !f.LabelsSince.IsZero() {
		labelsSince = micros(f.LabelsSince)
	}
	judgment := f.Judgment
	if judgment == "." {
		judgment = ""
	}
	rows, err := db.sql.QueryContext(ctx, db.q(`SELECT l.run_id, l.case_id, l.trial, l.judgment, t.verdict, l.category, l.verdict, l.score, l.author, l.comment, l.created_us
		FROM labels l
		JOIN trials t ON t.run_id = l.run_id AND t.case_id = l.case_id AND t.n = l.trial
		JOIN runs r ON r.id = l.run_id
		WHERE l.replaced_us = 0 AND (? = '' OR r.suite = ?) AND r.started_us >= ? AND l.created_us >= ?
			AND (? = '' OR l.judgment = ?)
			AND (? = 0 OR EXISTS (SELECT 1 FROM queue_items qi
				WHERE qi.queue_id = ? AND qi.run_id = l.run_id AND qi.case_id = l.case_id AND qi.trial = l.trial))
		ORDER BY l.created_us, l.id`), f.Suite, f.Suite, runsSince, labelsSince, f.Judgment, judgment, f.Queue, f.Queue)
	if err != nil {
		return nil, fmt.Errorf("store: label checks of suite %q: %w", f.Suite, err)
	}
	defer rows.Close()
	var out []gavel.LabelCheck
	for rows.Next() {
		var c gavel.LabelCheck
		var verdict []byte
		var label string
		var created int64
		if err := rows.Scan(&c.RunID, &c.CaseID, &c.Trial, &c.Judgment, &verdict, &c.HumanCategory, &label, &c.HumanScore, &c.Author, &c.Comment, &created); err != nil {
			return nil, fmt.Errorf("store: label checks of suite %q: %w", f.Suite, err)
		}
		var v judge.Judgment
		if err := decompress(verdict, &v); err != nil {
			return nil, fmt.Errorf("store: label checks of suite %q: the verdict of %s %s#%d: %w", f.Suite, c.RunID, c.CaseID, c.Trial, err)
		}
		c, ok := gavel.JudgedBy(c, v)
		if !ok || !gavel.PromptOf(v, c.Judgment, f.Prompt) {
			continue
		}
		c.Correct, c.Created = label == labelCorrect, fromMicros(created)
		out = append(out, c)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("store: label checks of suite %q: %w", f.Suite, err)
	}
	return out, nil
}
