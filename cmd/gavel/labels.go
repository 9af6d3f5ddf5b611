package main

import (
	"context"
	"fmt"
	"io"

	flag "github.com/spf13/pflag"

	"github.com/gavelhq/gavel/eval"
	"github.com/gavelhq/gavel/importer"
	"github.com/gavelhq/gavel/store"
)

const labelsHelp = `Usage: gavel labels export [flags]
       gavel labels import [flags] FILE...

Moves people's labels on judgments between the results database and
files: CSV with a header row, or JSON Lines (docs/labels.md). A label is
the judgment's category on its scale (pass or fail, a categorical
score's name, a 1..5 score's number) or a verdict (correct or wrong),
with perhaps the person's own score (0..1) and a comment.

export writes the current labels of a suite's runs (every suite's
without --suite); import records the labels of files, each file whole or
not at all: a mistake is reported as FILE:LINE and nothing of that file
is recorded. A label must name a judgment the trial's verdict has, with
a category of that judgment's scale, and a person labels a judgment once
in a file. An imported label becomes its author's current label on that
judgment, unless a newer one is there (it then goes into the history); a
label the same as the current one changes nothing, so importing a file
again is harmless.

Examples:
  gavel labels export --suite support-desk --format csv > labels.csv
  gavel labels import labels.csv

Flags:
`

func labelsCommand(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		fmt.Fprint(stderr, labelsHelp)
		return eval.ExitUsage
	}
	switch args[0] {
	case "export", "import":
	case "-h", "-help", "--help", "help":
		fmt.Fprint(stdout, labelsHelp)
		return eval.ExitPassed
	default:
		fmt.Fprintf(stderr, "gavel labels: unknown action %q: want export or import\n\n%s", args[0], labelsHelp)
		return eval.ExitUsage
	}
	verb := args[0]
	fs := flag.NewFlagSet("labels "+verb, flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() { fmt.Fprint(stderr, labelsHelp); fs.PrintDefaults() }
	db := dbFlag(fs)
	suite := fs.String("suite", "", "export: the labels of this suite's runs (default: every suite)")
	format := fs.String("format", "jsonl", "export: csv or jsonl")
	since := fs.String("since", "", "export: the labels of runs started on or after this `date` (2026-11-01, or an RFC 3339 time)")
	if code, ok := parse(fs, args[1:]); !ok {
		return code
	}
	if verb == "export" && fs.NArg() != 0 || verb == "import" && fs.NArg() == 0 {
		fs.Usage()
		return eval.ExitUsage
	}
	if *format != "csv" && *format != "jsonl" {
		fmt.Fprintf(stderr, "gavel labels: --format %s: want csv or jsonl\n", *format)
		return eval.ExitUsage
	}
	filter := store.LabelFilter{Suite: *suite}
	if *since != "" {
		t, err := eval.ParseDate(*since)
		if err != nil {
			fmt.Fprintf(stderr, "gavel labels: --since: %v\n", err)
			return eval.ExitUsage
		}
		filter.RunsSince = t
	}
	ctx := context.Background()
	st, err := eval.OpenStore(ctx, *db)
	if err != nil {
		fmt.Fprintln(stderr, "gavel labels: the results database:", err)
		return eval.ExitInfra
	}
	defer st.Close()
	if verb == "export" {
		checks, err := st.LabelChecks(ctx, filter)
		if err != nil {
			fmt.Fprintln(stderr, "gavel labels:", err)
			return eval.ExitInfra
		}
		return exitOK(importer.WriteLabels(stdout, *format == "csv", checks))
	}
	return eval.ImportLabels(ctx, st, fs.Args(), stdout, stderr)
}
