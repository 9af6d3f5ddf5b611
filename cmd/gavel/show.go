package main

import (
	"cmp"
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
		fmt.Fprintln(stdout, runHeader(stored.Info))
		return exitOK(report.WriteCase(stdout, &run.Cases[i]))
	}
	fmt.Fprintln(stdout, runHeader(stored.Info))
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
	return readRun(db, id, command, stderr, store.Store.Run)
}

// loadVerdicts reads run id as loadRun does, without its transcripts
// (store.Store.RunVerdicts): enough to compare it, for much less.
func loadVerdicts(db, id, command string, stderr io.Writer) (*store.StoredRun, int) {
	return readRun(db, id, command, stderr, store.Store.RunVerdicts)
}

// readRun reads run id from the database with read.
func readRun(db, id, command string, stderr io.Writer, read func(store.Store, context.Context, string) (*store.StoredRun, error)) (*store.StoredRun, int) {
	ctx := context.Background()
	st, err := eval.OpenStore(ctx, db)
	if err != nil {
		fmt.Fprintf(stderr, "gavel %s: the results database: %v\n", command, err)
		return nil, eval.ExitInfra
	}
	defer st.Close()
	stored, err := read(st, ctx, id)
	switch {
	case errors.Is(err, store.ErrNotFound):
		fmt.Fprintf(stderr, "gavel %s: no run %q (gavel runs lists them)\n", command, id)
		return nil, eval.ExitUsage
	case err != nil:
		fmt.Fprintf(stderr, "gavel %s: %v\n", command, err)
		return nil, eval.ExitInfra
	}
	return stored, eval.ExitPassed
}

// runHeader says who ran a run, where and when, and, on lines of their
// own, which run it carries on or rejudges, and why it is abandoned, when it is.
func runHeader(r store.RunInfo) string {
	s := fmt.Sprintf("Run %s (%s)", r.ID, r.Status)
	if r.Label != "" {
		s = fmt.Sprintf("Run %s, %q (%s)", r.ID, r.Label, r.Status)
	}
	if g := r.Git(); g != "" {
		s += " on " + g
	}
	if r.StartedBy != "" {
		s += " by " + r.StartedBy
	}
	if r.Continues != "" {
		s += fmt.Sprintf("\nCarries on run %s (%s): the trials kept from it were copied here; it is left as it was.",
			r.Continues, cmp.Or(r.Settings["continues_with"], "--resume"))
	}
	if from := r.ImportedFrom(); from != "" {
		s += "\nImported from " + from + " (gavel import): transcripts recorded elsewhere."
	}
	if r.Rejudges != "" {
		s += fmt.Sprintf("\nRejudges run %s: its stored transcripts were judged again here (gavel rejudge), without calling the agent; it is left as it was.", r.Rejudges)
	}
	if id := r.Settings["replay_tools"]; id != "" {
		s += fmt.Sprintf("\nReplays the tool results of run %s: its agent's tool calls were answered from that run's, not by the live servers (agent.replay_tools, --replay-tools).", id)
	}
	if r.Status == store.Running {
		s += fmt.Sprintf("\nRunning: %d trials of %d cases saved so far; no verdict yet.", r.SoFar.Trials, r.SoFar.Cases)
	}
	if r.Status == store.Abandoned {
		s += fmt.Sprintf("\nAbandoned: the process that ran it (pid %d on %s) is gone, or was not heard of since %s. "+
			"What it saved is below; gavel run --resume %s runs the rest.", r.PID, cmp.Or(r.Host, "its machine"), r.Heartbeat.Local().Format("2006-01-02 15:04:05"), r.ID)
	}
	return s
}
