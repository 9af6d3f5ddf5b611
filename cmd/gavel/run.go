package main

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	flag "github.com/spf13/pflag"

	"github.com/gavelhq/gavel"
	"github.com/gavelhq/gavel/llm"
	"github.com/gavelhq/gavel/llm/providers"
	"github.com/gavelhq/gavel/report"
	"github.com/gavelhq/gavel/runner"
	"github.com/gavelhq/gavel/spec"
	"github.com/gavelhq/gavel/store"
	"github.com/gavelhq/gavel/telemetry"
)

const runHelp = `Usage: gavel run [flags] [SUITE...]

Runs suites (a suite file, or a directory holding gavel.yaml; default ".")
and prints a report. SIGINT (Ctrl-C) or SIGTERM stops starting trials:
those in flight finish. A second one cancels them. Either way what
finished is stored and reported, and the run is incomplete.

Exit codes:
  0  every run is complete and reached its threshold
  1  a threshold was missed, --gate failed, or --fail-fast stopped a run
  2  a usage or suite-file error: nothing ran; for cases read from a pipe
     (a FIFO), which run as they come, a problem stops the run there
  3  the agent or a provider could not be reached for the whole run (every
     trial that ran was an ERROR for it), or the results database failed
  4  a bug in Gavel: please report it
  5  a run is incomplete: it was interrupted (SIGINT, SIGTERM) or ran out of
     budget (--max-cost-usd, --max-tokens) before every selected trial ran;
     gavel run --resume RUN runs the rest
With several suites, the first of 4, 2, 3, 1, 5 that one of them earns wins.

A shard (--shard K/N) runs a stable 1/N of the selected trials, and its
own pass rate is no verdict: it exits 0 where a whole run would exit 1
for a missed threshold (2, 3, 4 and 5 as above; 1 for --fail-fast). The
gate is decided on the whole run: by gavel merge of the shards' JSON
reports, or, with --run-label in a shared database, by the shard that
ends last, which exits as the whole run would.

With OTEL_EXPORTER_OTLP_ENDPOINT set (and the other standard OTEL_*
variables), every run is traced to that OpenTelemetry endpoint: the run,
each trial, turn, model call, tool call and judge (README: Traces).

Examples:
  gavel run examples/support-desk
  OTEL_EXPORTER_OTLP_ENDPOINT=http://localhost:4318 gavel run examples/support-desk
  gavel run --tag policy --trials 5 suite.yaml
  gavel run --out report.xml --out summary.md --max-cost-usd 2
  gavel run --changed-since origin/main --gate "go test ./..."
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

type runFlags struct {
	tags, ids, outs   listFlag
	changedSince      string
	gate              string
	db                *string
	resume, retry     string
	format            string
	concurrency       int
	trials            int
	timeout           time.Duration
	minPassRate       float64
	maxCost           float64
	maxTokens         int64
	pricesFile        string
	prices            llm.Prices // read from pricesFile
	noCache, failFast bool
	quiet, verbose    bool
	shard             shard  // --shard K/N; zero for a whole run
	runLabel          string // --run-label: the run the shards join
	queue, detach     bool   // gavel run --queue (queue.go)
}

// runFlagSet returns gavel run's flags, and where they are parsed to.
func runFlagSet(stderr io.Writer) (*flag.FlagSet, *runFlags) {
	var f runFlags
	fs := flag.NewFlagSet("run", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() { fmt.Fprint(stderr, runHelp); fs.PrintDefaults() }
	fs.Var(&f.tags, "tag", "run only cases with this tag (repeatable: any of them)")
	fs.Var(&f.ids, "id", "run only the case with this id (repeatable)")
	fs.StringVar(&f.changedSince, "changed-since", "", "run only the cases whose paths match files changed since this git `ref` (all of them when a shared path changed; cases without paths always run)")
	f.db = dbFlag(fs)
	fs.StringVar(&f.resume, "resume", "", "carry on an incomplete or abandoned `run` (its id) in a new run: the trials it finished are copied, the others (skipped, cut short, never started) run; that run is left as it was")
	fs.StringVar(&f.retry, "retry-errors", "", "run again, in a new run, the trials of `run` (its id) that ended in ERROR (and those that never ran), asking the models again rather than the cache, and copy the others; that run, with its ERRORs, is left as it was")
	fs.Var(&f.shard, "shard", "run shard K of N of the selected trials (1/4 .. 4/4): the trials whose index in suite order is K-1 modulo N; the gate is decided on the whole run (gavel merge, or --run-label)")
	fs.StringVar(&f.runLabel, "run-label", "", "with --shard: the `label` of the run every shard joins in the results database (--db; PostgreSQL for shards on several machines), such as the CI run's id: the first shard creates the run, the last to end finishes it and decides its gate; a shard started again with the same label completes its part")
	fs.StringVar(&f.gate, "gate", "", "run this shell `command` first (your unit tests); if it fails, exit 1 without running a case")
	reportFlags(fs, &f)
	fs.IntVar(&f.concurrency, "concurrency", 0, "trials talking with the agent at once; as many more may be being judged (default: the suite's, else 4)")
	fs.IntVar(&f.trials, "trials", 0, "run every case this many times (default: the suite's)")
	fs.DurationVar(&f.timeout, "timeout", 0, "time one trial's conversation may take (default: the suite's, else 5m)")
	fs.Float64Var(&f.minPassRate, "min-pass-rate", 0, "the pass rate to reach, 0..1 (default: the suite's threshold)")
	fs.Float64Var(&f.maxCost, "max-cost-usd", 0, "stop starting trials once this much was spent")
	fs.Int64Var(&f.maxTokens, "max-tokens", 0, "stop starting trials once this many tokens were spent")
	fs.StringVar(&f.pricesFile, "prices", "", "price models from this YAML or JSON `file`, as a suite's prices: (my-model: {input: 0.5, output: 1.5}, US dollars per million tokens); they replace the suite's and Gavel's prices of the models it names")
	fs.BoolVar(&f.noCache, "no-cache", false, "ask the models again instead of reusing cached answers")
	fs.BoolVar(&f.failFast, "fail-fast", false, "stop starting trials after the first that does not pass")
	queueFlags(fs, &f)
	return fs, &f
}

// reportFlags adds the flags of what gavel run and gavel rejudge print
// and write.
func reportFlags(fs *flag.FlagSet, f *runFlags) {
	fs.Var(&f.outs, "out", "also write a report to this file, its format from the extension (.json, .xml for JUnit, .md, .html, .txt) or given as `FORMAT=FILE` (markdown=$GITHUB_STEP_SUMMARY); repeatable. The JSON report goes to "+defaultJSONReport+" unless one is named; in GitHub Actions, the Markdown report is added to $GITHUB_STEP_SUMMARY by itself")
	fs.StringVar(&f.format, "format", "text", "the report printed: text, json, junit, markdown or html")
	fs.BoolVar(&f.quiet, "quiet", false, "print only the summary: the numbers, the verdict and the cases that did not pass (no table, no detail, no progress, nothing an exec agent writes to its stderr); report files are whole")
	fs.BoolVar(&f.verbose, "verbose", false, "print every case in detail, passed ones too")
}

func runCommand(args []string, stdout, stderr io.Writer) int {
	fs, f := runFlagSet(stderr)
	if code, ok := parse(fs, args); !ok {
		return code
	}
	format, outs, err := reportsOf(f)
	if err == nil {
		err = f.queueConflicts()
	}
	if err != nil {
		fmt.Fprintln(stderr, "gavel run:", err)
		return exitUsage
	}
	if f.pricesFile != "" {
		if f.prices, err = spec.LoadPrices(f.pricesFile); err != nil {
			fmt.Fprintf(stderr, "gavel run: --prices %s:\n%v\n", f.pricesFile, err)
			return exitUsage
		}
	}
	paths := fs.Args()
	if len(paths) == 0 {
		paths = []string{"."}
	}
	m, err := newModels(defaultCacheDir(), f.noCache, f.retry != "")
	if err != nil {
		fmt.Fprintln(stderr, "gavel run: the model cache:", err)
		return exitInfra
	}
	defer m.Close()
	load := loadStreamed
	if f.shard.Count > 0 || f.queue {
		// A shard needs the whole selection to know its part and, ending
		// a labelled run last, to put every shard's trials in order; a
		// queued run enqueues every trial at once, with the suite's
		// digest over all its cases.
		load = loadSuites
	}
	suites, ok := load(paths, f, m, stderr)
	defer func() {
		for _, s := range suites {
			s.Close()
		}
	}()
	if !ok {
		return exitUsage
	}
	if code := checkSharding(f, len(suites), stderr); code != exitPassed {
		return code
	}

	ctx, stop := interrupts(stderr)
	defer stop.release()
	flush, ok := startTracing("gavel run", stderr)
	if !ok {
		return exitUsage
	}
	defer flush()
	st, err := openStore(ctx, *f.db)
	if err != nil {
		fmt.Fprintln(stderr, "gavel run: the results database:", err)
		return exitInfra
	}
	defer st.Close()
	built := make([]*spec.Built, len(suites))
	for i, s := range suites {
		built[i] = s.Built
	}
	prior, code := priorRun(ctx, st, f, built, stderr)
	if code != exitPassed {
		return code
	}
	if f.gate != "" {
		if err := runGate(f.gate, stderr); err != nil {
			fmt.Fprintf(stderr, "gavel run: --gate %q failed (%v): no case ran, no token was spent\n", f.gate, err)
			return exitFailed
		}
	}
	progressTo := stderr
	if f.quiet {
		progressTo = io.Discard
	}
	session := &runSession{f: f, st: st, stop: stop, prior: prior, bar: newProgress(progressTo),
		format: format, outs: outs, stdout: stdout, stderr: stderr}
	for _, s := range suites {
		code = worse(code, session.run(ctx, s))
	}
	return code
}

// A meteredSuite is a suite ready to run and the meter of its models.
type meteredSuite struct {
	*spec.Built
	meter *llm.Meter
	// stream, when set, reads the suite's cases as they run (Built's
	// Suite has none), and sel says which of them run (stream.go).
	stream *spec.Stream
	sel    *selection
}

// loadSuites loads and builds the suites at paths and selects their cases
// as the flags say. It reports every problem and returns ok false if
// there was one; the suites it returns are to be closed either way.
func loadSuites(paths []string, f *runFlags, m *models, stderr io.Writer) (suites []meteredSuite, ok bool) {
	// One limiter per server, shared by every suite and role: a vendor
	// counts requests per account. A meter per suite: each run reports
	// what it spent by model.
	limits := &llm.Limiters{}
	ok = true
	for _, path := range paths {
		meter := llm.NewMeter(llm.DefaultPrices())
		agentStderr := stderr // what exec agents and restart commands write there
		if f.quiet {
			agentStderr = io.Discard
		}
		b, err := spec.Open(path, suiteEnv(limits, m, meter, agentStderr))
		if err != nil {
			fmt.Fprintln(stderr, err)
			ok = false
			continue
		}
		for _, w := range b.Warnings {
			fmt.Fprintln(stderr, w)
		}
		suites = append(suites, meteredSuite{Built: b, meter: meter})
		prices := llm.DefaultPrices().With(b.Prices).With(f.prices)
		meter.SetPrices(prices)
		if f.maxCost > 0 {
			if err := allPriced(b, prices); err != nil {
				fmt.Fprintf(stderr, "%s: %v\n", path, err)
				ok = false
				continue
			}
		}
		err = selectCases(b.Suite, f.tags, f.ids)
		if err == nil && f.changedSince != "" {
			err = selectChanged(b.Suite, f.changedSince, f.writes(), stderr)
		}
		if err != nil {
			fmt.Fprintf(stderr, "%s: %v\n", path, err)
			ok = false
		}
	}
	return suites, ok
}

// allPriced returns an error naming the models of b that prices do not
// price, if any: a cost budget cannot stop what it cannot count. Local
// models (ollama, script) cost nothing and need no price.
func allPriced(b *spec.Built, prices llm.Prices) error {
	var missing []string
	for _, ref := range b.Models {
		if !providers.IsLocal(ref.Provider) && !prices.Has(ref.Model) && !slices.Contains(missing, ref.Model) {
			missing = append(missing, ref.Model)
		}
	}
	if len(missing) == 0 {
		return nil
	}
	quoted := make([]string, len(missing))
	for i, m := range missing {
		quoted[i] = strconv.Quote(m)
	}
	return fmt.Errorf("--max-cost-usd needs the price of every model the suite uses, and %s has no price: "+
		"its cost would be unknown and the budget could not stop it. Give it in US dollars per million tokens, "+
		"under prices: in the suite file (prices: {%s: {input: 0.5, output: 1.5}}) or in a file named with --prices",
		strings.Join(quoted, ", "), missing[0])
}

// end records the end of a run of s in the store. It returns the exit
// code the run earns: exitInfra when the store failed.
func (s meteredSuite) end(run *gavel.Run, rec *recorder) (int, error) {
	code := exitCode(run)
	if err := rec.finish(run, code); err != nil {
		return exitInfra, err
	}
	return code, nil
}

// suiteEnv is how gavel builds a suite to run: every provider, behind
// the limiter of its server, and every model wrapped (meter, cache,
// retries).
func suiteEnv(limits *llm.Limiters, m *models, meter *llm.Meter, stderr io.Writer) spec.Env {
	return spec.Env{Registry: limits.Registry(providers.Registry()), Getenv: os.Getenv, Wrap: m.wrapper(meter), Stderr: stderr}
}

// A runSession is what the suites of one gavel run share.
type runSession struct {
	f     *runFlags
	st    store.Store
	stop  stopper
	prior prior
	// replay, when set, makes the run a rejudging of a stored run (gavel
	// rejudge): its transcripts are judged again, the agent is not called.
	replay *replay
	bar    *progress
	format report.Format
	outs   []output
	stdout io.Writer
	stderr io.Writer
	// command names the command in what write says of a failure: gavel
	// run when empty.
	command string
}

// run runs one suite, stores it, writes its reports and returns the exit
// code it earns.
func (r *runSession) run(ctx context.Context, s meteredSuite) int {
	if r.f.shard.Count == 0 && (s.stream == nil && len(s.Suite.Cases) == 0 || s.sel != nil && s.sel.counted && s.sel.kept == 0) {
		return exitPassed // --changed-since selected none (a shard still reports, for gavel merge)
	}
	f := r.f
	if f.minPassRate > 0 {
		s.Suite.Threshold = f.minPassRate
	}
	if f.queue {
		return r.enqueue(ctx, s)
	}
	info := runInfo(s.Built, f, s.Suite.Threshold)
	if s.sel != nil && s.sel.counted {
		info.Settings["trials"] = trialsSettingOf(f.trials, s.Suite, s.sel.own)
	}
	if r.prior.id != "" {
		info.Continues, info.Settings["continues_with"] = r.prior.id, r.prior.flag
	}
	var replay func(string) ([]gavel.Trial, string)
	if r.replay != nil {
		info.Rejudges, replay = r.replay.source, r.replay.stored
		delete(info.Settings, "trials") // the trials are the stored ones
	}
	sh := newSharding(f, s.Built, r.stderr)
	var rec *recorder
	st, err := sh.store(r.st)
	if err == nil {
		// The store is written whatever the signals: a second one cancels
		// ctx (the trials in flight), never the record of what finished.
		rec, err = record(context.WithoutCancel(ctx), st, s.Built, info, r.stop.stop, r.stderr)
	}
	if errors.Is(err, store.ErrJoinRefused) {
		fmt.Fprintln(r.stderr, "gavel run: --run-label:", err)
		return exitUsage
	}
	if err != nil {
		fmt.Fprintln(r.stderr, "gavel run: the results database:", err)
		return exitInfra
	}
	ctx, endSpan := telemetry.StartRun(ctx, telemetry.Run{Suite: s.Suite.Name, ID: rec.runID, Rejudges: info.Rejudges})
	config := runner.Config{
		Concurrency: cmp.Or(f.concurrency, s.Concurrency),
		Trials:      f.trials,
		Timeout:     cmp.Or(f.timeout, s.Timeout),
		FollowUps:   s.FollowUps,
		Budget:      runner.Budget{MaxCostUSD: f.maxCost, MaxTokens: f.maxTokens},
		FailFast:    f.failFast,
		Stop:        r.stop.ch,
		Why:         r.stop.why,
		Reuse:       sh.reuse(r.prior.reuse),
		Select:      sh.selects(),
		Started:     func(total, concurrency int) { r.bar.start(s.Suite.Name, total, concurrency) },
		Replay:      replay,
		Progress:    func(p runner.Progress) { r.bar.update(p); rec.trial(p) },
	}
	var run *gavel.Run
	var problems error
	if s.stream != nil {
		run, problems = s.runStreamed(ctx, f, rec, config, r.stderr)
	} else {
		run = runner.Run(ctx, s.Suite, config)
	}
	r.bar.finish()
	endSpan(run.Complete(), run.Passed())
	opts := report.Options{Verbose: f.verbose, Version: version, Shard: sh.reportShard()}
	written := writeReports(r.outs, run, opts) // while the store records the end
	code, err := s.end(run, rec)
	code = sh.exit(run, code)
	if problems != nil {
		fmt.Fprintln(r.stderr, problems)
		code = worse(code, exitUsage)
	}
	if err != nil {
		fmt.Fprintln(r.stderr, "gavel run: the results database:", err)
	} else {
		fmt.Fprintf(r.stderr, "gavel: run %s saved (gavel show %s)\n", rec.runID, rec.runID)
		if !run.Complete() {
			fmt.Fprintf(r.stderr, "gavel: run %s is incomplete (%s): %s\n", rec.runID, run.StopReason, sh.carryOn(rec.runID))
		}
	}
	return r.write(run, code, opts, written)
}

// write prints a run's report, waits for its report files (written,
// started by writeReports with opts), and returns the exit code the run
// earns: code, or a worse one if printing or a file failed.
func (r *runSession) write(run *gavel.Run, code int, opts report.Options, written func() []error) int {
	brief := opts
	brief.Brief = r.f.quiet
	command := cmp.Or(r.command, "gavel run")
	if err := report.Write(r.stdout, r.format, run, brief); err != nil {
		fmt.Fprintf(r.stderr, "%s: writing the report: %v\n", command, err)
		code = worse(code, exitUnknown)
	}
	for _, err := range written() {
		fmt.Fprintf(r.stderr, "%s: %v\n", command, err)
		code = worse(code, exitInfra)
	}
	return code
}

// selectCases keeps the cases with one of tags and one of ids (an empty
// list keeps all).
func selectCases(s *gavel.Suite, tags, ids []string) error {
	for _, id := range ids {
		if !slices.ContainsFunc(s.Cases, func(c *gavel.Case) bool { return c.ID == id }) {
			return errNoCase(s, id)
		}
	}
	s.Cases = slices.DeleteFunc(s.Cases, func(c *gavel.Case) bool { return !matches(c, tags, ids) })
	if len(s.Cases) == 0 {
		return errNoMatch(s, tags, ids)
	}
	return nil
}

// matches reports whether case c has one of ids and one of tags (an
// empty list matches every case).
func matches(c *gavel.Case, tags, ids []string) bool {
	if len(ids) > 0 && !slices.Contains(ids, c.ID) {
		return false
	}
	return len(tags) == 0 || slices.ContainsFunc(c.Tags, func(t string) bool { return slices.Contains(tags, t) })
}

// errNoCase is the error of --id asking for a case suite s has not.
func errNoCase(s *gavel.Suite, id string) error {
	return fmt.Errorf("suite %s has no case %s (asked for by id)", s.Name, id)
}

// errNoMatch is the error of --tag and --id keeping no case of suite s.
func errNoMatch(s *gavel.Suite, tags, ids []string) error {
	return fmt.Errorf("no case of suite %s matches the tags %v and ids %v asked for", s.Name, tags, ids)
}

// sayAffected says what --changed-since selected: affected of the cases
// of suite s, by the files changed since ref.
func sayAffected(stderr io.Writer, s *gavel.Suite, affected, cases, files int, ref string) {
	fmt.Fprintf(stderr, "gavel: %s: %d of %d cases affected by the %d files changed since %s\n", s.Name, affected, cases, files, ref)
}

// selectChanged keeps the cases that files changed since ref affect; the
// files own says Gavel writes are not changes.
func selectChanged(s *gavel.Suite, ref string, own func(path string) bool, stderr io.Writer) error {
	files, err := changedFiles(filepath.Dir(s.File), ref, own)
	if err != nil {
		return err
	}
	affected := s.Affected(files)
	sayAffected(stderr, s, len(affected), len(s.Cases), len(files), ref)
	s.Cases = affected
	return nil
}

// runGate runs command with sh, its output on stderr.
func runGate(command string, stderr io.Writer) error {
	fmt.Fprintf(stderr, "gavel: gate: %s\n", command)
	cmd := exec.Command("sh", "-c", command)
	cmd.Stdout, cmd.Stderr = stderr, stderr
	return cmd.Run()
}

// exitCode is the exit code a run earns:
//
//   - 3 (exitInfra) when trials ran and every one of them (but those cut
//     short by a second signal) was an ERROR because a service could not
//     be reached: the agent, or a model it, a simulated user or a judge
//     needed (gavel.Trial.Cause). A service that answered badly (a 400, a
//     malformed verdict) was reached: its ERRORs count as not passed.
//   - 1 (exitFailed) when fail-fast stopped the run after a trial that did
//     not pass, or the run is complete and missed its threshold.
//   - 5 (exitIncomplete) when the run is otherwise incomplete
//     (interrupted, out of budget): the trials that did not run might
//     have failed, so it does not pass, whatever its pass rate.
//   - 0 (exitPassed) when it is complete and met its threshold.
func exitCode(run *gavel.Run) int {
	switch {
	case run.Unreachable():
		return exitInfra
	case run.Stopped == gavel.StopFailFast:
		return exitFailed
	case !run.Complete():
		return exitIncomplete
	case !run.Met():
		return exitFailed
	}
	return exitPassed
}
