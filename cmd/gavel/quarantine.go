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

const quarantineHelp = `Usage: gavel quarantine add [flags] SUITE CASE
       gavel quarantine remove SUITE CASE
       gavel quarantine list [SUITE]

Quarantines a case by hand: it still runs and is reported, but is left
out of its suite's gate (its pass rate, its interval, gavel compare)
until it is removed from quarantine. For a case that flips for a reason
nobody can fix today, so that it does not teach a team to ignore the
gate; gavel flaky lists the candidates. A suite can quarantine its
unstable cases by itself: flaky: {quarantine_after: 3}.

Examples:
  gavel quarantine add --reason "answers with today's date" support-desk case_007
  gavel quarantine list
  gavel quarantine remove support-desk case_007

Flags:
`

func quarantineCommand(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		fmt.Fprint(stderr, quarantineHelp)
		return eval.ExitUsage
	}
	verb := args[0]
	fs := flag.NewFlagSet("quarantine "+verb, flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() { fmt.Fprint(stderr, quarantineHelp); fs.PrintDefaults() }
	db := dbFlag(fs)
	reason := fs.String("reason", "", "add: why the case is quarantined (required)")
	by := fs.String("by", eval.StartedBy(), "add: who quarantines it")
	if code, ok := parse(fs, args[1:]); !ok {
		return code
	}
	switch {
	case verb == "add" && (fs.NArg() != 2 || *reason == ""):
		fmt.Fprintln(stderr, "gavel quarantine add: give --reason, the suite and the case: gavel quarantine add --reason WHY SUITE CASE")
		return eval.ExitUsage
	case verb == "remove" && fs.NArg() != 2, verb == "list" && fs.NArg() > 1:
		fs.Usage()
		return eval.ExitUsage
	case verb != "add" && verb != "remove" && verb != "list":
		fmt.Fprintf(stderr, "gavel quarantine: unknown action %q: want add, remove or list\n", verb)
		return eval.ExitUsage
	}
	ctx := context.Background()
	st, err := eval.OpenStore(ctx, *db)
	if err != nil {
		fmt.Fprintln(stderr, "gavel quarantine: the results database:", err)
		return eval.ExitInfra
	}
	defer st.Close()
	q, ok := st.(store.Quarantines)
	if !ok {
		fmt.Fprintln(stderr, "gavel quarantine: this results database keeps no quarantines")
		return eval.ExitInfra
	}
	suite, id := fs.Arg(0), fs.Arg(1)
	switch verb {
	case "add":
		if err := q.Quarantine(ctx, store.Quarantine{Suite: suite, CaseID: id, Reason: *reason, By: *by}); err != nil {
			fmt.Fprintln(stderr, "gavel quarantine add:", err)
			return eval.ExitInfra
		}
		fmt.Fprintf(stdout, "Quarantined %s of %s: it runs and is reported, but is left out of the gate until gavel quarantine remove %s %s.\n", id, suite, suite, id)
	case "remove":
		err := q.Release(ctx, suite, id)
		if errors.Is(err, store.ErrNotFound) {
			fmt.Fprintf(stderr, "gavel quarantine remove: %s of %s is not quarantined (gavel quarantine list)\n", id, suite)
			return eval.ExitUsage
		} else if err != nil {
			fmt.Fprintln(stderr, "gavel quarantine remove:", err)
			return eval.ExitInfra
		}
		fmt.Fprintf(stdout, "Released %s of %s: it gates again.\n", id, suite)
	default:
		list, err := q.Quarantined(ctx, suite)
		if err != nil {
			fmt.Fprintln(stderr, "gavel quarantine list:", err)
			return eval.ExitInfra
		}
		return exitOK(eval.WriteQuarantines(stdout, list))
	}
	return eval.ExitPassed
}
