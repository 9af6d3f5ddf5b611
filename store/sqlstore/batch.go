package sqlstore

import (
	"context"
	"strings"
)

// maxParams caps the parameters of one statement (insertRows, IN lists):
// SQLite's limit (SQLITE_MAX_VARIABLE_NUMBER, 32,766 since SQLite 3.32)
// is the lower one; PostgreSQL's is 65,535. Tests lower it to exercise
// the split.
var maxParams = 32766

// maxRows caps the rows of one statement of insertRows, and the ids of
// one IN list. From 100 to 1,000 rows a statement, FinishRun of 1,000
// cases took the same time on both databases (a round trip is then a
// small share of a statement's time); longer statements only make
// PostgreSQL's driver prepare, and keep, bigger ones.
const maxRows = 250

// An insert is a multi-row INSERT statement: Head is what comes before
// the rows ("INSERT INTO t (a, b) VALUES"), Tail what comes after them
// (an ON CONFLICT clause, or "").
type insert struct {
	Head, Tail string
}

// insertRows inserts rows, each a row's arguments (all of one length),
// with as few statements as maxRows and maxParams allow: one round trip
// per few hundred rows instead of one per row, which matters on
// PostgreSQL (each is a network exchange) and on SQLite (each holds the
// one write lock longer).
func (db *DB) insertRows(ctx context.Context, tx execer, ins insert, rows [][]any) error {
	if len(rows) == 0 {
		return nil
	}
	width := len(rows[0])
	per := max(1, min(maxRows, maxParams/width))
	for len(rows) > 0 {
		batch := rows[:min(per, len(rows))]
		rows = rows[len(batch):]
		args := make([]any, 0, width*len(batch))
		for _, r := range batch {
			args = append(args, r...)
		}
		if _, err := tx.ExecContext(ctx, db.q(ins.query(width, len(batch))), args...); err != nil {
			return err
		}
	}
	return nil
}

// query returns the statement that inserts n rows of width values.
func (ins insert) query(width, n int) string {
	row := "(" + placeholders(width) + ")"
	var q strings.Builder
	q.WriteString(ins.Head)
	for i := range n {
		if i > 0 {
			q.WriteString(",")
		}
		q.WriteString(" " + row)
	}
	q.WriteString(" " + ins.Tail)
	return q.String()
}
