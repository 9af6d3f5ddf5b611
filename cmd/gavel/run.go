package main

import (
	"fmt"
	"io"
	"strings"

	"github.com/gavelhq/gavel/eval"
	flag "github.com/spf13/pflag"
)

const runHelp = `Usage: gavel run [flags] [SUITE...]

Runs suites (a suite file, or a directory holding gavel.yaml; default ".")
and prints a report. SIGINT (Ctrl-C) or SIGTERM stops starting trials:
those in flight finish. A second one cancels them. Either way what
finished is stored and reported, and the run is incomplete.

Exit codes:
  0  every run is complete and its gate passes it: the pass rate's
     confidence interval reaches the threshold (PASS), or straddles it
     (INCONCLUSIVE) and the suite's gate lets it pass (by default, when
     the pass rate alone reaches the threshold)
  1  a gate did not pass a run (FAIL, or INCONCLUSIVE and the suite fails
     it; a case marked critical: true failed), the run REGRESSED against
     --baseline, --gate failed, or --fail-fast stopped a run
  2  a usage or suite-file error: nothing ran; for cases read from a pipe
     (a FIFO), which run as they come, a problem stops the run there
  3  the agent or a provider could not be reached for the whole run (every
     trial that ran was an ERROR for it), or the results database failed
  4  a bug in Gavel: please report it
  5  a run is incomplete: it was interrupted (SIGINT, SIGTERM) or ran out of
     budget (--max-cost-usd, --max-tokens) before every selected trial ran;
     gavel run --resume RUN runs the rest
  6  a run is INCONCLUSIVE and its suite (gate: inconclusive: exit) or
     --inconclusive exit asks for a code of its own
With several suites, the first of 4, 2, 3, 6, 1, 5 that one of them earns wins.

A shard (--shard K/N) runs a stable 1/N of the selected trials, and its
own pass rate is no verdict: it exits 0 where a whole run would exit 1
for a missed threshold (2, 3, 4 and 5 as above; 1 for --fail-fast). The
gate is decided on the whole run: by gavel merge of the shards' JSON
reports, or, with --run-label in a shared database, by the shard that
ends last, which exits as the whole run would.

With --baseline, the run is also compared with the newest finished run
the baseline names (a run id, a --run-label, or a git branch), as gavel
compare does, and fails when the comparison finds it REGRESSED: worse
by more than chance (--alpha) and by at least --min-effect. Without such
a run yet, it says so and gates on the threshold alone.

With OTEL_EXPORTER_OTLP_ENDPOINT set (and the other standard OTEL_*
variables), every run is traced to that OpenTelemetry endpoint: the run,
each trial, turn, model call, tool call and judge (docs/traces.md).

Examples:
  gavel run examples/support-desk
  OTEL_EXPORTER_OTLP_ENDPOINT=http://localhost:4318 gavel run examples/support-desk
  gavel run --tag policy --trials 5 suite.yaml
  gavel run --label "shorter system prompt" --db "$GAVEL_DB"   # named so in the web app
  gavel run --out report.xml --out summary.md --max-cost-usd 2
  gavel run --changed-since origin/main --gate "go test ./..."
  gavel run --baseline main --db "$GAVEL_DB"               # and no worse than main
  gavel run --repeat 5 suite.yaml                          # the A/A noise floor: five runs, nothing changed
  gavel run --shard 2/4 --out shard-2.json            # then gavel merge shard-*.json
  gavel run --shard 2/4 --run-label "$GITHUB_RUN_ID" --db "$GAVEL_DB"
  gavel run --queue --db postgres://gavel@db.internal/gavel evals   (and gavel worker)

Flags:
`

// listFlag is a repeatable string flag.
type listFlag []string

func (l *listFlag) String() string     { return strings.Join(*l, ",") }
func (l *listFlag) Set(v string) error { *l = append(*l, v); return nil }
func (l *listFlag) Type() string       { return "value" }

