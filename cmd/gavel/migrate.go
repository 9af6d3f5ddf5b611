package main

import (
	"context"

	"fmt"
	"io"

	flag "github.com/spf13/pflag"

	"github.com/gavelhq/gavel/eval"
	"github.com/gavelhq/gavel/store"
	"github.com/gavelhq/gavel/store/sqlstore"
)

const migrateHelp = `Usage: gavel migrate [flags]

Brings the results database's schema up to this Gavel's version. Every
command does so by itself when it opens the database; migrate does it
explicitly (before a deploy, say) and prints the versions. In PostgreSQL
it also migrates the job queue's tables (River's, for gavel run --queue
and gavel worker, which migrate them by themselves too). A database
written by a newer Gavel is refused, never changed.

Example:
  gavel migrate --db postgres://gavel@db.internal/gavel

Flags:
`

func migrateCommand(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("migrate", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() { fmt.Fprint(stderr, migrateHelp); fs.PrintDefaults() }
	db := dbFlag(fs)
	if code, ok := parse(fs, args); !ok {
		return code
	}
	ctx := context.Background()
	st, err := eval.OpenStore(ctx, *db) // opening migrates
	if err != nil {
		fmt.Fprintln(stderr, "gavel migrate:", err)
		return eval.ExitInfra
	}
	defer st.Close()
	versioned, ok := st.(store.Migrator)
	if !ok {
		fmt.Fprintln(stdout, "The schema is up to date.")
		return eval.ExitPassed
	}
	current, latest, err := versioned.Version(ctx)
	if err != nil {
		fmt.Fprintln(stderr, "gavel migrate:", err)
		return eval.ExitInfra
	}
	fmt.Fprintf(stdout, "The schema is at version %d of %d: up to date.\n", current, latest)
	if db, ok := st.(*sqlstore.DB); ok && db.Dialect() == sqlstore.Postgres {
		q, err := eval.OpenQueue(ctx, db) // opening migrates
		if err == nil {
			var v int
			v, err = q.Migrate(ctx)
			fmt.Fprintf(stdout, "The job queue's tables are at River's migration %d: up to date.\n", v)
		}
		if err != nil {
			fmt.Fprintln(stderr, "gavel migrate:", err)
			return eval.ExitInfra
		}
	}
	return eval.ExitPassed
}
