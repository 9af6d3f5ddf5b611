package main

import (
	"context"
	"fmt"
	"io"

	"github.com/gavelhq/gavel/eval"
	flag "github.com/spf13/pflag"
)

const mergeHelp = `Usage: gavel merge [flags] FILE...
       gavel merge --run-label LABEL [flags]

Puts the shards of a run together as one run, and decides its gate on the
whole run. The shards ran with gavel run --shard K/N, each on its own
machine:

  - as report files: each wrote its JSON report (--out shard-K.json), and
    gavel merge reads them all, checks that they are the N shards of one
    run (the same suite, version of it, run label and selection, each
    shard once, each with its own trials), computes every verdict,
    outcome and number again from the trials' judgments (what a report
    says its trials came to is not taken on trust), stores the merged
    run, prints its report, and writes --out files as gavel run does
    ($GITHUB_STEP_SUMMARY too, in GitHub Actions);
  - in a shared database: each joined the run labelled LABEL
    (--run-label), and gavel merge --run-label LABEL reports that run.

Exit codes, as gavel run's, on the whole run:
  0  the run is complete and reached its threshold
  1  it missed its threshold, or --fail-fast stopped a shard
  2  a usage error, or files that are not the shards of one run (shards of
     other suites, runs or selections, of another N, or of two versions
     of the suite; a shard given twice or missing; a trial in the wrong
     shard), or that hold values no run writes: nothing is stored
  3  the agent or a provider could not be reached for the whole run (every
     trial was an ERROR for it), or the results database failed
  4  a bug in Gavel: please report it
  5  the run is incomplete: a shard was interrupted or ran out of budget,
     or (--run-label) a shard has not ended yet

Examples:
  gavel merge shards/*.json --out junit=gavel-junit.xml
  gavel merge --run-label "$GITHUB_RUN_ID" --db "$GAVEL_DB" --out report.html

Flags:
`

func mergeCommand(args []string, stdout, stderr io.Writer) int {
	fs, o, label := mergeFlagSet(stderr)
	if code, ok := parse(fs, args); !ok {
		return code
	}
	if (*label == "") == (fs.NArg() == 0) {
		fmt.Fprintln(stderr, "gavel merge: give the shards' JSON reports, or --run-label LABEL (not both)")
		fs.Usage()
		return eval.ExitUsage
	}
	session := &eval.Session{Options: *o, Stdout: stdout, Stderr: stderr, Version: version, Command: "gavel merge"}
	return session.Merge(context.Background(), fs.Args(), *label)
}

// mergeFlagSet returns gavel merge's flags: gavel run's report flags,
// the database, and the run label.
func mergeFlagSet(stderr io.Writer) (*flag.FlagSet, *eval.Options, *string) {
	var o eval.Options
	fs := flag.NewFlagSet("merge", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() { fmt.Fprint(stderr, mergeHelp); fs.PrintDefaults() }
	dbFlagVar(fs, &o.DB)
	label := fs.String("run-label", "", "report the run the shards given this `label` joined in the results database (gavel run --shard K/N --run-label), instead of merging files")
	reportFlags(fs, &o)
	return fs, &o, label
}
