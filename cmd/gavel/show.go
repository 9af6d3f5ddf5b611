package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"slices"

	flag "github.com/spf13/pflag"

	"github.com/gavelhq/gavel"
	"github.com/gavelhq/gavel/eval"
	"github.com/gavelhq/gavel/report"
	"github.com/gavelhq/gavel/store"
)

const showHelp = `Usage: gavel show [flags] RUN [CASE]

Prints a stored run as gavel run printed it, or one of its cases turn by
turn: the conversation, the tool calls with their arguments and results,
and each judge's score and reasoning.

Examples:
  gavel show 20261121-101500-a1b2
  gavel show 20261121-101500-a1b2 case_005

Flags:
`

const reportHelp = `Usage: gavel report [flags] RUN

Renders a stored run again, in any report format.

Examples:
  gavel report --format junit 20261121-101500-a1b2 > junit.xml
  gavel report --format html --out run.html 20261121-101500-a1b2

Flags:
`

func showCommand(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("show", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() { fmt.Fprint(stderr, showHelp); fs.PrintDefaults() }
	db := dbFlag(fs)
	if code, ok := parse(fs, args); !ok {
		return code
	}
	if fs.NArg() < 1 || fs.NArg() > 2 {
		fs.Usage()
		return eval.ExitUsage
	}
	stored, code := loadRun(*db, fs.Arg(0), "show", stderr)
	if stored == nil {
		return code
	}
	run := stored.Run
	if fs.NArg() == 2 {
		id := fs.Arg(1)
		i := slices.IndexFunc(run.Cases, func(cr gavel.CaseResult) bool { return cr.ID() == id })
		if i < 0 {
			fmt.Fprintf(stderr, "gavel show: run %s has no case %q\n", stored.Info.ID, id)
			return eval.ExitUsage
		}
		fmt.Fprintln(stdout, eval.RunHeader(stored.Info))
		return exitOK(report.WriteCase(stdout, &run.Cases[i]))
	}
	fmt.Fprintln(stdout, eval.RunHeader(stored.Info))
	return exitOK(report.Write(stdout, report.Text, run, report.Options{Version: version}))
}

func reportCommand(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("report", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() { fmt.Fprint(stderr, reportHelp); fs.PrintDefaults() }
	db := dbFlag(fs)
	formatName := fs.String("format", "text", "text, json, junit, markdown or html")
	out := fs.String("out", "", "write to this `file` instead of standard output")
	verbose := fs.Bool("verbose", false, "every case in detail, passed ones too")
	if code, ok := parse(fs, args); !ok {
		return code
	}
	if fs.NArg() != 1 {
		fs.Usage()
		return eval.ExitUsage
	}
	format, err := report.ParseFormat(*formatName)
	if err != nil {
		fmt.Fprintln(stderr, "gavel report: --format:", err)
		return eval.ExitUsage
	}
	stored, code := loadRun(*db, fs.Arg(0), "report", stderr)
	if stored == nil {
		return code
	}
	opts := report.Options{Verbose: *verbose, Version: version}
	if *out != "" {
		if err := eval.WriteReportFile(*out, format, stored.Run, opts); err != nil {
			fmt.Fprintln(stderr, "gavel report:", err)
			return eval.ExitInfra
		}
		return eval.ExitPassed
	}
	return exitOK(report.Write(stdout, format, stored.Run, opts))
}

// loadRun reads run id from the database, whole; on failure it says why
// and returns the exit code.
func loadRun(db, id, command string, stderr io.Writer) (*store.StoredRun, int) {
	stored, err := eval.LoadRun(context.Background(), db, id)
	if err == nil {
		return stored, eval.ExitPassed
	}
	fmt.Fprintf(stderr, "gavel %s: %v\n", command, err)
	if unknown := (*eval.UnknownRunError)(nil); errors.As(err, &unknown) {
		return nil, eval.ExitUsage
	}
	return nil, eval.ExitInfra
}
