package sqlstore

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/gavelhq/gavel/judge"
	"github.com/gavelhq/gavel/store"
)

var _ store.Queues = (*DB)(nil)

// queueColumns are the columns a queue is read from (see scanQueue).
const queueColumns = `q.id, q.name, q.description, q.filter, q.labels_per_item, q.created_by, q.created_us,
	(SELECT COUNT(*) FROM queue_items qi WHERE qi.queue_id = q.id)`

// CreateQueue records a queue and fills it with the trials its filter
// chooses.
func (db *DB) CreateQueue(ctx context.Context, q store.Queue) (store.Queue, error) {
	if err := store.CheckQueue(&q); err != nil {
		return store.Queue{}, fmt.Errorf("store: create queue %q: %w", q.Name, err)
	}
	filter, err := json.Marshal(q.Filter)
	if err != nil {
		return store.Queue{}, fmt.Errorf("store: create queue %q: %w", q.Name, err)
	}
	q.Created = normalTime(db.now())
	err = db.write(ctx, func(tx *sql.Tx) error {
		err := tx.QueryRowContext(ctx, db.q(`INSERT INTO queues (name, description, filter, labels_per_item, created_by, created_us)
			VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (name) DO NOTHING RETURNING id`),
			q.Name, q.Description, string(filter), q.LabelsPerItem, q.CreatedBy, micros(q.Created)).Scan(&q.ID)
		if errors.Is(err, sql.ErrNoRows) {
			return fmt.Errorf("a queue of that name %w", store.ErrExists)
		}
		if err != nil {
			return err
		}
		if err := db.assign(ctx, tx, q.ID, q.Assignees); err != nil {
			return err
		}
		q.Items, err = db.fillQueue(ctx, tx, q.ID, q.Filter, 0, q.Filter.MaxItems())
		return err
	})
	if err != nil {
		return store.Queue{}, fmt.Errorf("store: create queue %q: %w", q.Name, err)
	}
	return q, nil
}

// assign makes people a queue's assignees, in their order.
func (db *DB) assign(ctx context.Context, tx *sql.Tx, id int64, people []string) error {
	if _, err := tx.ExecContext(ctx, db.q("DELETE FROM queue_assignees WHERE queue_id = ?"), id); err != nil {
		return err
	}
	for i, p := range people {
		if _, err := tx.ExecContext(ctx, db.q("INSERT INTO queue_assignees (queue_id, person, seq) VALUES (?, ?, ?)"), id, p, i); err != nil {
			return err
		}
	}
	return nil
}

