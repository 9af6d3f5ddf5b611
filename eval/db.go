package eval

import (
	"cmp"
	"context"
	"os"
	"strings"

	"github.com/gavelhq/gavel/store"
	"github.com/gavelhq/gavel/store/postgres"
	"github.com/gavelhq/gavel/store/sqlite"
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
