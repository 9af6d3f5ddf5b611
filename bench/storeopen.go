package main

import (
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/hex"
	"errors"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"time"

	_ "github.com/jackc/pgx/v5/stdlib" // registers the "pgx" driver, for the schema

	"github.com/gavelhq/gavel/store/postgres"
	"github.com/gavelhq/gavel/store/sqlite"
	"github.com/gavelhq/gavel/store/sqlstore"
)

// A benchDB is a database the store benchmark writes to and reads from.
type benchDB struct {
	Kind string // sqlite or postgres
	// Where names it: the SQLite file, or the PostgreSQL DSN with the
	// schema as its search_path (what -db takes).
	Where string
	// Fresh is true for a database made for the benchmark, false for one
	// given with -db.
	Fresh bool
	// Schema is a fresh PostgreSQL database's schema.
	Schema string
	// drop removes it: the temporary directory, or the schema.
	drop func() error
}

// open opens the store on the database, as gavel does (and migrates).
func (b *benchDB) open(ctx context.Context) (*sqlstore.DB, error) {
	if b.Kind == "postgres" {
		return postgres.Open(ctx, b.Where)
	}
	return sqlite.Open(b.Where)
}

// close removes a fresh database, unless keep: then it says where it is.
func (b *benchDB) close(keep bool) error {
	if b.drop == nil {
		return nil
	}
	if keep {
		fmt.Fprintf(os.Stderr, "bench: keeping the %s store: go run ./bench -db '%s'\n", b.Kind, b.Where)
		return nil
	}
	return b.drop()
}

// freshSQLite returns a new SQLite file in a temporary directory.
func freshSQLite() (*benchDB, error) {
	dir, err := os.MkdirTemp("", "gavel-bench-store-")
	if err != nil {
		return nil, err
	}
	return &benchDB{Kind: "sqlite", Where: filepath.Join(dir, "gavel.db"), Fresh: true,
		drop: func() error { return os.RemoveAll(dir) }}, nil
}

// freshPostgres creates a schema of its own in the database at dsn and
// returns a DSN whose tables live in it; dropping it drops the schema and
// everything in it.
func freshPostgres(ctx context.Context, dsn string) (*benchDB, error) {
	var b [6]byte
	rand.Read(b[:])
	schema := "gavel_bench_" + hex.EncodeToString(b[:])
	db, err := sql.Open("pgx", dsn)
	if err != nil {
		return nil, fmt.Errorf("PostgreSQL: %w", err)
	}
	cctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	if _, err := db.ExecContext(cctx, "CREATE SCHEMA "+schema); err != nil {
		db.Close()
		return nil, fmt.Errorf("PostgreSQL: create schema %s: %w", schema, err)
	}
	where, err := withParam(dsn, "search_path", schema)
	if err != nil {
		db.Close()
		return nil, err
	}
	return &benchDB{Kind: "postgres", Where: where, Fresh: true, Schema: schema, drop: func() error {
		defer db.Close()
		// Not the caller's context: an interrupted benchmark drops its
		// schema too.
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
		defer cancel()
		if _, err := db.ExecContext(ctx, "DROP SCHEMA "+schema+" CASCADE"); err != nil {
			return fmt.Errorf("PostgreSQL: drop schema %s: %w", schema, err)
		}
		return nil
	}}, nil
}

// existingDB returns the store at where, a postgres:// URL or an SQLite
// file, as -db names it.
func existingDB(where string) (*benchDB, error) {
	if strings.HasPrefix(where, "postgres://") || strings.HasPrefix(where, "postgresql://") {
		return &benchDB{Kind: "postgres", Where: where}, nil
	}
	if _, err := os.Stat(where); err != nil {
		return nil, fmt.Errorf("-db %s: %w", where, err)
	}
	return &benchDB{Kind: "sqlite", Where: where}, nil
}

// withParam adds a parameter to a DSN, a URL or key=value pairs.
func withParam(dsn, key, value string) (string, error) {
	if strings.HasPrefix(dsn, "postgres://") || strings.HasPrefix(dsn, "postgresql://") {
		u, err := url.Parse(dsn)
		if err != nil {
			return "", errors.New("the PostgreSQL DSN is not a valid URL")
		}
		q := u.Query()
		q.Set(key, value)
		u.RawQuery = q.Encode()
		return u.String(), nil
	}
	return dsn + " " + key + "=" + value, nil
}

// size returns how much room the store takes: the SQLite file with its
// WAL, or the tables of the PostgreSQL schema with their indexes and
// TOAST.
func (b *benchDB) size(ctx context.Context, s *sqlstore.DB) (int64, error) {
	if b.Kind == "postgres" {
		var n int64
		err := s.SQL().QueryRowContext(ctx, `SELECT coalesce(sum(pg_total_relation_size(c.oid)), 0)::bigint
			FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
			WHERE n.nspname = current_schema() AND c.relkind = 'r'`).Scan(&n)
		return n, err
	}
	var n int64
	for _, suffix := range []string{"", "-wal"} {
		fi, err := os.Stat(b.Where + suffix)
		if errors.Is(err, os.ErrNotExist) {
			continue
		} else if err != nil {
			return 0, err
		}
		n += fi.Size()
	}
	return n, nil
}

// settle does what the database would do by itself between a bulk load
// and a user's query: on PostgreSQL, autovacuum analyzes tables that
// changed (a store that grew to a million trials over months has been
// analyzed many times); SQLite gathers no statistics unless told, and the
// store never tells it, so nothing is done there.
func (b *benchDB) settle(ctx context.Context, s *sqlstore.DB) error {
	if b.Kind != "postgres" {
		return nil
	}
	// The store's tables only: unqualified, they are the schema's.
	_, err := s.SQL().ExecContext(ctx, "ANALYZE case_versions, runs, run_cases, trials, trial_scores, run_criteria, labels")
	return err
}