// fillQueue adds to a queue whose last item is at position last at most
// room trials that f chooses and it does not hold yet, and returns how
// many it added. Newest runs come first, each run's cases in its order.
func (db *DB) fillQueue(ctx context.Context, tx *sql.Tx, id int64, f store.QueueFilter, last, room int) (int, error) {
	if f.Run != "" {
		if err := db.runExists(ctx, tx, f.Run); err != nil {
			return 0, fmt.Errorf("run %s: %w", f.Run, err)
		}
	}
	var since, until int64 = 0, 1<<63 - 1
	if !f.Since.IsZero() {
		since = micros(f.Since)
	}
	if !f.Until.IsZero() {
		until = microsCeil(f.Until)
	}
	verdict := "NULL"
	if f.ReadsVerdicts() {
		verdict = "t.verdict"
	}
	args := []any{id, f.Suite, f.Suite, f.Run, f.Run, since, until}
	statuses := "1 = 1"
	if len(f.Verdicts) > 0 {
		statuses = "t.status IN (" + strings.TrimSuffix(strings.Repeat("?, ", len(f.Verdicts)), ", ") + ")"
		for _, s := range f.Verdicts {
			args = append(args, string(s))
		}
	}
	rows, err := tx.QueryContext(ctx, db.q(`SELECT t.run_id, t.case_id, t.n, `+verdict+`
		FROM trials t
		JOIN runs r ON r.id = t.run_id
		JOIN run_cases c ON c.run_id = t.run_id AND c.case_id = t.case_id
		WHERE NOT EXISTS (SELECT 1 FROM queue_items qi WHERE qi.queue_id = ? AND qi.run_id = t.run_id AND qi.case_id = t.case_id AND qi.trial = t.n)
			AND (? = '' OR r.suite = ?) AND (? = '' OR r.id = ?) AND r.started_us >= ? AND r.started_us < ?
			AND `+statuses+`
		ORDER BY r.started_us DESC, r.id, c.position IS NULL, c.position, c.seq, t.n`), args...)
	if err != nil {
		return 0, err
	}
	type item struct {
		run, caseID string
		n           int
	}
	var chosen []item
	for len(chosen) < room && rows.Next() {
		var it item
		var blob []byte
		if err := rows.Scan(&it.run, &it.caseID, &it.n, &blob); err != nil {
			rows.Close()
			return 0, err
		}
		if blob != nil {
			var v judge.Judgment
			if err := decompress(blob, &v); err != nil {
				rows.Close()
				return 0, fmt.Errorf("the verdict of %s %s#%d: %w", it.run, it.caseID, it.n, err)
			}
			if !f.Matches(v) {
				continue
			}
		}
		chosen = append(chosen, it)
	}
	if err := errors.Join(rows.Err(), rows.Close()); err != nil {
		return 0, err
	}
	for i, it := range chosen {
		if _, err := tx.ExecContext(ctx, db.q("INSERT INTO queue_items (queue_id, position, run_id, case_id, trial) VALUES (?, ?, ?, ?, ?)"),
			id, last+i+1, it.run, it.caseID, it.n); err != nil {
			return 0, err
		}
	}
	return len(chosen), nil
}

// UpdateQueue changes a queue's name, description, assignees and labels
// per item.
func (db *DB) UpdateQueue(ctx context.Context, q store.Queue) (store.Queue, error) {
	if err := store.CheckQueue(&q); err != nil {
		return store.Queue{}, fmt.Errorf("store: update queue %d: %w", q.ID, err)
	}
	var out store.Queue
	err := db.write(ctx, func(tx *sql.Tx) error {
		var taken int64
		err := tx.QueryRowContext(ctx, db.q("SELECT id FROM queues WHERE name = ? AND id <> ?"), q.Name, q.ID).Scan(&taken)
		switch {
		case err == nil:
			return fmt.Errorf("another queue is named %q: it %w", q.Name, store.ErrExists)
		case !errors.Is(err, sql.ErrNoRows):
			return err
		}
		res, err := tx.ExecContext(ctx, db.q("UPDATE queues SET name = ?, description = ?, labels_per_item = ? WHERE id = ?"),
			q.Name, q.Description, q.LabelsPerItem, q.ID)
		if err != nil {
			return err
		}
		if n, err := res.RowsAffected(); err != nil {
			return err
		} else if n == 0 {
			return notFound("no such queue")
		}
		if err := db.assign(ctx, tx, q.ID, q.Assignees); err != nil {
			return err
		}
		out, err = db.queue(ctx, tx, q.ID)
		return err
	})
	if err != nil {
		return store.Queue{}, fmt.Errorf("store: update queue %d: %w", q.ID, err)
	}
	return out, nil
}

// RefreshQueue adds the trials the queue's filter chooses now that it
// does not hold yet.
func (db *DB) RefreshQueue(ctx context.Context, id int64) (int, error) {
	var added int
	err := db.write(ctx, func(tx *sql.Tx) error {
		q, err := db.queue(ctx, tx, id)
		if err != nil {
			return err
		}
		var last sql.NullInt64
		if err := tx.QueryRowContext(ctx, db.q("SELECT MAX(position) FROM queue_items WHERE queue_id = ?"), id).Scan(&last); err != nil {
			return err
		}
		// Positions go on from the last, even when trials deleted since
		// left gaps; the limit counts the items held.
		added, err = db.fillQueue(ctx, tx, id, q.Filter, int(last.Int64), q.Filter.MaxItems()-q.Items)
		return err
	})
	if err != nil {
		return 0, fmt.Errorf("store: refresh queue %d: %w", id, err)
	}
	return added, nil
}

