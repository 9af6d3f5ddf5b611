package main

import (
	"github.com/gavelhq/gavel/eval"
	flag "github.com/spf13/pflag"
)

// dbFlag adds --db to fs, and returns where it is parsed to.
func dbFlag(fs *flag.FlagSet) *string {
	var dsn string
	dbFlagVar(fs, &dsn)
	return &dsn
}

// dbFlagVar adds --db to fs, parsed to dsn.
func dbFlagVar(fs *flag.FlagSet, dsn *string) {
	fs.StringVar(dsn, "db", "", "the results database: a SQLite file, or a postgres:// URL (default: $GAVEL_DB, else "+eval.DefaultDB+")")
}
