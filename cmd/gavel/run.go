package main

import (
	"cmp"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/gavelhq/gavel"
	"github.com/gavelhq/gavel/judge"
	"github.com/gavelhq/gavel/llm"
	"github.com/gavelhq/gavel/llm/providers"
	"github.com/gavelhq/gavel/report"
	"github.com/gavelhq/gavel/runner"
	"github.com/gavelhq/gavel/spec"
)

const runHelp = `Usage: gavel run [flags] [SUITE...]

Runs suites (a suite file, or a directory holding gavel.yaml; default ".")
and prints a report. The exit code is 0 when every suite reaches its
threshold, 1 when one does not, 2 for a usage or suite error (nothing
runs), 3 when the agent or a provider could not be reached at all.

Examples:
  gavel run examples/support-desk
  gavel run --tag policy --trials 5 suite.yaml
  gavel run --out report.xml --out summary.md --max-cost-usd 2
  gavel run --changed-since origin/main --gate "go test ./..."

Flags:
`

// listFlag is a repeatable string flag.
type listFlag []string

func (l *listFlag) String() string     { return strings.Join(*l, ",") }
func (l *listFlag) Set(v string) error { *l = append(*l, v); return nil }

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
	noCache, failFast bool
	quiet, verbose    bool
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
	fs.StringVar(&f.resume, "resume", "", "carry on an interrupted `run` (its id): the trials it finished are kept, the others run")
	fs.StringVar(&f.retry, "retry-errors", "", "run again the trials of `run` (its id) that ended in ERROR, keeping the others")
	fs.StringVar(&f.gate, "gate", "", "run this shell `command` first (your unit tests); if it fails, exit 1 without running a case")
	fs.Var(&f.outs, "out", "also write a report to this file, its format from the extension: .json, .xml (JUnit), .md, .html, .txt (repeatable; the JSON report goes to "+defaultJSONReport+" unless one is named)")
	fs.StringVar(&f.format, "format", "text", "the report printed: text, json, junit, markdown or html")
	fs.IntVar(&f.concurrency, "concurrency", 0, "trials talking with the agent at once; as many more may be being judged (default: the suite's, else 4)")
	fs.IntVar(&f.trials, "trials", 0, "run every case this many times (default: the suite's)")
	fs.DurationVar(&f.timeout, "timeout", 0, "time one trial's conversation may take (default: the suite's, else 5m)")
	fs.Float64Var(&f.minPassRate, "min-pass-rate", 0, "the pass rate to reach, 0..1 (default: the suite's threshold)")
	fs.Float64Var(&f.maxCost, "max-cost-usd", 0, "stop starting trials once this much was spent")
	fs.Int64Var(&f.maxTokens, "max-tokens", 0, "stop starting trials once this many tokens were spent")
	fs.BoolVar(&f.noCache, "no-cache", false, "ask the models again instead of reusing cached answers")
	fs.BoolVar(&f.failFast, "fail-fast", false, "stop starting trials after the first that does not pass")
	fs.BoolVar(&f.quiet, "quiet", false, "print only the summary")
	fs.BoolVar(&f.verbose, "verbose", false, "print every case in detail, passed ones too")
	return fs, &f
}

