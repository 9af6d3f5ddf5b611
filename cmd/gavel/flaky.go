package main

import (
	"context"
	"fmt"
	"io"

	flag "github.com/spf13/pflag"

	"github.com/gavelhq/gavel/eval"
	"github.com/gavelhq/gavel/store"
)

const flakyHelp = `Usage: gavel flaky [flags]

Lists the cases that were unstable over their suite's recent finished
runs, the most unstable first: their flip rate (the share of the runs in
which the case was FLAKY, or came out otherwise than in the run before),
the runs that judged it, its outcomes oldest first, and its quarantine
(gavel quarantine; a suite's flaky: quarantine_after). A stable case is
left out, unless quarantined.

Examples:
  gavel flaky
  gavel flaky --suite support-desk --runs 20
  gavel flaky --format json

Flags:
`

func flakyCommand(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("flaky", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() { fmt.Fprint(stderr, flakyHelp); fs.PrintDefaults() }
	db := dbFlag(fs)
	suite := fs.String("suite", "", "only this `suite` (default: every suite with runs)")
	runs := fs.Int("runs", store.DefaultFlakyRuns, "how many of each suite's recent finished runs to read")
	format := fs.String("format", "text", "text or json")
	if code, ok := parse(fs, args); !ok {
		return code
	}
	if fs.NArg() != 0 || *runs < 2 || (*format != "text" && *format != "json") {
		fmt.Fprintln(stderr, "gavel flaky: want no arguments, --runs of 2 or more, and --format text or json")
		return eval.ExitUsage
	}
	ctx := context.Background()
	st, err := eval.OpenStore(ctx, *db)
	if err != nil {
		fmt.Fprintln(stderr, "gavel flaky: the results database:", err)
		return eval.ExitInfra
	}
	defer st.Close()
	list, err := store.Flaky(ctx, st, *suite, *runs)
	if err != nil {
		fmt.Fprintln(stderr, "gavel flaky:", err)
		return eval.ExitInfra
	}
	return exitOK(eval.WriteFlaky(stdout, list, *runs, *format == "json"))
}
