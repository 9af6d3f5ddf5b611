package eval

import (
	"cmp"
	"context"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/gavelhq/gavel/store"
	"github.com/gavelhq/gavel/store/postgres"
	"github.com/gavelhq/gavel/store/sqlite"
	"github.com/gavelhq/gavel/store/sqlstore"
)

// DefaultDB is where results go unless a run's Options.DB or the
// environment's GAVEL_DB names another database.
const DefaultDB = ".gavel/gavel.db"

// OpenStore opens the results database dsn names: PostgreSQL for a
// postgres:// URL, else a SQLite file (created on first use). An empty
// dsn is $GAVEL_DB, else DefaultDB.
func OpenStore(ctx context.Context, dsn string) (store.Store, error) {
	dsn = cmp.Or(dsn, os.Getenv("GAVEL_DB"), DefaultDB)
	if strings.HasPrefix(dsn, "postgres://") || strings.HasPrefix(dsn, "postgresql://") {
		return postgres.Open(ctx, dsn)
	}
	return sqlite.Open(strings.TrimPrefix(dsn, "sqlite:"))
}

// Migrate brings the schema of the results database dsn names up to date
// (opening it does), and, on PostgreSQL, its job queue's tables, and says
// on w at which versions they are (gavel migrate).
func Migrate(ctx context.Context, dsn string, w io.Writer) error {
	st, err := OpenStore(ctx, dsn)
	if err != nil {
		return err
	}
	defer st.Close()
	versioned, ok := st.(store.Migrator)
	if !ok {
		_, err := fmt.Fprintln(w, "The schema is up to date.")
		return err
	}
	current, latest, err := versioned.Version(ctx)
	if err != nil {
		return err
	}
	fmt.Fprintf(w, "The schema is at version %d of %d: up to date.\n", current, latest)
	if db, ok := st.(*sqlstore.DB); ok && db.Dialect() == sqlstore.Postgres {
		q, err := OpenQueue(ctx, db) // opening migrates
		if err != nil {
			return err
		}
		v, err := q.Migrate(ctx)
		if err != nil {
			return err
		}
		fmt.Fprintf(w, "The job queue's tables are at River's migration %d: up to date.\n", v)
	}
	return nil
}
