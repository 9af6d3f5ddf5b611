package main

import (
	"cmp"
	"context"
	"os"
	"strings"

	flag "github.com/spf13/pflag"

	"github.com/gavelhq/gavel/store"
	"github.com/gavelhq/gavel/store/postgres"
	"github.com/gavelhq/gavel/store/sqlite"
)

// defaultDB is where results go unless --db or GAVEL_DB names another
// database.
const defaultDB = ".gavel/gavel.db"

// dbFlag adds --db to fs.
func dbFlag(fs *flag.FlagSet) *string {
	return fs.String("db", "", "the results database: a SQLite file, or a postgres:// URL (default: $GAVEL_DB, else "+defaultDB+")")
}

// openStore opens the results database dsn names: PostgreSQL for a
// postgres:// URL, else a SQLite file (created on first use).
func openStore(ctx context.Context, dsn string) (store.Store, error) {
	dsn = cmp.Or(dsn, os.Getenv("GAVEL_DB"), defaultDB)
	if strings.HasPrefix(dsn, "postgres://") || strings.HasPrefix(dsn, "postgresql://") {
		return postgres.Open(ctx, dsn)
	}
	return sqlite.Open(strings.TrimPrefix(dsn, "sqlite:"))
}
