package eval

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

	"github.com/gavelhq/gavel"
	"github.com/gavelhq/gavel/llm"
	"github.com/gavelhq/gavel/llm/providers"
	"github.com/gavelhq/gavel/report"
	"github.com/gavelhq/gavel/runner"
	"github.com/gavelhq/gavel/spec"
	"github.com/gavelhq/gavel/store"
	"github.com/gavelhq/gavel/telemetry"
)

// A Session runs suites, one after the other, as Options say: it loads
// and selects their cases, runs their trials (in this process, or through
// the job queue), records them in the results database, writes their
// reports and decides how each run ends. gavel run and gavel rejudge are
// a Session each; the web app's runs and a worker's trials go through the
// same pieces (Launcher, queue).
type Session struct {
	// Options say what runs, and how.
	Options Options
	// Stdout gets the report printed (Options.Format); Stderr, what
	// happens: warnings, progress, where the run was saved, and errors.
	Stdout, Stderr io.Writer
	// Stop, when closed (Drain.Stop), stops starting trials: those in
	// flight finish, and the run is incomplete. Defaults to never.
	Stop *Drain
	// Progress is told of every trial as it finishes (a progress bar).
	// Defaults to nothing.
	Progress Progress
	// Version is Gavel's, for the reports.
	Version string
	// Command names the command in messages: "gavel run" by default.
	Command string

	st    store.Store
	prior prior
	// replay, when set, makes the run a rejudging of a stored run (gavel
	// rejudge): its transcripts are judged again, the agent is not called.
	replay *replay
	format report.Format
	outs   []output
	// last is the run that ended last, for repeat.
	last *gavel.Run
}

// Progress is told how a session's runs go, for a progress bar.
type Progress interface {
	// Start is called as a run of suite starts, with the trials it will
	// run (0: not known yet) and how many run at once.
	Start(suite string, total, concurrency int)
	// Update is called as each trial finishes.
	Update(runner.Progress)
	// Finish is called when the run has ended.
	Finish()
}

// noProgress is the Progress of a session given none.
type noProgress struct{}

func (noProgress) Start(string, int, int) {}
func (noProgress) Update(runner.Progress) {}
func (noProgress) Finish()                {}

// init fills in the defaults of what the caller left out, and checks the
// options and the reports they ask for. It returns a usage error.
func (r *Session) init() error {
	r.Command = cmp.Or(r.Command, "gavel run")
	if r.Stop == nil {
		r.Stop = NewDrain()
	}
	if r.Progress == nil || r.Options.Quiet {
		r.Progress = noProgress{}
	}
	if err := r.Options.Check(); err != nil {
		return err
	}
	format, outs, err := reportsOf(&r.Options)
	r.format, r.outs = format, outs
	return err
}

