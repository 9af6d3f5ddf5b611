package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"time"

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

With --disagreements FILE it also writes the judgments people overruled
to FILE as few-shot examples a judge takes (examples: FILE): each the
trial's request and reply, the people's verdict and their comments.
With --compare-examples FILE it measures instead whether those examples
help: it splits the labelled cases in two (--held-out, --seed), judges
the stored transcripts of the held-out cases again with the suite's
judges that name FILE, once with the examples of the other cases and
once without any, and prints both kappas against the held-out labels
with their intervals, and the difference with its own (docs/labels.md).

The exit code is 0, or 1 with --require when the judge is not calibrated
(with --compare-examples: when the examples did not clearly help); 2
when --suite names a suite the database has no run of.

Examples:
  gavel calibrate --suite support-desk
  gavel calibrate --suite support-desk --since 2026-11-01
  gavel calibrate --suite support-desk --judgment tiered/jury/tone
  gavel calibrate --suite support-desk --prompt-version 3f9a2c
  gavel calibrate --judgments llmbar-judge.jsonl --labels llmbar-gold.jsonl
  gavel calibrate --suite support-desk --format json | jq .agreement
  gavel calibrate --suite support-desk --require   # gate a CI job on it
  gavel calibrate --suite support-desk --disagreements judges/examples.yaml
  gavel calibrate --suite support-desk --compare-examples judges/examples.yaml

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
	require := fs.Bool("require", false, "exit 1 unless the judge is calibrated (with --compare-examples: unless the examples clearly helped)")
	disagreements := fs.String("disagreements", "", "also write the judgments people overruled to `file`, as examples a judge takes (examples: file)")
	compareExamples := fs.String("compare-examples", "", "compare the judges that take the examples of `file` with and without them, on held-out labels")
	heldOut := fs.Float64("held-out", gavel.DefaultHoldoutShare, "with --compare-examples, the `share` of labelled cases held out to score the judges on")
	seed := fs.Uint64("seed", 1, "with --compare-examples, the `number` that picks the held-out cases")
	noCache := fs.Bool("no-cache", false, "with --compare-examples, ask the judges' models again rather than answer from Gavel's cache")
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
	case *disagreements != "" && *compareExamples != "":
		fmt.Fprintln(stderr, "gavel calibrate: --disagreements and --compare-examples go one at a time: write the examples, add them to a judge (examples: FILE), then compare")
		return eval.ExitUsage
	case *heldOut <= 0 || *heldOut >= 1:
		fmt.Fprintf(stderr, "gavel calibrate: --held-out %v: want a share of the cases between 0 and 1\n", *heldOut)
		return eval.ExitUsage
	case *judgmentsFile != "" && (*disagreements != "" || *compareExamples != ""):
		fmt.Fprintln(stderr, "gavel calibrate: --disagreements and --compare-examples read the trials of stored runs: an outside judge's outputs (--judgments) have none")
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
		for _, d := range []struct {
			flag, value string
			t           *time.Time
		}{{"--since", *since, &filter.RunsSince}, {"--labelled-since", *labelledSince, &filter.LabelsSince}} {
			if d.value == "" {
				continue
			}
			if *d.t, err = eval.ParseDate(d.value); err != nil {
				fmt.Fprintf(stderr, "gavel calibrate: %s: %v\n", d.flag, err)
				return eval.ExitUsage
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
		if code := calibrateError(err, stderr); code != eval.ExitPassed {
			return code
		}
		if *compareExamples != "" {
			c := eval.ExampleComparing{Examples: *compareExamples, Holdout: gavel.Holdout{Share: *heldOut, Seed: *seed}, NoCache: *noCache}
			cmp, err := eval.CompareExamples(ctx, st, checks, c)
			if code := calibrateError(err, stderr); code != eval.ExitPassed {
				return code
			}
			if err := report.WriteExampleComparison(stdout, format, c.Examples, cmp); err != nil {
				return calibrateError(err, stderr)
			}
			if *require && cmp.Verdict() != gavel.ExamplesHelped {
				return eval.ExitFailed
			}
			return eval.ExitPassed
		}
		if *disagreements != "" {
			count, err := eval.WriteDisagreements(ctx, st, checks, *disagreements, *suite)
			if err != nil {
				return calibrateError(err, stderr)
			}
			fmt.Fprintf(stderr, "gavel calibrate: %s\n", count.Wrote(*disagreements))
		}
	}
	c := gavel.Calibrate(checks)
	write := report.WriteCalibration
	if *judgmentsFile != "" {
		write = report.WriteOutsideCalibration
	}
	if err := write(stdout, format, title, c); err != nil {
		return calibrateError(err, stderr)
	}
	if *require && !c.Calibrated() {
		return eval.ExitFailed
	}
	return eval.ExitPassed
}

// calibrateError says what went wrong, and returns the exit code: 2 for
// a mistake of the user's, 3 for anything else, 0 for no error.
func calibrateError(err error, stderr io.Writer) int {
	var unknown *eval.UnknownSuiteError
	var mistake *eval.ComparingError
	switch {
	case err == nil:
		return eval.ExitPassed
	case errors.As(err, &unknown), errors.As(err, &mistake):
		fmt.Fprintln(stderr, "gavel calibrate:", err)
		return eval.ExitUsage
	}
	fmt.Fprintln(stderr, "gavel calibrate:", err)
	return eval.ExitInfra
}
