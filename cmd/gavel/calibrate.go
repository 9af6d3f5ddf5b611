package main

import (
	"context"
	"errors"
	"fmt"
	"io"

	flag "github.com/spf13/pflag"

	"github.com/gavelhq/gavel"
	"github.com/gavelhq/gavel/eval"
	"github.com/gavelhq/gavel/importer"
	"github.com/gavelhq/gavel/report"
	"github.com/gavelhq/gavel/store"
)

const calibrateHelp = `Usage: gavel calibrate [flags]
       gavel calibrate --judgments FILE --labels FILE [flags]

Measures how far the judges agree with people's labels. A label puts a
judgment (a verdict, or one judge of a jury or tier) in a category of its
scale: pass or fail; a categorical score's name (win, tie, loss); a
score's number (4 of 1..5). Labels given in the web app (gavel serve) or
imported (gavel labels import) are compared with the judge's category on
the same scale; a label that only says "correct" or "wrong" counts as the
judge's category or, on a pass/fail scale, the other one. Each person's
current label counts once: relabelling replaces, it does not add.

It prints the agreement, Cohen's kappa over the real categories (the
judge's against the people's, a k×k table) with each category's base
rate and the agreement on it, and a warning when a skewed base rate makes
kappa misleading; on a numeric scale (1..5, 1..10) the linear and
quadratic weighted kappas; with more than two raters (two people or more
beside the judge) Krippendorff's alpha of them all at once; how far
people's scores are from the judge's, the agreement of every two people
on the judgments both labelled (inter-annotator kappa), and each judgment
people disagreed with. Each kappa and alpha has its 95% bootstrap
interval over the judgments (seeded: the same labels print the same
intervals), from 20 judgments on. Only judgments a model made count (answered from Gavel's cache or
not): rules alone need no calibration. A judge is calibrated when it agrees on at least 85% of at
least 50 of them; until then, read its verdicts rather than trust them.

With --judgments and --labels it needs no run and no database: it
measures an outside judge's outputs (item, label) against people's
labels (item, rater, label), CSV or JSON Lines (docs/labels.md), so a
published judge can be checked before it is adopted.

The exit code is 0, or 1 with --require when the judge is not calibrated;
2 when --suite names a suite the database has no run of.

Examples:
  gavel calibrate --suite support-desk
  gavel calibrate --suite support-desk --since 2026-11-01
  gavel calibrate --suite support-desk --judgment tiered/jury/tone
  gavel calibrate --suite support-desk --prompt-version 3f9a2c
  gavel calibrate --judgments llmbar-judge.jsonl --labels llmbar-gold.jsonl
  gavel calibrate --suite support-desk --format json | jq .agreement
  gavel calibrate --suite support-desk --require   # gate a CI job on it

Flags:
`

func calibrateCommand(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("calibrate", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() { fmt.Fprint(stderr, calibrateHelp); fs.PrintDefaults() }
	db := dbFlag(fs)
	suite := fs.String("suite", "", "only the labels of this suite's runs (default: every suite)")
	since := fs.String("since", "", "only the labels of runs started on or after this `date` (2026-11-01, or an RFC 3339 time)")
	labelledSince := fs.String("labelled-since", "", "only the labels given on or after this `date`")
	judgment := fs.String("judgment", "", "only the labels of this judgment `path` (tiered/jury/tone; \".\" for the verdicts alone)")
	promptVersion := fs.String("prompt-version", "", "only the labels of judgments made with this prompt `version` (its first hex digits, as the run's JSON report shows a judgment's \"prompt\")")
	judgmentsFile := fs.String("judgments", "", "an outside judge's outputs, `file` of item and label (CSV or JSON Lines); with --labels, no database is read")
	labelsFile := fs.String("labels", "", "people's labels of the outside judgments, `file` of item, rater and label")
	formatName := fs.String("format", "text", "text or json")
	require := fs.Bool("require", false, "exit 1 unless the judge is calibrated")
	if code, ok := parse(fs, args); !ok {
		return code
	}
	if fs.NArg() != 0 {
		fs.Usage()
		return eval.ExitUsage
	}
	format, err := report.ParseFormat(*formatName)
	if err != nil || (format != report.Text && format != report.JSON) {
		fmt.Fprintf(stderr, "gavel calibrate: --format %s: want text or json\n", *formatName)
		return eval.ExitUsage
	}
	var checks []gavel.LabelCheck
	title := *suite
	switch {
	case (*judgmentsFile == "") != (*labelsFile == ""):
		fmt.Fprintln(stderr, "gavel calibrate: --judgments and --labels go together: the judge's outputs and people's labels of the same items")
		return eval.ExitUsage
	case *judgmentsFile != "":
		if *suite != "" || *since != "" || *labelledSince != "" || *judgment != "" || *promptVersion != "" {
			fmt.Fprintln(stderr, "gavel calibrate: --judgments and --labels read files, not the database: leave out --suite, --since, --labelled-since, --judgment and --prompt-version")
			return eval.ExitUsage
		}
		if checks, err = importer.ExternalChecks(*judgmentsFile, *labelsFile); err != nil {
			fmt.Fprintln(stderr, "gavel calibrate:", err)
			return eval.ExitUsage
		}
		title = *judgmentsFile
	default:
		filter := store.LabelFilter{Suite: *suite, Judgment: *judgment, Prompt: *promptVersion}
		for _, d := range []struct{ flag, value string }{{"--since", *since}, {"--labelled-since", *labelledSince}} {
			if d.value == "" {
				continue
			}
			t, err := parseDate(d.value)
			if err != nil {
				fmt.Fprintf(stderr, "gavel calibrate: %s: %v\n", d.flag, err)
				return eval.ExitUsage
			}
			if d.flag == "--since" {
				filter.RunsSince = t
			} else {
				filter.LabelsSince = t
			}
		}
		ctx := context.Background()
		st, err := eval.OpenStore(ctx, *db)
		if err != nil {
			fmt.Fprintln(stderr, "gavel calibrate: the results database:", err)
			return eval.ExitInfra
		}
		defer st.Close()
		checks, err = eval.LabelChecks(ctx, st, filter)
		var unknown *eval.UnknownSuiteError
		switch {
		case errors.As(err, &unknown):
			fmt.Fprintln(stderr, "gavel calibrate:", err)
			return eval.ExitUsage
		case err != nil:
			fmt.Fprintln(stderr, "gavel calibrate:", err)
			return eval.ExitInfra
		}
	}
	c := gavel.Calibrate(checks)
	write := report.WriteCalibration
	if *judgmentsFile != "" {
		write = report.WriteOutsideCalibration
	}
	if err := write(stdout, format, title, c); err != nil {
		fmt.Fprintln(stderr, "gavel calibrate:", err)
		return eval.ExitInfra
	}
	if *require && !c.Calibrated() {
		return eval.ExitFailed
	}
	return eval.ExitPassed
}