// Run runs the suites at paths (a suite file, or a directory holding
// gavel.yaml) one after the other, each as a run stored in the results
// database, and returns the exit code they earn: the worst (Worse) of
// theirs. Without paths, it runs the suite in the current directory, or,
// with Resume or RetryErrors, the suite of the run carried on, as that run
// did (carryOnSelection). Cancelling ctx cancels the trials in flight;
// what finished is stored and reported, and the run is incomplete.
func (r *Session) Run(ctx context.Context, paths []string) int {
	if err := r.init(); err != nil {
		fmt.Fprintf(r.Stderr, "%s: %v\n", r.Command, err)
		return ExitUsage
	}
	f := &r.Options
	var err error
	if r.st, err = OpenStore(ctx, f.DB); err != nil {
		fmt.Fprintf(r.Stderr, "%s: the results database: %v\n", r.Command, err)
		return ExitInfra
	}
	defer r.st.Close()
	if len(paths) == 0 {
		paths = carryOnSelection(ctx, r.st, f, r.Stderr)
	}
	m, err := OpenModels(DefaultCacheDir(), f.NoCache, f.RetryErrors != "")
	if err != nil {
		fmt.Fprintf(r.Stderr, "%s: the model cache: %v\n", r.Command, err)
		return ExitInfra
	}
	defer m.Close()
	load := loadStreamed
	if f.Shard.Count > 0 || f.Queue || f.Repeat > 1 {
		// A shard needs the whole selection to know its part and, ending
		// a labelled run last, to put every shard's trials in order; a
		// queued run enqueues every trial at once, with the suite's
		// digest over all its cases.
		load = loadSuites
	}
	suites, ok := load(paths, f, m, r.st, r.Stderr)
	defer func() {
		for _, s := range suites {
			s.Close()
		}
	}()
	if !ok {
		return ExitUsage
	}
	if f.RunLabel != "" && len(suites) > 1 {
		fmt.Fprintf(r.Stderr, "%s: --run-label names one run: give one suite\n", r.Command)
		return ExitUsage
	}
	built := make([]*spec.Built, len(suites))
	for i, s := range suites {
		built[i] = s.Built
	}
	prior, code := priorRun(ctx, r.st, f, built, r.Stderr)
	if code != ExitPassed {
		return code
	}
	r.prior = prior
	if f.Gate != "" {
		if err := runGate(f.Gate, r.Stderr); err != nil {
			fmt.Fprintf(r.Stderr, "%s: --gate %q failed (%v): no case ran, no token was spent\n", r.Command, f.Gate, err)
			return ExitFailed
		}
	}
	for _, s := range suites {
		if f.Repeat <= 1 {
			code = Worse(code, r.run(ctx, s))
			continue
		}
		code = Worse(code, r.repeat(ctx, s))
	}
	return code
}

// repeat runs suite s Options.Repeat times, each a run of its own, and
// prints the noise floor of the runs (gavel.NoiseFloorOf) after the last
// one's report; it returns the last run's exit code.
func (r *Session) repeat(ctx context.Context, s meteredSuite) int {
	var runs []*gavel.Run
	code := ExitPassed
	for k := 1; k <= r.Options.Repeat && ctx.Err() == nil; k++ {
		fmt.Fprintf(r.Stderr, "gavel: %s, run %d of %d\n", s.Suite.Name, k, r.Options.Repeat)
		r.last = nil
		code = r.run(ctx, s)
		if r.last == nil {
			return code // nothing ran: a usage problem
		}
		runs = append(runs, r.last)
	}
	w := r.Stdout
	if r.format != report.Text {
		w = r.Stderr
	}
	writeNoiseFloor(w, s.Suite.Name, gavel.NoiseFloorOf(runs), len(runs))
	return code
}

