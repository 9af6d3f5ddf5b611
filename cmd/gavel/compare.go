package main

import (
	"context"
	"errors"
	"fmt"
	"io"

	flag "github.com/spf13/pflag"

	"github.com/gavelhq/gavel"
	"github.com/gavelhq/gavel/eval"
	"github.com/gavelhq/gavel/report"
)

const compareHelp = `Usage: gavel compare [flags] RUN_A RUN_B

Compares run B with run A (the reference: main, say): the regressions
(cases that passed in A and do not in B), the fixes, the cases only one
run has, and how every criterion's mean score moved. Then what the agent
said, side by side: for each case whose replies or tool calls differ
(every case with --all-replies), the reply of each run's first trial as a
word diff ([-A only-]{+B only+}) and its tool calls as a line diff.

With --pairwise CRITERIA, a model compares the two replies of each case
(in both orders: when they disagree, it is a tie; identical replies are a
tie without asking) and the comparison tallies the wins of A, of B and
the ties. The model is --model, else the judge model B's suite named.

Two runs of one unchanged agent differ by chance, so the cases that
moved are not the verdict: a test is. Over the cases both runs judged
with the same definition, it is the exact McNemar test on the cases that
flipped (one trial a case), or the Wilcoxon signed-rank test on each
case's pass share (several); each criterion's scores are tested case by
case, corrected together (Holm). The verdict is REGRESSED when a drop is
significant (p < --alpha) and at least --min-effect, IMPROVED for such a
rise with no drop, NO SIGNIFICANT CHANGE otherwise. Cases whose
definition changed, or that one run lacks, are listed and not tested
(docs/statistics.md).

The exit code is 1 when B REGRESSED, or when a case marked critical: true
failed in B, so a pull request can be gated on "no worse than main"; 0
otherwise, whatever the pairwise judge prefers.

Examples:
  gavel compare 20261120-180000-9f3e 20261121-101500-a1b2
  gavel compare --all-replies A B
  gavel compare --alpha 0.01 --min-effect 0.1 A B
  gavel compare --pairwise "Which reply answers the customer better?" A B
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
	allReplies := fs.Bool("all-replies", false, "show the replies of every case both runs have, not only those that differ")
	pairwise := fs.String("pairwise", "", "ask a pairwise judge which reply of each case is better by these `criteria`, and tally the wins")
	model := fs.String("model", "", "the pairwise judge's `model` (provider:model); default: the judge model of run B's suite")
	var cfg gavel.CompareConfig
	compareFlags(fs, &cfg)
	if code, ok := parse(fs, args); !ok {
		return code
	}
	if fs.NArg() != 2 {
		fs.Usage()
		return eval.ExitUsage
	}
	format, err := report.ParseFormat(*formatName)
	if err != nil || format == report.JUnit {
		fmt.Fprintf(stderr, "gavel compare: --format %s: want text, json, markdown or html\n", *formatName)
		return eval.ExitUsage
	}
	if err := cfg.Check(); err != nil {
		fmt.Fprintln(stderr, "gavel compare:", err)
		return eval.ExitUsage
	}
	if *model != "" && *pairwise == "" {
		fmt.Fprintln(stderr, "gavel compare: --model is the pairwise judge's: give --pairwise too")
		return eval.ExitUsage
	}
	base, code := loadRun(*db, fs.Arg(0), "compare", stderr)
	if base == nil {
		return code
	}
	head, code := loadRun(*db, fs.Arg(1), "compare", stderr)
	if head == nil {
		return code
	}
	c := gavel.CompareWith(base.Run, head.Run, cfg)
	c.Replies = gavel.Replies(base.Run, head.Run)
	if *pairwise != "" {
		err := eval.AskPairwise(context.Background(), &c, head.Info, *pairwise, *model)
		var mistake *eval.PairwiseError
		if errors.As(err, &mistake) {
			fmt.Fprintln(stderr, "gavel compare:", err)
			return eval.ExitUsage
		} else if err != nil {
			fmt.Fprintln(stderr, "gavel compare:", err)
			return eval.ExitInfra
		}
	}
	opts := report.ComparisonOptions{BaseLabel: base.Info.Caption(), HeadLabel: head.Info.Caption(), Verbose: *verbose,
		AllReplies: *allReplies, Version: version}
	if err := report.WriteComparison(stdout, format, c, opts); err != nil {
		fmt.Fprintln(stderr, "gavel compare:", err)
		return eval.ExitInfra
	}
	if c.Failed() {
		return eval.ExitFailed
	}
	return eval.ExitPassed
}

// compareFlags adds the flags of how two runs' difference is tested, to
// gavel compare and gavel run --baseline.
func compareFlags(fs *flag.FlagSet, c *gavel.CompareConfig) {
	fs.Float64Var(&c.Alpha, "alpha", gavel.DefaultAlpha, "the significance level: a difference between two runs counts when its p-value is below it")
	fs.Float64Var(&c.MinEffect, "min-effect", gavel.DefaultMinEffect, "the smallest drop of the pass rate (or of a criterion's 0-1 score) that counts as a regression, as a share: 0.05 is 5 points")
}
