package main

import (
	"fmt"
	"io"

	"github.com/gavelhq/gavel/eval"
	flag "github.com/spf13/pflag"
)

const rejudgeHelp = `Usage: gavel rejudge [flags] RUN

Judges every stored transcript of a run again with the suite's current
judges, without calling the agent, and stores the verdicts as a new run
that names its source (gavel show says "Rejudges run ..."); RUN is left
as it was. The suite is the file given with --suite, else the one the
run was made from. Rules and tool-call rules read the stored transcript
as they read a live one; LLM judges are asked (through the model cache,
the meter and the budget, as gavel run does). Judges that look at the
world (sql, file_*, command, build, agent_judge) see it as it is now,
not as it was when the run was made.

Cases of the run that the suite no longer has are said and skipped;
cases of the suite that the run lacks are said, and reported as
skipped. A trial whose conversation did not complete stays an ERROR:
there is nothing to judge.

With --baseline RUN0 and --pairwise CRITERIA, every case is also judged
by a pairwise judge against RUN0's reply to the same case (the trial of
the same number, else its first): a model compares the two replies in
both orders, a tie when the orders disagree, and the case fails when
RUN0's reply is better. The model is --model, else the suite's
models.judge.

Reports and exit codes are gavel run's (0 the threshold met, 1 missed,
2 a usage or suite-file error, 3 a provider unreachable for every trial
or the results database failed, 5 interrupted or out of budget). With
OTEL_EXPORTER_OTLP_ENDPOINT set, it is traced as gavel run is.

Examples:
  gavel rejudge 20261121-101500-a1b2
  gavel rejudge --suite gavel.yaml --id case_005 20261121-101500-a1b2
  gavel rejudge --baseline 20261120-180000-9f3e --pairwise "Which reply is more helpful?" 20261121-101500-a1b2

Flags:
`

// rejudgeFlagSet returns gavel rejudge's flags: gavel run's that apply,
// and its own.
func rejudgeFlagSet(stderr io.Writer) (*flag.FlagSet, *eval.Options, *eval.Rejudging) {
	var o eval.Options
	var rj eval.Rejudging
	fs := flag.NewFlagSet("rejudge", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() { fmt.Fprint(stderr, rejudgeHelp); fs.PrintDefaults() }
	fs.StringVar(&rj.Suite, "suite", "", "judge with this suite `file` (or directory holding gavel.yaml); default: the suite the run was made from")
	fs.Var((*listFlag)(&o.Tags), "tag", "judge only cases with this tag (repeatable: any of them)")
	fs.Var((*listFlag)(&o.IDs), "id", "judge only the case with this id (repeatable)")
	dbFlagVar(fs, &o.DB)
	fs.StringVar(&rj.Baseline, "baseline", "", "compare every reply with the reply of this `run` to the same case, with a pairwise judge (needs --pairwise)")
	fs.StringVar(&rj.Pairwise, "pairwise", "", "the `criteria` of the pairwise judge against --baseline: what makes one reply better than the other")
	fs.StringVar(&rj.Model, "model", "", "the pairwise judge's `model` (provider:model); default: the suite's models.judge")
	reportFlags(fs, &o)
	fs.IntVar(&o.Concurrency, "concurrency", 0, "trials judged at once (default: the suite's, else 4)")
	fs.DurationVar(&o.Timeout, "timeout", 0, "time the judges of one trial may take (default: the suite's, else 5m)")
	fs.Float64Var(&o.MinPassRate, "min-pass-rate", 0, "the pass rate to reach, 0..1 (default: the suite's threshold)")
	fs.StringVar(&o.Inconclusive, "inconclusive", "", "what an INCONCLUSIVE verdict does: rate, pass, fail or exit, as gavel run --inconclusive")
	fs.Float64Var(&o.MaxCostUSD, "max-cost-usd", 0, "stop judging trials once this much was spent")
	fs.Int64Var(&o.MaxTokens, "max-tokens", 0, "stop judging trials once this many tokens were spent")
	fs.StringVar(&o.PricesFile, "prices", "", "price models from this YAML or JSON `file`, as gavel run --prices")
	fs.BoolVar(&o.NoCache, "no-cache", false, "ask the judges' models again instead of reusing cached answers")
	return fs, &o, &rj
}

func rejudgeCommand(args []string, stdout, stderr io.Writer) int {
	fs, o, rj := rejudgeFlagSet(stderr)
	if code, ok := parse(fs, args); !ok {
		return code
	}
	if fs.NArg() != 1 {
		fs.Usage()
		return eval.ExitUsage
	}
	ctx, stop := interrupts(stderr)
	defer stop.release()
	flush, ok := startTracing("gavel rejudge", stderr)
	if !ok {
		return eval.ExitUsage
	}
	defer flush()
	session := &eval.Session{Options: *o, Stdout: stdout, Stderr: stderr, Stop: stop.Drain, Progress: eval.NewProgressBar(stderr),
		Version: version, Command: "gavel rejudge"}
	return session.Rejudge(ctx, fs.Arg(0), *rj)
}