// writeNoiseFloor says the noise floor of n runs of suite.
func writeNoiseFloor(w io.Writer, suite string, nf gavel.NoiseFloor, n int) {
	fmt.Fprintf(w, "\nNoise floor of %s over %d runs of it, nothing changed between them:\n", report.OneLine(suite), n)
	rates := make([]string, len(nf.PassRates))
	for i, p := range nf.PassRates {
		rates[i] = report.Percent(p)
	}
	fmt.Fprintf(w, "Pass rates: %s (from %s to %s, standard deviation %.1f points)\n", strings.Join(rates, ", "),
		report.Percent(nf.Min), report.Percent(nf.Max), 100*nf.SD)
	if len(nf.Flipped) == 0 {
		fmt.Fprintln(w, "No case flipped.")
		return
	}
	cases := "cases"
	if len(nf.Flipped) == 1 {
		cases = "case"
	}
	fmt.Fprintf(w, "%d %s flipped (a difference between two runs this large, or cases flipping like these, is noise):\n", len(nf.Flipped), cases)
	for _, c := range nf.Flipped {
		outcomes := make([]string, len(c.Outcomes))
		for i, o := range c.Outcomes {
			outcomes[i] = string(o)
		}
		fmt.Fprintf(w, "  %s: %s (flip rate %s)\n", report.OneLine(c.ID), strings.Join(outcomes, " "), report.Percent(c.FlipRate))
	}
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
func loadSuites(paths []string, f *Options, m *Models, st store.Store, stderr io.Writer) (suites []meteredSuite, ok bool) {
	// One limiter per server, shared by every suite and role: a vendor
	// counts requests per account. A meter per suite: each run reports
	// what it spent by model.
	limits := &llm.Limiters{}
	ok = true
	for _, path := range paths {
		meter := llm.NewMeter(llm.DefaultPrices())
		agentStderr := stderr // what exec agents and restart commands write there
		if f.Quiet {
			agentStderr = io.Discard
		}
		env := suiteEnv(limits, m, meter, agentStderr, st)
		env.ReplayTools = f.ReplayTools
		b, err := spec.Open(path, env)
		if err != nil {
			fmt.Fprintln(stderr, err)
			ok = false
			continue
		}
		for _, w := range b.Warnings {
			fmt.Fprintln(stderr, w)
		}
		suites = append(suites, meteredSuite{Built: b, meter: meter})
		prices := llm.DefaultPrices().With(b.Prices).With(f.Prices)
		meter.SetPrices(prices)
		if f.MaxCostUSD > 0 {
			if err := allPriced(b, prices); err != nil {
				fmt.Fprintf(stderr, "%s: %v\n", path, err)
				ok = false
				continue
			}
		}
		err = selectCases(b.Suite, f.Tags, f.IDs)
		if err == nil && f.ChangedSince != "" {
			err = selectChanged(b.Suite, f.ChangedSince, f.writes(), stderr)
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

// suiteEnv is how gavel builds a suite to run: every provider, behind
// the limiter of its server, every model wrapped (meter, cache,
// retries), and the tool calls of the runs in st to replay.
func suiteEnv(limits *llm.Limiters, m *Models, meter *llm.Meter, stderr io.Writer, st store.Store) spec.Env {
	return spec.Env{Registry: limits.Registry(providers.Registry()), Getenv: os.Getenv, Wrap: m.Wrapper(meter), Stderr: stderr,
		ToolRecording: ToolRecording(st)}
}

// run runs one suite, stores it, writes its reports and returns the exit
// code it earns.
func (r *Session) run(ctx context.Context, s meteredSuite) int {
	if r.Options.Shard.Count == 0 && (s.stream == nil && len(s.Suite.Cases) == 0 || s.sel != nil && s.sel.counted && s.sel.kept == 0) {
		return ExitPassed // --changed-since selected none (a shard still reports, for gavel merge)
	}
	f := &r.Options
	if f.MinPassRate > 0 {
		s.Suite.Threshold = f.MinPassRate
	}
	if f.Inconclusive != "" {
		s.Suite.Gate.Inconclusive, _ = gavel.ParseInconclusive(f.Inconclusive) // checked by init
	}
	if f.Queue {
		return r.enqueue(ctx, s)
	}
	info := NewRunInfo(s.Built, f, s.Suite.Threshold)
	if s.sel != nil && s.sel.counted {
		info.Settings["trials"] = trialsSettingOf(f.Trials, s.Suite, s.sel.own)
	}
	if r.prior.id != "" {
		info.Continues, info.Settings["continues_with"] = r.prior.id, r.prior.flag
	}
	var replay func(string) ([]gavel.Trial, string)
	if r.replay != nil {
		info.Rejudges, replay = r.replay.source, r.replay.stored
		delete(info.Settings, "trials") // the trials are the stored ones
	}
	sh := newSharding(f, s.Built, r.Stderr)
	var rec *Recording
	st, err := sh.store(r.st)
	if err == nil {
		// The store is written whatever the signals: a second one cancels
		// ctx (the trials in flight), never the record of what finished.
		rec, err = Record(context.WithoutCancel(ctx), st, s.Built, info, r.Stop.Stop, r.Stderr)
	}
	if errors.Is(err, store.ErrJoinRefused) {
		fmt.Fprintln(r.Stderr, "gavel run: --run-label:", err)
		return ExitUsage
	}
	if err != nil {
		fmt.Fprintln(r.Stderr, "gavel run: the results database:", err)
		return ExitInfra
	}
	ctx, endSpan := telemetry.StartRun(ctx, telemetry.Run{Suite: s.Suite.Name, ID: rec.ID(), Rejudges: info.Rejudges})
	config := runner.Config{
		Concurrency: cmp.Or(f.Concurrency, s.Concurrency),
		Trials:      f.Trials,
		Timeout:     cmp.Or(f.Timeout, s.Timeout),
		FollowUps:   s.FollowUps,
		Budget:      runner.Budget{MaxCostUSD: f.MaxCostUSD, MaxTokens: f.MaxTokens},
		FailFast:    f.FailFast,
		Stop:        r.Stop.Stopped(),
		Why:         r.Stop.Why,
		Reuse:       sh.reuse(r.prior.reuse),
		Select:      sh.selects(),
		Started:     func(total, concurrency int) { r.Progress.Start(s.Suite.Name, total, concurrency) },
		Replay:      replay,
		Progress:    func(p runner.Progress) { r.Progress.Update(p); rec.Trial(p) },
	}
	var run *gavel.Run
	var problems error
	if s.stream != nil {
		run, problems = s.runStreamed(ctx, f, rec, config, r.Stderr)
	} else {
		run = runner.Run(ctx, s.Suite, config)
	}
	r.Progress.Finish()
	if err := store.ApplyQuarantine(context.WithoutCancel(ctx), r.st, run, rec.ID()); err != nil {
		fmt.Fprintln(r.Stderr, "gavel run: the quarantined cases:", err)
	}
	run.JudgeAccuracy = store.JudgeAccuracy(context.WithoutCancel(ctx), r.st, s.Suite.Name)
	endSpan(run.Complete(), run.Passed())
	opts := report.Options{Verbose: f.Verbose, Version: r.Version, Shard: sh.reportShard()}
	written := writeReports(r.outs, run, opts) // while the store records the end
	code, err := rec.End(run)
	code = sh.exit(run, code)
	if problems != nil {
		fmt.Fprintln(r.Stderr, problems)
		code = Worse(code, ExitUsage)
	}
	if err != nil {
		fmt.Fprintln(r.Stderr, "gavel run: the results database:", err)
	} else {
		fmt.Fprintf(r.Stderr, "gavel: run %s saved (gavel show %s)\n", rec.ID(), rec.ID())
		if !run.Complete() {
			fmt.Fprintf(r.Stderr, "gavel: run %s is incomplete (%s): %s\n", rec.ID(), run.StopReason, sh.carryOn(rec.ID()))
		}
	}
	code = r.write(run, code, opts, written)
	r.last = run
	if f.Baseline != "" && err == nil {
		// After the run's report, where its reader reads: stdout, unless
		// that carries a report for a program.
		w := r.Stdout
		if r.format != report.Text {
			w = r.Stderr
		}
		code = Worse(code, gateOnBaseline(context.WithoutCancel(ctx), r.st, f, s.Suite.Name, rec.ID(), w, r.Stderr))
	}
	return code
}

// write prints a run's report, waits for its report files (written,
// started by writeReports with opts), and returns the exit code the run
// earns: code, or a worse one if printing or a file failed.
func (r *Session) write(run *gavel.Run, code int, opts report.Options, written func() []error) int {
	brief := opts
	brief.Brief = r.Options.Quiet
	command := cmp.Or(r.Command, "gavel run")
	if err := report.Write(r.Stdout, r.format, run, brief); err != nil {
		fmt.Fprintf(r.Stderr, "%s: writing the report: %v\n", command, err)
		code = Worse(code, ExitUnknown)
	}
	for _, err := range written() {
		fmt.Fprintf(r.Stderr, "%s: %v\n", command, err)
		code = Worse(code, ExitInfra)
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
