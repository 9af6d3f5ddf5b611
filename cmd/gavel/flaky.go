package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	flag "github.com/spf13/pflag"

	"github.com/gavelhq/gavel/eval"
	"github.com/gavelhq/gavel/report"
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
	if *format == "json" {
		if list == nil {
			list = []store.FlakyCase{}
		}
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		return exitOK(enc.Encode(list))
	}
	if len(list) == 0 {
		fmt.Fprintf(stdout, "No case flipped in its suite's last %d finished runs.\n", *runs)
		return eval.ExitPassed
	}
	w := tabwriter.NewWriter(stdout, 0, 0, 2, ' ', 0)
	fmt.Fprintln(w, "SUITE\tCASE\tFLIP RATE\tRUNS\tOUTCOMES\tQUARANTINED")
	for _, c := range list {
		outcomes := make([]string, len(c.Outcomes))
		for i, o := range c.Outcomes {
			outcomes[i] = string(o)
		}
		fmt.Fprintf(w, "%s\t%s\t%.0f%%\t%d\t%s\t%s\n", report.OneLine(c.Suite), report.OneLine(c.CaseID), 100*c.FlipRate, len(c.Outcomes),
			strings.Join(outcomes, " "), report.OneLine(c.Quarantined))
	}
	return exitOK(w.Flush())
}