// runFlagSet returns gavel run's flags, and the options they are parsed
// to.
func runFlagSet(stderr io.Writer) (*flag.FlagSet, *eval.Options) {
	var o eval.Options
	fs := flag.NewFlagSet("run", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() { fmt.Fprint(stderr, runHelp); fs.PrintDefaults() }
	fs.Var((*listFlag)(&o.Tags), "tag", "run only cases with this tag (repeatable: any of them)")
	fs.Var((*listFlag)(&o.IDs), "id", "run only the case with this id (repeatable)")
	fs.StringVar(&o.ChangedSince, "changed-since", "", "run only the cases whose paths match files changed since this git `ref` (all of them when a shared path changed; cases without paths always run)")
	dbFlagVar(fs, &o.DB)
	fs.StringVar(&o.Resume, "resume", "", "carry on an incomplete or abandoned `run` (its id) in a new run: the trials it finished are copied, the others (skipped, cut short, never started) run; that run is left as it was")
	fs.StringVar(&o.RetryErrors, "retry-errors", "", "run again, in a new run, the trials of `run` (its id) that ended in ERROR (and those that never ran), asking the models again rather than the cache, and copy the others; that run, with its ERRORs, is left as it was")
	fs.Var(&o.Shard, "shard", "run shard K of N of the selected trials (1/4 .. 4/4): the trials whose index in suite order is K-1 modulo N; the gate is decided on the whole run (gavel merge, or --run-label)")
	fs.StringVar(&o.RunLabel, "run-label", "", "with --shard: the `label` of the run every shard joins in the results database (--db; PostgreSQL for shards on several machines), such as the CI run's id: the first shard creates the run, the last to end finishes it and decides its gate; a shard started again with the same label completes its part")
	fs.StringVar(&o.Label, "label", "", "call the run this (`words` for people: \"prompt v2\", \"nightly\"); its name in the web app and gavel runs leads with it, before its git branch and commit and who started it")
	fs.StringVar(&o.Gate, "gate", "", "run this shell `command` first (your unit tests); if it fails, exit 1 without running a case")
	reportFlags(fs, &o)
	fs.IntVar(&o.Concurrency, "concurrency", 0, "trials talking with the agent at once; as many more may be being judged (default: the suite's, else 4)")
	fs.IntVar(&o.Trials, "trials", 0, "run every case this many times (default: the suite's)")
	fs.DurationVar(&o.Timeout, "timeout", 0, "time one trial's conversation may take (default: the suite's, else 5m)")
	fs.Float64Var(&o.MinPassRate, "min-pass-rate", 0, "the pass rate to reach, 0..1 (default: the suite's threshold)")
	fs.StringVar(&o.Inconclusive, "inconclusive", "", "what an INCONCLUSIVE verdict (the pass rate's interval straddles the threshold) does: rate (the pass rate alone decides), pass, fail, or exit (exit code 6) (default: the suite's gate.inconclusive, else rate)")
	fs.IntVar(&o.Repeat, "repeat", 1, "run each suite this many times, each a run of its own, then print the noise floor: how far runs of the unchanged suite differ (their pass rates, the cases that flipped); the exit code is the last run's")
	fs.StringVar(&o.Baseline, "baseline", "", "also gate the run on the newest finished run this names (a run id, a --run-label, or a git `branch`): it fails when it REGRESSED against it (gavel compare)")
	compareFlags(fs, &o.Compare)
	fs.StringVar(&o.ReplayTools, "replay-tools", "", "answer the agent's tool calls with the results the stored `run` recorded (a run id, a --run-label, a git branch, or latest), not the live MCP servers: calls matched by case, tool and arguments; one the run did not make is an error result, unless the suite's agent.replay_tools says unmatched: live")
	fs.Float64Var(&o.MaxCostUSD, "max-cost-usd", 0, "stop starting trials once this much was spent")
	fs.Int64Var(&o.MaxTokens, "max-tokens", 0, "stop starting trials once this many tokens were spent")
	fs.StringVar(&o.PricesFile, "prices", "", "price models from this YAML or JSON `file`, as a suite's prices: (my-model: {input: 0.5, output: 1.5}, US dollars per million tokens); they replace the suite's and Gavel's prices of the models it names")
	fs.BoolVar(&o.NoCache, "no-cache", false, "ask the models again instead of reusing cached answers")
	fs.BoolVar(&o.FailFast, "fail-fast", false, "stop starting trials after the first that does not pass")
	fs.BoolVar(&o.Queue, "queue", false, "enqueue the run's trials in the PostgreSQL database of --db, for gavel worker processes to run, then wait for the run to finish and report it as usual (a signal stops the waiting, exit 5, not the run)")
	fs.BoolVar(&o.Detach, "detach", false, "with --queue: return once the trials are enqueued; the run finishes when its last trial does (gavel show RUN)")
	return fs, &o
}

// reportFlags adds the flags of what gavel run and gavel rejudge print
// and write.
func reportFlags(fs *flag.FlagSet, o *eval.Options) {
	fs.Var((*listFlag)(&o.Outs), "out", "also write a report to this file, its format from the extension (.json, .xml for JUnit, .md, .html, .txt) or given as `FORMAT=FILE` (markdown=$GITHUB_STEP_SUMMARY); repeatable. The JSON report goes to "+eval.DefaultJSONReport+" unless one is named; in GitHub Actions, the Markdown report is added to $GITHUB_STEP_SUMMARY by itself")
	fs.StringVar(&o.Format, "format", "text", "the report printed: text, json, junit, markdown or html")
	fs.BoolVar(&o.Quiet, "quiet", false, "print only the summary: the numbers, the verdict and the cases that did not pass (no table, no detail, no progress, nothing an exec agent writes to its stderr); report files are whole")
	fs.BoolVar(&o.Verbose, "verbose", false, "print every case in detail, passed ones too")
}

func runCommand(args []string, stdout, stderr io.Writer) int {
	fs, o := runFlagSet(stderr)
	if code, ok := parse(fs, args); !ok {
		return code
	}
	if fs.Changed("min-pass-rate") && o.MinPassRate == 0 {
		fmt.Fprintln(stderr, "gavel run: --min-pass-rate 0: want a pass rate above 0 and at most 1, such as 0.8 (a rate of 0 passes anything; leave the flag out for the suite's threshold)")
		return eval.ExitUsage
	}
	paths := fs.Args() // none: the suite here, or the one --resume carries on
	ctx, stop := interrupts(stderr)
	defer stop.release()
	flush, ok := startTracing("gavel run", stderr)
	if !ok {
		return eval.ExitUsage
	}
	defer flush()
	session := &eval.Session{Options: *o, Stdout: stdout, Stderr: stderr, Stop: stop.Drain, Progress: eval.NewProgressBar(stderr), Version: version}
	return session.Run(ctx, paths)
}
