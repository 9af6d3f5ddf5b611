package sqlstore

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io/fs"
	"slices"
	"strconv"
	"strings"
	"time"
)

// A NewerSchemaError is returned when the database was written by a newer
// Gavel than this one: its schema has migrations this Gavel does not know,
// so it is left alone.
type NewerSchemaError struct {
	// Current is the database's schema version; Latest is the newest this
	// Gavel knows.
	Current, Latest int
}

func (e *NewerSchemaError) Error() string {
	return fmt.Sprintf("this database was written by a newer Gavel (schema %d, this Gavel knows %d): upgrade Gavel", e.Current, e.Latest)
}

// A migration is one embedded schema change: NNNN_title.sql.
type migration struct {
	version int
	name    string
	sql     string
}

// loadMigrations reads the dialect's migrations, in version order. Their
// versions must count from 1 without a gap.
func loadMigrations(d Dialect) ([]migration, error) {
	dir, err := d.migrations()
	if err != nil {
		return nil, err
	}
	entries, err := fs.ReadDir(dir, ".")
	if err != nil {
		return nil, fmt.Errorf("read %s migrations: %w", d, err)
	}
	var out []migration
	for _, e := range entries {
		if e.IsDir() || !strings.HasSuffix(e.Name(), ".sql") {
			continue
		}
		num, _, _ := strings.Cut(e.Name(), "_")
		v, err := strconv.Atoi(num)
		if err != nil {
			return nil, fmt.Errorf("%s migration %s: the name must start with its version number", d, e.Name())
		}
		text, err := fs.ReadFile(dir, e.Name())
		if err != nil {
			return nil, err
		}
		out = append(out, migration{version: v, name: e.Name(), sql: string(text)})
	}
	slices.SortFunc(out, func(a, b migration) int { return a.version - b.version })
	for i, m := range out {
		if m.version != i+1 {
			return nil, fmt.Errorf("%s migration %s: want version %d", d, m.name, i+1)
		}
	}
	return out, nil
}

// statements splits a migration into its statements: they end with a
// semicolon at the end of a line. Comment lines are dropped.
func statements(sqlText string) []string {
	var out []string
	var cur strings.Builder
	for line := range strings.Lines(sqlText) {
		trimmed := strings.TrimSpace(line)
		if trimmed == "" || strings.HasPrefix(trimmed, "--") {
			continue
		}
		cur.WriteString(line)
		if strings.HasSuffix(trimmed, ";") {
			out = append(out, strings.TrimSpace(cur.String()))
			cur.Reset()
		}
	}
	if s := strings.TrimSpace(cur.String()); s != "" {
		out = append(out, s)
	}
	return out
}

// Version returns the database's schema version (0 for an empty
// database) and the newest this Gavel knows: the two differ before
// Migrate, or when a newer Gavel wrote the database.
func (db *DB) Version(ctx context.Context) (current, latest int, err error) {
	latest = len(db.migrations)
	current, err = db.schemaVersion(ctx, db.sql)
	if err != nil {
		return 0, latest, fmt.Errorf("read schema version: %w", err)
	}
	return current, latest, nil
}

// querier is a *sql.DB or a *sql.Tx.
type querier interface {
	QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row
}

// schemaVersion returns the highest version in schema_version, 0 when the
// table is not there.
func (db *DB) schemaVersion(ctx context.Context, q querier) (int, error) {
	var exists int
	if err := q.QueryRowContext(ctx, db.d.rebind(db.d.hasTable), "schema_version").Scan(&exists); err != nil {
		return 0, err
	}
	if exists == 0 {
		return 0, nil
	}
	var v sql.NullInt64
	if err := q.QueryRowContext(ctx, "SELECT MAX(version) FROM schema_version").Scan(&v); err != nil {
		return 0, err
	}
	return int(v.Int64), nil
}

// Migrate brings the database's schema up to the newest version this
// Gavel knows, one migration per transaction. Processes migrating at once
// take turns. A database written by a newer Gavel is left untouched, with
// a *NewerSchemaError.
func (db *DB) Migrate(ctx context.Context) error {
	current, latest, err := db.Version(ctx)
	if err != nil {
		return err
	}
	if current > latest {
		return &NewerSchemaError{Current: current, Latest: latest}
	}
	for _, m := range db.migrations[current:] {
		if err := db.apply(ctx, m); err != nil {
			return err
		}
	}
	return nil
}

// apply runs one migration in a transaction, unless another process
// applied it first.
func (db *DB) apply(ctx context.Context, m migration) error {
	err := db.write(ctx, func(tx *sql.Tx) error {
		if db.d.migrationLock != "" {
			if _, err := tx.ExecContext(ctx, db.d.migrationLock); err != nil {
				return err
			}
		}
		current, err := db.schemaVersion(ctx, tx)
		if err != nil {
			return err
		}
		switch {
		case current > len(db.migrations):
			return &NewerSchemaError{Current: current, Latest: len(db.migrations)}
		case current >= m.version:
			return nil // another process was first
		}
		for _, s := range statements(m.sql) {
			if _, err := tx.ExecContext(ctx, s); err != nil {
				return fmt.Errorf("%s: %w", firstLine(s), err)
			}
		}
		_, err = tx.ExecContext(ctx, db.d.rebind("INSERT INTO schema_version (version, applied_us) VALUES (?, ?)"), m.version, time.Now().UnixMicro())
		return err
	})
	var newer *NewerSchemaError
	if err != nil && !errors.As(err, &newer) {
		return fmt.Errorf("migrate to schema %d (%s): %w", m.version, m.name, err)
	}
	return err
}

func firstLine(s string) string {
	line, _, _ := strings.Cut(s, "\n")
	return line
}
