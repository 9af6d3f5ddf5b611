package main

import (
	"context"
	"errors"
	"fmt"
	"io"

	flag "github.com/spf13/pflag"

	"github.com/gavelhq/gavel/eval"
	"github.com/gavelhq/gavel/store"
)

const runsHelp = `Usage: gavel runs [flags]

Lists the stored runs, newest first: id, suite, status, pass rate, cases,
cost, when, the git branch and commit they ran on (main@539a404a+dirty:
from a tree with changes not committed, Gavel's .gavel/ and reports/
aside), and the run each carries on (gavel run --resume or
--retry-errors). A run is running,
passed, failed, incomplete (stopped before every selected trial ran:
gavel show says why), errored (the agent or a provider could not be
reached), or abandoned: left running by a process that is gone (it
crashed, or was killed) or was not heard of for 5 minutes. A run not
finished has no pass rate or cost yet: its cases column counts what it
saved so far, "3 (88 trials so far)".

Examples:
  gavel runs
  gavel runs --suite support-desk --status failed --limit 10
  gavel runs --branch main --db postgres://gavel@db.internal/gavel

Flags:
`

func runsCommand(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("runs", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() { fmt.Fprint(stderr, runsHelp); fs.PrintDefaults() }
	db := dbFlag(fs)
	var f store.RunFilter
	var status string
	fs.StringVar(&f.Suite, "suite", "", "only runs of this suite")
	fs.StringVar(&status, "status", "", "only runs with this status: running, passed, failed, incomplete, errored or abandoned")
	fs.StringVar(&f.Branch, "branch", "", "only runs on this git branch")
	fs.IntVar(&f.Limit, "limit", 20, "at most this many runs")
	if code, ok := parse(fs, args); !ok {
		return code
	}
	var err error
	if f.Status, err = store.ParseStatus(status); err != nil {
		fmt.Fprintf(stderr, "gavel runs: --status %v\n", err)
		return eval.ExitUsage
	}
	ctx := context.Background()
	st, err := eval.OpenStore(ctx, *db)
	if err != nil {
		fmt.Fprintln(stderr, "gavel runs: the results database:", err)
		return eval.ExitInfra
	}
	defer st.Close()
	runs, err := st.Runs(ctx, f)
	if err != nil {
		fmt.Fprintln(stderr, "gavel runs:", err)
		return eval.ExitInfra
	}
	if len(runs) == 0 {
		fmt.Fprintln(stderr, "gavel runs: no runs stored yet: gavel run stores every run")
		return eval.ExitPassed
	}
	return exitOK(eval.WriteRuns(stdout, runs))
}

// parse parses a command's flags; ok is false when the command must end
// with code (-h asked for help: 0; a bad flag: 2, said on the flag set's
// output).
func parse(fs *flag.FlagSet, args []string) (code int, ok bool) {
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return eval.ExitPassed, false
		}
		// pflag says nothing of the error when it continues on one.
		fmt.Fprintf(fs.Output(), "gavel %s: %v\n", fs.Name(), err)
		return eval.ExitUsage, false
	}
	return eval.ExitPassed, true
}

// exitOK is eval.ExitPassed, or eval.ExitInfra when writing the output failed.
func exitOK(err error) int {
	if err != nil {
		return eval.ExitInfra
	}
	return eval.ExitPassed
}