// DeleteQueue deletes a queue and its items.
func (db *DB) DeleteQueue(ctx context.Context, id int64) error {
	err := db.write(ctx, func(tx *sql.Tx) error {
		for _, table := range []string{"queue_items", "queue_assignees"} {
			if _, err := tx.ExecContext(ctx, db.q("DELETE FROM "+table+" WHERE queue_id = ?"), id); err != nil {
				return err
			}
		}
		res, err := tx.ExecContext(ctx, db.q("DELETE FROM queues WHERE id = ?"), id)
		if err != nil {
			return err
		}
		if n, err := res.RowsAffected(); err != nil {
			return err
		} else if n == 0 {
			return notFound("no such queue")
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("store: delete queue %d: %w", id, err)
	}
	return nil
}

// Queue returns a queue.
func (db *DB) Queue(ctx context.Context, id int64) (store.Queue, error) {
	var q store.Queue
	err := db.read(ctx, func(tx *sql.Tx) error {
		var err error
		q, err = db.queue(ctx, tx, id)
		return err
	})
	if err != nil {
		return store.Queue{}, fmt.Errorf("store: queue %d: %w", id, err)
	}
	return q, nil
}

// ListQueues returns every queue, newest first.
func (db *DB) ListQueues(ctx context.Context) ([]store.Queue, error) {
	var out []store.Queue
	err := db.read(ctx, func(tx *sql.Tx) error {
		var err error
		out, err = db.queues(ctx, tx, "1 = 1 ORDER BY q.created_us DESC, q.id DESC")
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("store: queues: %w", err)
	}
	return out, nil
}

// queue reads one queue in tx.
func (db *DB) queue(ctx context.Context, tx *sql.Tx, id int64) (store.Queue, error) {
	qs, err := db.queues(ctx, tx, "q.id = ?", id)
	if err != nil {
		return store.Queue{}, err
	}
	if len(qs) == 0 {
		return store.Queue{}, notFound("no such queue")
	}
	return qs[0], nil
}

// queues reads the queues where says, with their assignees.
func (db *DB) queues(ctx context.Context, tx *sql.Tx, where string, args ...any) ([]store.Queue, error) {
	rows, err := tx.QueryContext(ctx, db.q("SELECT "+queueColumns+" FROM queues q WHERE "+where), args...)
	if err != nil {
		return nil, err
	}
	var out []store.Queue
	for rows.Next() {
		var q store.Queue
		var filter string
		var created int64
		if err := rows.Scan(&q.ID, &q.Name, &q.Description, &filter, &q.LabelsPerItem, &q.CreatedBy, &created, &q.Items); err != nil {
			rows.Close()
			return nil, err
		}
		if err := json.Unmarshal([]byte(filter), &q.Filter); err != nil {
			rows.Close()
			return nil, fmt.Errorf("the filter of queue %d: %w", q.ID, err)
		}
		q.Created = fromMicros(created)
		out = append(out, q)
	}
	if err := errors.Join(rows.Err(), rows.Close()); err != nil {
		return nil, err
	}
	for i := range out {
		people, err := tx.QueryContext(ctx, db.q("SELECT person FROM queue_assignees WHERE queue_id = ? ORDER BY seq"), out[i].ID)
		if err != nil {
			return nil, err
		}
		for people.Next() {
			var p string
			if err := people.Scan(&p); err != nil {
				people.Close()
				return nil, err
			}
			out[i].Assignees = append(out[i].Assignees, p)
		}
		if err := errors.Join(people.Err(), people.Close()); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// QueueItems returns a queue's items, each with the current labels on
// its verdict.
func (db *DB) QueueItems(ctx context.Context, id int64) ([]store.QueueItem, error) {
	var out []store.QueueItem
	err := db.read(ctx, func(tx *sql.Tx) error {
		var err error
		out, err = db.queueItems(ctx, tx, id, 0)
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("store: items of queue %d: %w", id, err)
	}
	return out, nil
}

// QueueItem returns one item of a queue.
func (db *DB) QueueItem(ctx context.Context, id int64, position int) (store.QueueItem, error) {
	var out []store.QueueItem
	err := db.read(ctx, func(tx *sql.Tx) error {
		var err error
		out, err = db.queueItems(ctx, tx, id, position)
		if err == nil && len(out) == 0 {
			err = notFound("no such item")
		}
		return err
	})
	if err != nil {
		return store.QueueItem{}, fmt.Errorf("store: item %d of queue %d: %w", position, id, err)
	}
	return out[0], nil
}

// labelOf is labelColumns of the labels l.
var labelOf = "l." + strings.ReplaceAll(labelColumns, ", ", ", l.")

// queueItems reads a queue's items (position 0), or one (its position),
// with the current labels on their verdicts. An unknown queue is
// ErrNotFound.
func (db *DB) queueItems(ctx context.Context, tx *sql.Tx, id int64, position int) ([]store.QueueItem, error) {
	if _, err := db.queue(ctx, tx, id); err != nil {
		return nil, err
	}
	rows, err := tx.QueryContext(ctx, db.q(`SELECT position, run_id, case_id, trial FROM queue_items
		WHERE queue_id = ? AND (? = 0 OR position = ?) ORDER BY position`), id, position, position)
	if err != nil {
		return nil, err
	}
	var out []store.QueueItem
	at := map[[3]string]int{}
	for rows.Next() {
		var it store.QueueItem
		if err := rows.Scan(&it.Position, &it.RunID, &it.CaseID, &it.Trial); err != nil {
			rows.Close()
			return nil, err
		}
		at[[3]string{it.RunID, it.CaseID, fmt.Sprint(it.Trial)}] = len(out)
		out = append(out, it)
	}
	if err := errors.Join(rows.Err(), rows.Close()); err != nil {
		return nil, err
	}
	labels, err := tx.QueryContext(ctx, db.q(`SELECT `+labelOf+` FROM labels l
		JOIN queue_items qi ON qi.run_id = l.run_id AND qi.case_id = l.case_id AND qi.trial = l.trial
		WHERE qi.queue_id = ? AND (? = 0 OR qi.position = ?) AND l.judgment = '' AND l.replaced_us = 0
		ORDER BY l.created_us, l.id`), id, position, position)
	if err != nil {
		return nil, err
	}
	for labels.Next() {
		l, err := scanLabel(labels)
		if err != nil {
			labels.Close()
			return nil, err
		}
		i := at[[3]string{l.RunID, l.CaseID, fmt.Sprint(l.Trial)}]
		out[i].Labels = append(out[i].Labels, l)
	}
	return out, errors.Join(labels.Err(), labels.Close())
}

// NextQueueItem returns person's next item of a queue after position
// after, going round to the start.
func (db *DB) NextQueueItem(ctx context.Context, id int64, person string, after int) (store.QueueItem, error) {
	var out []store.QueueItem
	err := db.read(ctx, func(tx *sql.Tx) error {
		q, err := db.queue(ctx, tx, id)
		if err != nil {
			return err
		}
		for _, from := range []int{after, 0} {
			var position int
			err := tx.QueryRowContext(ctx, db.q(`SELECT qi.position FROM queue_items qi
				WHERE qi.queue_id = ? AND qi.position > ?
					AND NOT EXISTS (SELECT 1 FROM labels l WHERE l.run_id = qi.run_id AND l.case_id = qi.case_id AND l.trial = qi.trial
						AND l.judgment = '' AND l.replaced_us = 0 AND l.author = ?)
					AND (SELECT COUNT(*) FROM labels l WHERE l.run_id = qi.run_id AND l.case_id = qi.case_id AND l.trial = qi.trial
						AND l.judgment = '' AND l.replaced_us = 0) < ?
				ORDER BY qi.position LIMIT 1`), id, from, person, q.LabelsPerItem).Scan(&position)
			if errors.Is(err, sql.ErrNoRows) {
				continue
			}
			if err != nil {
				return err
			}
			out, err = db.queueItems(ctx, tx, id, position)
			return err
		}
		return notFound("nothing left to label")
	})
	if err != nil {
		return store.QueueItem{}, fmt.Errorf("store: next item of queue %d for %s: %w", id, person, err)
	}
	return out[0], nil
}
