package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"slices"
	"strings"

	flag "github.com/spf13/pflag"

	"github.com/gavelhq/gavel"
	"github.com/gavelhq/gavel/judge"
	"github.com/gavelhq/gavel/spec"
	"github.com/gavelhq/gavel/store"
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

// rejudgeFlags are gavel rejudge's flags: gavel run's that apply, and
// its own.
type rejudgeFlags struct {
	runFlags
	suite    string
	baseline string
	pairwise string
	model    string
}

func rejudgeFlagSet(stderr io.Writer) (*flag.FlagSet, *rejudgeFlags) {
	var f rejudgeFlags
	fs := flag.NewFlagSet("rejudge", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() { fmt.Fprint(stderr, rejudgeHelp); fs.PrintDefaults() }
	fs.StringVar(&f.suite, "suite", "", "judge with this suite `file` (or directory holding gavel.yaml); default: the suite the run was made from")
	fs.Var(&f.tags, "tag", "judge only cases with this tag (repeatable: any of them)")
	fs.Var(&f.ids, "id", "judge only the case with this id (repeatable)")
	f.db = dbFlag(fs)
	fs.StringVar(&f.baseline, "baseline", "", "compare every reply with the reply of this `run` to the same case, with a pairwise judge (needs --pairwise)")
	fs.StringVar(&f.pairwise, "pairwise", "", "the `criteria` of the pairwise judge against --baseline: what makes one reply better than the other")
	fs.StringVar(&f.model, "model", "", "the pairwise judge's `model` (provider:model); default: the suite's models.judge")
	reportFlags(fs, &f.runFlags)
	fs.IntVar(&f.concurrency, "concurrency", 0, "trials judged at once (default: the suite's, else 4)")
	fs.DurationVar(&f.timeout, "timeout", 0, "time the judges of one trial may take (default: the suite's, else 5m)")
	fs.Float64Var(&f.minPassRate, "min-pass-rate", 0, "the pass rate to reach, 0..1 (default: the suite's threshold)")
	fs.Float64Var(&f.maxCost, "max-cost-usd", 0, "stop judging trials once this much was spent")
	fs.Int64Var(&f.maxTokens, "max-tokens", 0, "stop judging trials once this many tokens were spent")
	fs.StringVar(&f.pricesFile, "prices", "", "price models from this YAML or JSON `file`, as gavel run --prices")
	fs.BoolVar(&f.noCache, "no-cache", false, "ask the judges' models again instead of reusing cached answers")
	return fs, &f
}

func rejudgeCommand(args []string, stdout, stderr io.Writer) int {
	fs, f := rejudgeFlagSet(stderr)
	if code, ok := parse(fs, args); !ok {
		return code
	}
	if fs.NArg() != 1 {
		fs.Usage()
		return exitUsage
	}
	if (f.baseline == "") != (f.pairwise == "") {
		fmt.Fprintln(stderr, "gavel rejudge: --baseline and --pairwise go together: the run to compare with, and what makes a reply better")
		return exitUsage
	}
	if f.model != "" && f.pairwise == "" {
		fmt.Fprintln(stderr, "gavel rejudge: --model is the pairwise judge's: give --baseline and --pairwise too")
		return exitUsage
	}
	format, outs, err := reportsOf(&f.runFlags)
	if err != nil {
		fmt.Fprintln(stderr, "gavel rejudge:", err)
		return exitUsage
	}
	if f.pricesFile != "" {
		if f.prices, err = spec.LoadPrices(f.pricesFile); err != nil {
			fmt.Fprintf(stderr, "gavel rejudge: --prices %s:\n%v\n", f.pricesFile, err)
			return exitUsage
		}
	}
	id := fs.Arg(0)
	ctx, stop := interrupts(stderr)
	defer stop.release()
	flush, ok := startTracing("gavel rejudge", stderr)
	if !ok {
		return exitUsage
	}
	defer flush()
	st, err := openStore(ctx, *f.db)
	if err != nil {
		fmt.Fprintln(stderr, "gavel rejudge: the results database:", err)
		return exitInfra
	}
	defer st.Close()
	source, code := storedRun(ctx, st, id, "", stderr)
	if source == nil {
		return code
	}
	var baseline *store.StoredRun
	if f.baseline != "" {
		if baseline, code = storedRun(ctx, st, f.baseline, "--baseline ", stderr); baseline == nil {
			return code
		}
	}
	path := f.suite
	if path == "" {
		if path = source.Info.SuiteFile; path == "" {
			fmt.Fprintf(stderr, "gavel rejudge: run %s names no suite file (an imported run?): give one with --suite\n", id)
			return exitUsage
		}
	}
	m, err := newModels(defaultCacheDir(), f.noCache, false)
	if err != nil {
		fmt.Fprintln(stderr, "gavel rejudge: the model cache:", err)
		return exitInfra
	}
	defer m.Close()
	suites, ok := loadSuites([]string{path}, &f.runFlags, m, stderr)
	defer func() {
		for _, s := range suites {
			s.Close()
		}
	}()
	if !ok {
		return exitUsage
	}
	s := suites[0]
	if s.Suite.Name != source.Info.Suite && source.Info.Suite != "" {
		fmt.Fprintf(stderr, "gavel rejudge: run %s is of suite %q; judging its transcripts with the judges of suite %q (%s), case by case id\n",
			id, source.Info.Suite, s.Suite.Name, s.Suite.File)
	}
	replay := replayOf(source, s.Suite, len(f.tags)+len(f.ids) > 0, stderr)
	if baseline != nil {
		if err := addPairwise(s, baseline, f, m); err != nil {
			fmt.Fprintf(stderr, "gavel rejudge: %v\n", err)
			return exitUsage
		}
	}
	progressTo := stderr
	if f.quiet {
		progressTo = io.Discard
	}
	session := &runSession{f: &f.runFlags, st: st, stop: stop, replay: replay, bar: newProgress(progressTo),
		format: format, outs: outs, stdout: stdout, stderr: stderr}
	return session.run(ctx, s)
}

// storedRun reads a run whole, for gavel rejudge; flag names the flag
// that named it ("" for the argument), for messages. It returns nil and
// an exit code after saying why it cannot be read, or be judged: it is
// still running.
func storedRun(ctx context.Context, st store.Store, id, flag string, stderr io.Writer) (*store.StoredRun, int) {
	stored, err := st.Run(ctx, id)
	switch {
	case errors.Is(err, store.ErrNotFound):
		fmt.Fprintf(stderr, "gavel rejudge: %s%s: no such run (gavel runs lists them)\n", flag, id)
		return nil, exitUsage
	case err != nil:
		fmt.Fprintf(stderr, "gavel rejudge: %s%s: %v\n", flag, id, err)
		return nil, exitInfra
	case stored.Info.Status == store.Running:
		fmt.Fprintf(stderr, "gavel rejudge: %s%s: that run is still running (pid %d on %s): let it finish, or stop it first\n",
			flag, id, stored.Info.PID, stored.Info.Host)
		return nil, exitUsage
	}
	return stored, exitPassed
}

// A replay is what gavel rejudge judges again: the run it rejudges and
// its stored trials by case id (runner.Config.Replay).
type replay struct {
	source string
	trials map[string][]gavel.Trial
}

// replayOf sorts the trials of the source run by case, and says which of
// the suite's cases (those selected) the run lacks, and, unless cases
// were selected (--id, --tag), which of its cases the suite no longer
// has: they are not judged.
func replayOf(source *store.StoredRun, s *gavel.Suite, selected bool, stderr io.Writer) *replay {
	r := &replay{source: source.Info.ID, trials: map[string][]gavel.Trial{}}
	var gone []string
	for _, cr := range source.Run.Cases {
		id := cr.ID()
		r.trials[id] = append(r.trials[id], cr.Trials...)
		inSuite := slices.ContainsFunc(s.Cases, func(c *gavel.Case) bool { return c.ID == id })
		if !selected && !inSuite && !slices.Contains(gone, id) {
			gone = append(gone, id)
		}
	}
	if len(gone) > 0 {
		fmt.Fprintf(stderr, "gavel rejudge: run %s has cases that suite %s no longer has, not judged: %s\n", r.source, s.Name, strings.Join(gone, ", "))
	}
	var lacking []string
	for _, c := range s.Cases {
		if len(r.trials[c.ID]) == 0 {
			lacking = append(lacking, c.ID)
		}
	}
	if len(lacking) > 0 {
		fmt.Fprintf(stderr, "gavel rejudge: run %s has no transcript of these cases of suite %s, skipped: %s\n", r.source, s.Name, strings.Join(lacking, ", "))
	}
	return r
}

// stored is runner.Config.Replay.
func (r *replay) stored(caseID string) ([]gavel.Trial, string) {
	return r.trials[caseID], fmt.Sprintf("run %s, rejudged, has no transcript of this case", r.source)
}

// addPairwise adds to every case of s a pairwise judge of f.pairwise
// against baseline's transcript of the same case (its trial of the same
// number, else its first): it runs after the case's own judges, and only
// if they did not fail (as a later tier), and fails when the baseline's
// reply is better. A case the baseline lacks cannot be compared: the
// judge is an ERROR for it.
func addPairwise(s meteredSuite, baseline *store.StoredRun, f *rejudgeFlags, m *models) error {
	ref, dir := f.model, ""
	if ref == "" {
		ref, dir = s.ModelRef("judge"), filepath.Dir(s.Suite.File)
	}
	p, err := openPairwise(ref, dir, f.pairwise, m, s.meter)
	if err != nil {
		return err
	}
	byCase := map[string][]gavel.Trial{}
	for _, cr := range baseline.Run.Cases {
		byCase[cr.ID()] = append(byCase[cr.ID()], cr.Trials...)
	}
	for _, c := range s.Suite.Cases {
		trials := byCase[c.ID]
		pw := judge.Named("pairwise vs "+baseline.Info.ID, judge.Func(func(ctx context.Context, t *judge.Transcript) (judge.Judgment, error) {
			return p.Against(baselineTranscript(trials, t.Trial)).Judge(ctx, t)
		}))
		if c.Judge == nil {
			c.Judge = pw
		} else {
			c.Judge = judge.Tiered(c.Judge, pw)
		}
	}
	return nil
}

// baselineTranscript returns the transcript of the trial numbered n among
// trials, else of the first that has one; nil when none has.
func baselineTranscript(trials []gavel.Trial, n int) *judge.Transcript {
	var first *judge.Transcript
	for _, t := range trials {
		if t.Transcript == nil {
			continue
		}
		if t.N == n {
			return t.Transcript
		}
		if first == nil {
			first = t.Transcript
		}
	}
	return first
}
