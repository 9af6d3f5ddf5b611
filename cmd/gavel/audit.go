package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"

	flag "github.com/spf13/pflag"

	"github.com/gavelhq/gavel/audit"
	"github.com/gavelhq/gavel/eval"
	"github.com/gavelhq/gavel/report"
)

const auditHelp = `Usage: gavel audit [flags] [SUITE]

Puts the model judges of a suite (a suite file, or a directory holding
gavel.yaml; default ".") through probes for the ways judges go wrong, on
the agent's replies to the suite's cases (the agent runs once on each
case first, its judges not asked) or, with --run, on a stored run's:

  position     every pairwise judgment asked in both orders: the share of
               comparisons whose orders disagree (the flip share)
  verbosity    each reply judged as it is and padded with neutral filler:
               the share that scored higher padded, and the mean gain
  consistency  each judgment asked k times: the share of unstable
               verdicts (a PASS and a FAIL) and the spread of the scores
  family       a judge of the agent's model family against the same judge
               on the suite's audit.reference_model (or --reference-model):
               the mean score by which its own family favours the replies
  self-test    each judge model, as a pairwise judge, on Gavel's own bias
               set (42 pairs in six bias types) or on --bias-bench's file,
               such as EvalBiasBench's: its accuracy per bias type
  examples     with --run and --examples FILE: the kappa with people's
               labels of the judges that take FILE (examples:), with and
               without its examples, on held-out cases

Before it asks anything it says how many judge calls it will make, by
model; --dry-run stops there. The models are asked, never Gavel's cache.
The suite's audit: block sets the bars (docs/audit.md), such as
  audit: {max_position_flips: 0.1, max_verbosity_share: 0.2, max_unstable: 0.1}

Exit codes:
  0  every judge met every bar the suite sets (or --dry-run)
  1  a judge did not meet a bar
  2  a usage or suite-file error: nothing was asked
  3  the results database or the agent failed
  5  the audit stopped before it asked everything (--max-cost-usd, a signal)

Examples:
  gavel audit examples/support-desk
  gavel audit --dry-run examples/support-desk
  gavel audit --run 20261121-101500-a1b2 --out audit.html --out audit.json
  gavel audit --probe position --probe self-test --samples 1 evals/
  gavel audit --reference-model anthropic:claude-sonnet-4-5 --max-cost-usd 2
  gavel audit --probe self-test --bias-bench biasbench.json evals/
  gavel audit --run 20261121-101500-a1b2 --examples examples.yaml evals/

Flags:
`

// auditFlagSet returns gavel audit's flags, and what they are parsed to.
func auditFlagSet(stderr io.Writer) (*flag.FlagSet, *eval.Auditing, *[]string, *string) {
	a := &eval.Auditing{}
	var probes []string
	fs := flag.NewFlagSet("audit", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() { fmt.Fprint(stderr, auditHelp); fs.PrintDefaults() }
	dbFlagVar(fs, &a.DB)
	fs.StringVar(&a.Run, "run", "", "judge the replies of this stored `run` (the first trial of each case) instead of running the agent")
	fs.Var((*listFlag)(&a.Tags), "tag", "audit only on cases with this tag (repeatable: any of them)")
	fs.Var((*listFlag)(&a.IDs), "id", "audit only on the case with this id (repeatable)")
	fs.Var((*listFlag)(&probes), "probe", "run only this `probe`: position, verbosity, consistency, family or self-test (repeatable; default: every one)")
	fs.IntVar(&a.Samples, "samples", 0, "ask each judgment this many times, k (default: the suite's audit.samples, else 3)")
	fs.StringVar(&a.ReferenceModel, "reference-model", "", "the family probe's `model` of another family than the agent's (default: the suite's audit.reference_model)")
	fs.StringVar(&a.Examples, "examples", "", "with --run: compare, on the run's suite's labels, the agreement with people of the judges that take this `file` of examples (gavel calibrate --disagreements writes it), with and without them, on held-out cases")
	fs.StringVar(&a.BiasBench, "bias-bench", "", "the self-test's bias benchmark `file`, in EvalBiasBench's format (default: the suite's audit.bias_bench, else Gavel's own set)")
	fs.Float64Var(&a.MaxCostUSD, "max-cost-usd", 0, "stop asking once the audit spent this much")
	fs.BoolVar(&a.DryRun, "dry-run", false, "say how many judge calls the audit would make, and make none")
	fs.IntVar(&a.Concurrency, "concurrency", 0, "judgments asked at once (default: the suite's concurrency, else 4)")
	fs.Var((*listFlag)(&a.Outs), "out", "also write the report to this file, its format from the extension (.txt, .json, .html) or given as `FORMAT=FILE`; repeatable")
	format := fs.String("format", "text", "the report printed: text, json or html")
	return fs, a, &probes, format
}

func auditCommand(args []string, stdout, stderr io.Writer) int {
	fs, a, probes, formatName := auditFlagSet(stderr)
	if code, ok := parse(fs, args); !ok {
		return code
	}
	if fs.NArg() > 1 {
		fs.Usage()
		return eval.ExitUsage
	}
	a.Suite = fs.Arg(0)
	format, err := report.ParseFormat(*formatName)
	if err != nil || (format != report.Text && format != report.JSON && format != report.HTML) {
		fmt.Fprintf(stderr, "gavel audit: --format %s: want text, json or html\n", *formatName)
		return eval.ExitUsage
	}
	for _, name := range *probes {
		p, err := audit.ParseProbe(name)
		if err != nil {
			fmt.Fprintf(stderr, "gavel audit: --probe: %v\n", err)
			return eval.ExitUsage
		}
		a.Probes = append(a.Probes, p)
	}
	// A signal stops the audit at once: what it asked is reported (exit 5).
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	a.Stderr = stderr
	r, code := eval.Audit(ctx, *a)
	if r == nil {
		return code
	}
	if err := report.WriteAudit(stdout, format, r); err != nil {
		fmt.Fprintln(stderr, "gavel audit:", err)
		return eval.ExitInfra
	}
	return code
}
