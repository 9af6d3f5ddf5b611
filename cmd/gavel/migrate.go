package main

import (
	"context"

	"fmt"
	"io"

	flag "github.com/spf13/pflag"

	"github.com/gavelhq/gavel/eval"
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
	if err := eval.Migrate(context.Background(), *db, stdout); err != nil {
		fmt.Fprintln(stderr, "gavel migrate:", err)
		return eval.ExitInfra
	}
	return eval.ExitPassed
}
