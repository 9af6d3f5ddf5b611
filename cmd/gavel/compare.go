package main

import (
	"flag"
	"fmt"
	"io"

	"github.com/gavelhq/gavel"
	"github.com/gavelhq/gavel/report"
)

const compareHelp = `Usage: gavel compare [flags] RUN_A RUN_B

Compares run B with run A (the reference: main, say): the regressions
(cases that passed in A and do not in B), the fixes, the cases only one
run has, and how every criterion's mean score moved. The exit code is 1
when there are regressions, so a pull request can be gated on "no worse
than main"; 0 otherwise.

Examples:
  gavel compare 20261120-180000-9f3e 20261121-101500-a1b2
  gavel compare --format markdown A B >> "$GITHUB_STEP_SUMMARY"

Flags:
`

func compareCommand(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("compare", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() { fmt.Fprint(stderr, compareHelp); fs.PrintDefaults() }
	db := dbFlag(fs)
	formatName := fs.String("format", "text", "text, json, markdown or html")
	verbose := fs.Bool("verbose", false, "every change in detail")
	if code, ok := parse(fs, args); !ok {
		return code
	}
	if fs.NArg() != 2 {
		fs.Usage()
		return exitUsage
	}
	format, err := report.ParseFormat(*formatName)
	if err != nil || format == report.JUnit {
		fmt.Fprintf(stderr, "gavel compare: --format %s: want text, json, markdown or html\n", *formatName)
		return exitUsage
	}
	base, code := loadVerdicts(*db, fs.Arg(0), "compare", stderr)
	if base == nil {
		return code
	}
	head, code := loadVerdicts(*db, fs.Arg(1), "compare", stderr)
	if head == nil {
		return code
	}
	c := gavel.Compare(base.Run, head.Run)
	opts := report.ComparisonOptions{BaseLabel: base.Info.Label(), HeadLabel: head.Info.Label(), Verbose: *verbose, Version: version}
	if err := report.WriteComparison(stdout, format, c, opts); err != nil {
		fmt.Fprintln(stderr, "gavel compare:", err)
		return exitInfra
	}
	if c.HasRegressions() {
		return exitFailed
	}
	return exitPassed
}
