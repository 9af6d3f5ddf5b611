package sqlstore

import (
	"context"
	"crypto/sha256"
	"database/sql"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/gavelhq/gavel/store"
)

// A case's version changes when its definition, name or tags do. Its
// source (where it lives: "cases.yaml:12") is not part of it: a case that
// moves down a file when another is added above it is the same case, and
// its latest version's source is updated in place.

const caseColumns = "id, suite, case_id, version, name, tags, definition, source, created_us"

// SaveCase records a case's definition and returns its version: the
// latest one if the definition is unchanged, else a new one.
func (db *DB) SaveCase(ctx context.Context, c store.CaseDef) (store.CaseVersion, error) {
	tags, err := caseTags(c)
	if err != nil {
		return store.CaseVersion{}, err
	}
	var out store.CaseVersion
	err = db.write(ctx, func(tx *sql.Tx) error {
		var err error
		out, err = db.saveCase(ctx, tx, c, tags)
		return err
	})
	if err != nil {
		return store.CaseVersion{}, fmt.Errorf("store: save case %s/%s: %w", c.Suite, c.ID, err)
	}
	return out, nil
}

// SaveCases saves case definitions in one transaction, as SaveCase saves
// one (store.Batcher).
func (db *DB) SaveCases(ctx context.Context, cs []store.CaseDef) ([]store.CaseVersion, error) {
	tags := make([][]byte, len(cs))
	for i, c := range cs {
		var err error
		if tags[i], err = caseTags(c); err != nil {
			return nil, err
		}
	}
	out := make([]store.CaseVersion, len(cs))
	db.prepare(ctx, selectLatestCase, updateCaseSource, insertCaseVersion)
	err := db.write(ctx, func(tx *sql.Tx) error {
		st := db.stmts(tx)
		for i, c := range cs {
			v, err := db.saveCase(ctx, st, c, tags[i])
			if err != nil {
				return fmt.Errorf("case %s/%s: %w", c.Suite, c.ID, err)
			}
			out[i] = v
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("store: save %d cases: %w", len(cs), err)
	}
	return out, nil
}

// caseTags checks that a case definition names its suite and id, and
// returns its tags as stored.
func caseTags(c store.CaseDef) ([]byte, error) {
	if c.Suite == "" || c.ID == "" {
		return nil, fmt.Errorf("store: save case %q of suite %q: a case needs a suite and an id", c.ID, c.Suite)
	}
	tags, err := json.Marshal(nonEmpty(c.Tags))
	if err != nil {
		return nil, fmt.Errorf("store: save case %s/%s: %w", c.Suite, c.ID, err)
	}
	return tags, nil
}

// saveCase saves a case's definition in tx: its latest version when it
// is unchanged (its source updated), else a new version.
func (db *DB) saveCase(ctx context.Context, tx execer, c store.CaseDef, tags []byte) (store.CaseVersion, error) {
	digest := caseDigest(c)
	// Two PostgreSQL writers may both see version v and both insert
	// v+1: one insert does nothing, and that one looks again.
	for range 5 {
		latest, latestDigest, err := db.latestCase(ctx, tx, c.Suite, c.ID)
		switch {
		case err != nil && !errors.Is(err, store.ErrNotFound):
			return store.CaseVersion{}, err
		case err == nil && latestDigest == digest:
			if latest.Source != c.Source {
				if _, err := tx.ExecContext(ctx, db.q(updateCaseSource), c.Source, latest.Key); err != nil {
					return store.CaseVersion{}, err
				}
				latest.Source = c.Source
			}
			return latest, nil
		}
		next := latest.Version + 1
		created := normalTime(db.now())
		row := tx.QueryRowContext(ctx, db.q(insertCaseVersion), c.Suite, c.ID, next, c.Name, string(tags), nonNil(c.Definition), c.Source, digest, micros(created))
		var key int64
		switch err := row.Scan(&key); {
		case errors.Is(err, sql.ErrNoRows):
			continue // another writer saved this version first
		case err != nil:
			return store.CaseVersion{}, err
		}
		out := store.CaseVersion{CaseDef: c, Version: next, Key: key, Created: created}
		out.Tags = nonEmpty(c.Tags)
		out.Definition = nonEmpty(c.Definition)
		return out, nil
	}
	return store.CaseVersion{}, errors.New("too many concurrent versions; try again")
}

// The statements of saveCase.
const (
	selectLatestCase  = "SELECT " + caseColumns + ", digest FROM case_versions WHERE suite = ? AND case_id = ? ORDER BY version DESC LIMIT 1"
	updateCaseSource  = "UPDATE case_versions SET source = ? WHERE id = ?"
	insertCaseVersion = `INSERT INTO case_versions (suite, case_id, version, name, tags, definition, source, digest, created_us)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
		ON CONFLICT (suite, case_id, version) DO NOTHING
		RETURNING id`
)

// latestCase returns the latest version of a case and its digest.
func (db *DB) latestCase(ctx context.Context, tx execer, suite, id string) (store.CaseVersion, string, error) {
	row := tx.QueryRowContext(ctx, db.q(selectLatestCase), suite, id)
	var digest string
	c, err := scanCase(row, &digest)
	if errors.Is(err, sql.ErrNoRows) {
		return store.CaseVersion{}, "", notFound("case " + suite + "/" + id)
	}
	return c, digest, err
}

// Cases returns the latest version of every case of a suite, or of every
// suite when suite is "", by suite and case id.
func (db *DB) Cases(ctx context.Context, suite string) ([]store.CaseVersion, error) {
	query := "SELECT " + caseColumns + " FROM case_versions c WHERE version = (SELECT MAX(version) FROM case_versions l WHERE l.suite = c.suite AND l.case_id = c.case_id)"
	var args []any
	if suite != "" {
		query += " AND suite = ?"
		args = append(args, suite)
	}
	query += " ORDER BY suite, case_id"
	out, err := db.queryCases(ctx, query, args...)
	if err != nil {
		return nil, fmt.Errorf("store: cases of suite %q: %w", suite, err)
	}
	return out, nil
}

// CaseHistory returns every version of one case, oldest first.
func (db *DB) CaseHistory(ctx context.Context, suite, caseID string) ([]store.CaseVersion, error) {
	out, err := db.queryCases(ctx, "SELECT "+caseColumns+" FROM case_versions WHERE suite = ? AND case_id = ? ORDER BY version", suite, caseID)
	if err == nil && len(out) == 0 {
		err = notFound("no such case")
	}
	if err != nil {
		return nil, fmt.Errorf("store: history of case %s/%s: %w", suite, caseID, err)
	}
	return out, nil
}

func (db *DB) queryCases(ctx context.Context, query string, args ...any) ([]store.CaseVersion, error) {
	rows, err := db.sql.QueryContext(ctx, db.q(query), args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []store.CaseVersion
	for rows.Next() {
		c, err := scanCase(rows)
		if err != nil {
			return nil, err
		}
		out = append(out, c)
	}
	return out, rows.Err()
}

// scanCase scans the caseColumns, and then extra.
func scanCase(row interface{ Scan(...any) error }, extra ...any) (store.CaseVersion, error) {
	var c store.CaseVersion
	var tags string
	var created int64
	dest := append([]any{&c.Key, &c.Suite, &c.ID, &c.Version, &c.Name, &tags, &c.Definition, &c.Source, &created}, extra...)
	if err := row.Scan(dest...); err != nil {
		return store.CaseVersion{}, err
	}
	if err := json.Unmarshal([]byte(tags), &c.Tags); err != nil {
		return store.CaseVersion{}, fmt.Errorf("case %s/%s version %d: tags: %w", c.Suite, c.ID, c.Version, err)
	}
	c.Tags = nonEmpty(c.Tags)
	c.Definition = nonEmpty(c.Definition)
	c.Created = fromMicros(created)
	return c, nil
}

// caseDigest identifies a case's content: its name, tags and definition.
func caseDigest(c store.CaseDef) string {
	h := sha256.New()
	field := func(b []byte) {
		h.Write(binary.BigEndian.AppendUint64(nil, uint64(len(b))))
		h.Write(b)
	}
	field([]byte(c.Name))
	field(binary.BigEndian.AppendUint64(nil, uint64(len(c.Tags))))
	for _, t := range c.Tags {
		field([]byte(t))
	}
	field(c.Definition)
	return hex.EncodeToString(h.Sum(nil))
}

// nonEmpty returns nil for an empty slice, so that nil and empty read
// back alike.
func nonEmpty[S ~[]E, E any](s S) S {
	if len(s) == 0 {
		return nil
	}
	return s
}

// nonNil returns an empty slice for nil, for NOT NULL columns.
func nonNil(b []byte) []byte {
	if b == nil {
		return []byte{}
	}
	return b
}
