package sqlstore

import (
	"context"
	"database/sql"
	"fmt"

	"github.com/gavelhq/gavel/store"
)

// Quarantine quarantines a case, or replaces its quarantine's reason.
func (db *DB) Quarantine(ctx context.Context, q store.Quarantine) error {
	if q.Created.IsZero() {
		q.Created = db.now()
	}
	err := db.write(ctx, func(tx *sql.Tx) error {
		_, err := tx.ExecContext(ctx, db.q(`INSERT INTO quarantines (suite, case_id, reason, created_by, created_us) VALUES (?, ?, ?, ?, ?)
			ON CONFLICT (suite, case_id) DO UPDATE SET reason = excluded.reason, created_by = excluded.created_by, created_us = excluded.created_us`),
			q.Suite, q.CaseID, q.Reason, q.By, micros(normalTime(q.Created)))
		return err
	})
	if err != nil {
		return fmt.Errorf("store: quarantine case %s of suite %s: %w", q.CaseID, q.Suite, err)
	}
	return nil
}

// Release ends a case's quarantine.
func (db *DB) Release(ctx context.Context, suite, caseID string) error {
	err := db.write(ctx, func(tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, db.q("DELETE FROM quarantines WHERE suite = ? AND case_id = ?"), suite, caseID)
		if err != nil {
			return err
		}
		if n, err := res.RowsAffected(); err != nil {
			return err
		} else if n == 0 {
			return notFound("the case is not quarantined")
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("store: release case %s of suite %s: %w", caseID, suite, err)
	}
	return nil
}

// Quarantined returns the quarantines of suite, or of every suite.
func (db *DB) Quarantined(ctx context.Context, suite string) ([]store.Quarantine, error) {
	var out []store.Quarantine
	err := db.read(ctx, func(tx *sql.Tx) error {
		rows, err := tx.QueryContext(ctx, db.q(`SELECT suite, case_id, reason, created_by, created_us FROM quarantines
			WHERE ? = '' OR suite = ? ORDER BY suite, case_id`), suite, suite)
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			var q store.Quarantine
			var created int64
			if err := rows.Scan(&q.Suite, &q.CaseID, &q.Reason, &q.By, &created); err != nil {
				return err
			}
			q.Created = fromMicros(created)
			out = append(out, q)
		}
		return rows.Err()
	})
	if err != nil {
		return nil, fmt.Errorf("store: quarantined cases: %w", err)
	}
	return out, nil
}