func runCommand(args []string, stdout, stderr io.Writer) int {
	fs, f := runFlagSet(stderr)
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return exitPassed
		}
		return exitUsage
	}
	format, err := report.ParseFormat(f.format)
	if err != nil {
		fmt.Fprintln(stderr, "gavel run: --format:", err)
		return exitUsage
	}
	if f.minPassRate < 0 || f.minPassRate > 1 {
		fmt.Fprintf(stderr, "gavel run: --min-pass-rate %v: want a pass rate from 0 to 1\n", f.minPassRate)
		return exitUsage
	}
	outs, err := outputs(f.outs)
	if err != nil {
		fmt.Fprintln(stderr, "gavel run:", err)
		return exitUsage
	}
	if !slices.ContainsFunc(outs, func(o output) bool { return o.format == report.JSON }) {
		outs = append(outs, output{defaultJSONReport, report.JSON}) // the run's full record, always kept
	}
	suites := fs.Args()
	if len(suites) == 0 {
		suites = []string{"."}
	}

	m, err := newModels(defaultCacheDir(), f.noCache)
	if err != nil {
		fmt.Fprintln(stderr, "gavel run: the model cache:", err)
		return exitInfra
	}
	defer m.Close()
	// One limiter per server, shared by every suite and role: a vendor
	// counts requests per account. A meter per suite: each run reports
	// what it spent by model.
	limits := &llm.Limiters{}
	var built []*spec.Built
	var meters []*llm.Meter
	defer func() {
		for _, b := range built {
			b.Close()
		}
	}()
	failed := false
	for _, path := range suites {
		meter := llm.NewMeter(llm.DefaultPrices())
		env := spec.Env{Registry: limits.Registry(providers.Registry()), Getenv: os.Getenv, Wrap: m.wrapper(meter), Stderr: stderr}
		b, err := loadSuite(path, env)
		if err != nil {
			fmt.Fprintln(stderr, err)
			failed = true
			continue
		}
		if err := selectCases(b.Suite, f.tags, f.ids); err != nil {
			fmt.Fprintf(stderr, "%s: %v\n", path, err)
			failed = true
		}
		if f.changedSince != "" && !failed {
			if err := selectChanged(b.Suite, f.changedSince, stderr); err != nil {
				fmt.Fprintf(stderr, "%s: %v\n", path, err)
				failed = true
			}
		}
		built = append(built, b)
		meters = append(meters, meter)
	}
	if failed {
		return exitUsage
	}
	ctx, stop := interrupts(stderr)
	defer stop.release()
	st, err := openStore(ctx, *f.db)
	if err != nil {
		fmt.Fprintln(stderr, "gavel run: the results database:", err)
		return exitInfra
	}
	defer st.Close()
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
	bar := newProgress(progressTo)
	for i, b := range built {
		if len(b.Suite.Cases) == 0 {
			continue // --changed-since selected none
		}
		if f.minPassRate > 0 {
			b.Suite.Threshold = f.minPassRate
		}
		rec, err := record(ctx, st, b, runInfo(b, f, b.Suite.Threshold), prior.id, stop.now, stderr)
		if err != nil {
			fmt.Fprintln(stderr, "gavel run: the results database:", err)
			return exitInfra
		}
		run := runner.Run(ctx, b.Suite, runner.Config{
			Concurrency: cmp.Or(f.concurrency, b.Concurrency),
			Trials:      f.trials,
			Timeout:     cmp.Or(f.timeout, b.Timeout),
			FollowUps:   b.FollowUps,
			Budget:      runner.Budget{MaxCostUSD: f.maxCost, MaxTokens: f.maxTokens},
			FailFast:    f.failFast,
			Stop:        stop.drain,
			Reuse:       prior.reuse,
			Progress:    func(p runner.Progress) { bar.update(p); rec.trial(p) },
		})
		bar.finish()
		run.Models = spentByModel(meters[i])
		runCode := exitCode(run)
		if err := rec.finish(run, runCode); err != nil {
			fmt.Fprintln(stderr, "gavel run: the results database:", err)
			runCode = exitInfra
		} else {
			fmt.Fprintf(stderr, "gavel: run %s saved (gavel show %s)\n", rec.runID, rec.runID)
		}
		opts := report.Options{Verbose: f.verbose, Version: version}
		if err := report.Write(stdout, format, run, opts); err != nil {
			fmt.Fprintln(stderr, "gavel run: writing the report:", err)
			code = max(code, exitUnknown)
		}
		for _, o := range outs {
			if err := writeReport(o, run, opts); err != nil {
				fmt.Fprintln(stderr, "gavel run:", err)
				code = max(code, exitInfra)
			}
		}
		code = max(code, runCode)
	}
	return code
}

func loadSuite(path string, env spec.Env) (*spec.Built, error) {
	return spec.Open(path, env)
}

// selectCases keeps the cases with one of tags and one of ids (an empty
// list keeps all).
func selectCases(s *gavel.Suite, tags, ids []string) error {
	for _, id := range ids {
		if !slices.ContainsFunc(s.Cases, func(c *gavel.Case) bool { return c.ID == id }) {
			return fmt.Errorf("--id %s: no such case in suite %s", id, s.Name)
		}
	}
	s.Cases = slices.DeleteFunc(s.Cases, func(c *gavel.Case) bool {
		if len(ids) > 0 && !slices.Contains(ids, c.ID) {
			return true
		}
		return len(tags) > 0 && !slices.ContainsFunc(c.Tags, func(t string) bool { return slices.Contains(tags, t) })
	})
	if len(s.Cases) == 0 {
		return errors.New("no case matches the --tag and --id filters")
	}
	return nil
}

// selectChanged keeps the cases that files changed since ref affect.
func selectChanged(s *gavel.Suite, ref string, stderr io.Writer) error {
	files, err := changedFiles(filepath.Dir(s.File), ref)
	if err != nil {
		return err
	}
	affected := s.Affected(files)
	fmt.Fprintf(stderr, "gavel: %s: %d of %d cases affected by the %d files changed since %s\n", s.Name, len(affected), len(s.Cases), len(files), ref)
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

// exitCode is the exit code a run earns: 3 when no trial completed a
// conversation (the agent or a provider was down for the whole run), 1
// when the threshold was not met.
func exitCode(run *gavel.Run) int {
	ran, reached := 0, 0
	for _, c := range run.Cases {
		for _, t := range c.Trials {
			ran++
			if t.Transcript != nil && t.Transcript.Status == judge.ExecSuccess {
				reached++
			}
		}
	}
	switch {
	case ran > 0 && reached == 0:
		return exitInfra
	case !run.Met():
		return exitFailed
	}
	return exitPassed
}

// defaultJSONReport is where the JSON report goes unless --out names
// another JSON file.
const defaultJSONReport = "reports/latest.json"

// An output is a report file to write.
type output struct {
	path   string
	format report.Format
}

func outputs(paths []string) ([]output, error) {
	byExt := map[string]report.Format{".json": report.JSON, ".xml": report.JUnit, ".md": report.Markdown, ".html": report.HTML, ".txt": report.Text}
	var out []output
	for _, p := range paths {
		f, ok := byExt[strings.ToLower(filepath.Ext(p))]
		if !ok {
			return nil, fmt.Errorf("--out %s: the extension says no format: use .json, .xml (JUnit), .md, .html or .txt", p)
		}
		out = append(out, output{p, f})
	}
	return out, nil
}

// writeReport writes a report file whole or not at all: a temporary file
// renamed into place.
func writeReport(o output, run *gavel.Run, opts report.Options) error {
	if err := os.MkdirAll(filepath.Dir(o.path), 0o755); err != nil {
		return fmt.Errorf("report %s: %w", o.path, err)
	}
	tmp, err := os.CreateTemp(filepath.Dir(o.path), ".gavel-report-*")
	if err != nil {
		return fmt.Errorf("report %s: %w", o.path, err)
	}
	defer os.Remove(tmp.Name())
	if err := report.Write(tmp, o.format, run, opts); err != nil {
		tmp.Close()
		return fmt.Errorf("report %s: %w", o.path, err)
	}
	if err := tmp.Close(); err != nil {
		return fmt.Errorf("report %s: %w", o.path, err)
	}
	return os.Rename(tmp.Name(), o.path)
}

// stopper turns Ctrl-C into a graceful stop (drain: no new trials), and a
// second Ctrl-C into cancelling the trials in flight.
type stopper struct {
	drain   chan struct{}
	now     func() // drains, as a first Ctrl-C does
	release func()
}

func interrupts(stderr io.Writer) (context.Context, stopper) {
	ctx, cancel := context.WithCancel(context.Background())
	signals := make(chan os.Signal, 2)
	signal.Notify(signals, os.Interrupt)
	s := stopper{drain: make(chan struct{})}
	var once sync.Once
	s.now = func() { once.Do(func() { close(s.drain) }) }
	done := make(chan struct{})
	go func() {
		select {
		case <-signals:
			fmt.Fprintln(stderr, "\ngavel: stopping: trials in flight finish; press Ctrl-C again to cancel them")
			s.now()
		case <-done:
			return
		}
		select {
		case <-signals:
			fmt.Fprintln(stderr, "gavel: cancelling the trials in flight")
			cancel()
		case <-done:
		}
	}()
	s.release = func() { signal.Stop(signals); close(done); cancel() }
	return ctx, s
}
