package eval

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/gavelhq/gavel"
	"github.com/gavelhq/gavel/runner"
	"github.com/gavelhq/gavel/spec"
	"github.com/gavelhq/gavel/store"
	"github.com/gavelhq/gavel/telemetry"
)

// A Recording writes a run to the store as it goes: the cases' definitions
// (first, or, for a suite read as it runs, each before its trials), then
// every trial as it finishes (those kept from a run it carries on too),
// then how the run ended; and while it runs, a heartbeat every
// store.HeartbeatInterval, so that a run whose process died is shown as
// abandoned. Definitions and trials are written by a goroutine of their
// own, in the order they came, so that the runner never waits for the
// disk: whatever came while it wrote is written next in one batch (one
// transaction; store.Batcher), so that a run that finishes trials faster
// than the database commits them one by one leaves no queue at its end.
// If a write fails (a full or read-only disk), it stops the run: results
// that cannot be kept are not worth paying for.
type Recording struct {
	st    store.Store
	runID string
	keys  map[string]int64 // case id → version key
	stop  func(why string) // stops scheduling trials
	warn  io.Writer

	items   chan recorded // to write
	written chan struct{} // closed when every item is written
	beating chan struct{} // closed to stop the heartbeat

	mu  sync.Mutex
	err error // the first failed write
}

// pendingTrials is how many finished trials (or case definitions) may
// wait to be written before the runner waits for the writer; it is also
// the most the writer writes in one batch.
const pendingTrials = 256

// A recorded item is a case's definition or a finished trial, to write.
type recorded struct {
	def   *store.CaseDef
	trial gavel.Trial
}

// Record saves b's case definitions and creates the run described by
// info (NewRunInfo; info.Continues names the run it carries on, if any:
// that run is left as it was), then records the run as it goes: hand it
// every trial as it finishes (Trial, runner.Config.Progress), then End.
// If a write fails, it calls stop, saying why, and tells warn.
func Record(ctx context.Context, st store.Store, b *spec.Built, info store.RunInfo, stop func(why string), warn io.Writer) (*Recording, error) {
	r := &Recording{st: st, keys: map[string]int64{}, stop: stop, warn: warn,
		items: make(chan recorded, pendingTrials), written: make(chan struct{}), beating: make(chan struct{})}
	defs := make([]store.CaseDef, len(b.Suite.Cases))
	for i, c := range b.Suite.Cases {
		defs[i] = caseDef(b.Suite.Name, c, b.Definition(c.ID))
	}
	versions, err := store.SaveCases(ctx, st, defs)
	if err != nil {
		return nil, err
	}
	for _, v := range versions {
		r.keys[v.ID] = v.Key
	}
	created, err := st.CreateRun(ctx, info)
	if err != nil {
		return nil, err
	}
	r.runID = created.ID
	go r.write()
	go r.beat()
	return r, nil
}

// beat records a heartbeat every store.HeartbeatInterval until the run
// ends. A heartbeat that fails is let go: the trials' writes say when the
// database is gone.
func (r *Recording) beat() {
	tick := time.NewTicker(store.HeartbeatInterval)
	defer tick.Stop()
	for {
		select {
		case <-tick.C:
			ctx, cancel := context.WithTimeout(context.Background(), store.HeartbeatInterval)
			_ = r.st.Heartbeat(ctx, r.runID)
			cancel()
		case <-r.beating:
			return
		}
	}
}

// caseDef is the definition of case c of suite, as the store keeps it.
func caseDef(suite string, c *gavel.Case, definition []byte) store.CaseDef {
	return store.CaseDef{Suite: suite, ID: c.ID, Name: c.Name, Tags: c.Tags, Definition: definition, Source: c.Source}
}

// batchWait is how long the writer gathers what is handed over after the
// first item of a batch, unless the batch fills or the run ends first.
// Without it, a run at no model latency wrote about three items a
// transaction (6,700 transactions for 10,000 cases), and a transaction's
// own cost (begin, heartbeat, commit) was most of the writing's.
const batchWait = 10 * time.Millisecond

// write saves the definitions and trials handed over, until there are no
// more: each time, all that comes within batchWait, in one batch.
func (r *Recording) write() {
	defer close(r.written)
	wait := time.NewTimer(batchWait)
	for item := range r.items {
		batch := []recorded{item}
		wait.Reset(batchWait)
	more:
		for len(batch) < pendingTrials {
			select {
			case item, ok := <-r.items:
				if !ok {
					break more
				}
				batch = append(batch, item)
			case <-wait.C:
				break more
			}
		}
		wait.Stop()
		if r.failed() {
			continue // the run is stopping; the first error says why
		}
		if err := r.save(batch); err != nil {
			r.fail(err)
		}
	}
}

// save writes a batch: its definitions first, then its trials, whose
// cases' definitions came before them.
func (r *Recording) save(batch []recorded) error {
	var defs []store.CaseDef
	var trials []store.TrialRecord
	for _, item := range batch {
		if item.def != nil {
			defs = append(defs, *item.def)
		}
	}
	if len(defs) > 0 {
		versions, err := store.SaveCases(context.Background(), r.st, defs)
		if err != nil {
			return err
		}
		for _, v := range versions {
			r.keys[v.ID] = v.Key
		}
	}
	for _, item := range batch {
		if item.def == nil {
			trials = append(trials, store.TrialRecord{CaseKey: r.keys[item.trial.CaseID], Trial: item.trial})
		}
	}
	if len(trials) == 0 {
		return nil
	}
	return store.SaveTrials(context.Background(), r.st, r.runID, trials)
}

// saveCase hands the definition of a case about to run to the writer,
// before any of its trials.
func (r *Recording) saveCase(def store.CaseDef) {
	r.items <- recorded{def: &def}
}

func (r *Recording) failed() bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.err != nil
}

// fail keeps the first write error, says it, and stops the run.
func (r *Recording) fail(err error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.err == nil {
		r.err = err
		fmt.Fprintf(r.warn, "gavel: stopping: the results database cannot be written: %v\n", err)
		r.stop(fmt.Sprintf("interrupted: the results database stopped taking writes (%v)", err))
	}
}

// Trial hands a finished trial, or one kept from the run this one
// carries on, to the writer: it is a runner.Config.Progress.
func (r *Recording) Trial(p runner.Progress) {
	r.items <- recorded{trial: p.Trial}
}

// ID is the recorded run's id.
func (r *Recording) ID() string { return r.runID }

// End records how run ended, and returns the exit code it earns
// (ExitCode; ExitInfra and the first write error when the store failed).
func (r *Recording) End(run *gavel.Run) (int, error) {
	code := ExitCode(run)
	if err := r.finish(run, code); err != nil {
		return ExitInfra, err
	}
	return code, nil
}

// finish records how the run ended, and returns the first write error.
func (r *Recording) finish(run *gavel.Run, code int) error {
	close(r.items)
	<-r.written
	close(r.beating)
	status := Status(run, code)
	if r.err != nil {
		status = store.Incomplete // trials are missing from the store
	}
	err := r.st.FinishRun(context.Background(), r.runID, store.RunEnd{Status: status, Ended: time.Now(), Run: run})
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.err != nil {
		return r.err
	}
	return err
}

// RunRecorded runs b's selected cases in this process with c, traced as
// a run, and, when rec is not nil, records the run with it; it returns the
// run and the exit code it earns (ExitCode; ExitInfra and the error when
// the store failed). The web app's runs and gaveltest's go through it.
func RunRecorded(ctx context.Context, b *spec.Built, c runner.Config, rec *Recording) (*gavel.Run, int, error) {
	id := ""
	if rec != nil {
		id = rec.ID()
		if progress := c.Progress; progress != nil {
			c.Progress = func(p runner.Progress) { progress(p); rec.Trial(p) }
		} else {
			c.Progress = rec.Trial
		}
	}
	ctx, endSpan := telemetry.StartRun(ctx, telemetry.Run{Suite: b.Suite.Name, ID: id})
	run := runner.Run(ctx, b.Suite, c)
	if rec != nil {
		if err := store.ApplyQuarantine(context.WithoutCancel(ctx), rec.st, run, rec.ID()); err != nil {
			fmt.Fprintln(rec.warn, "gavel: the quarantined cases:", err)
		}
		run.JudgeAccuracy = store.JudgeAccuracy(context.WithoutCancel(ctx), rec.st, b.Suite.Name)
	}
	endSpan(run.Complete(), run.Passed())
	if rec == nil {
		return run, ExitCode(run), nil
	}
	code, err := rec.End(run)
	return run, code, err
}

// NewRunInfo describes a run of b about to start as f says, against
// threshold, for the store: who starts it where, on which commit, with
// which settings and filters.
func NewRunInfo(b *spec.Built, f *Options, threshold float64) store.RunInfo {
	dir := filepath.Dir(b.Suite.File)
	info := store.RunInfo{
		Suite:     b.Suite.Name,
		SuiteFile: b.Suite.File,
		StartedBy: StartedBy(),
		Models:    b.Suite.Models,
		Threshold: threshold,
		Started:   time.Now(),
		// The values the run uses: the flag's, else the suite's, else
		// the runner's default, said to be one.
		Settings: map[string]string{
			"concurrency": effective(f.Concurrency, b.Concurrency, runner.DefaultConcurrency, strconv.Itoa),
			"trials":      trialsSetting(f.Trials, b.Suite),
			"timeout":     effective(f.Timeout, b.Timeout, runner.DefaultTimeout, shortDuration),
		},
	}
	info.Host, _ = os.Hostname()
	info.PID, info.Machine = os.Getpid(), store.ThisMachine()
	info.GitCommit, info.GitBranch, info.GitDirty = gitInfo(dir, f.writes())
	info.GitCommit, info.GitBranch = fillGit(info.GitCommit, info.GitBranch, OriginOf(os.Getenv))
	info.Label = strings.TrimSpace(f.Label)
	for _, tag := range f.Tags {
		info.Filters = append(info.Filters, "--tag "+tag)
	}
	for _, id := range f.IDs {
		info.Filters = append(info.Filters, "--id "+id)
	}
	if f.ChangedSince != "" {
		info.Filters = append(info.Filters, "--changed-since "+f.ChangedSince)
	}
	gateSettings(info.Settings, b.Suite.Gate)
	if n := b.Suite.Flaky.QuarantineAfter; n > 0 {
		info.Settings[store.SettingQuarantineAfter] = strconv.Itoa(n)
	}
	if f.Baseline != "" {
		info.Settings[store.SettingBaseline] = f.Baseline
	}
	if f.MaxCostUSD > 0 {
		info.Settings["max_cost_usd"] = strconv.FormatFloat(f.MaxCostUSD, 'f', -1, 64)
	}
	if f.MaxTokens > 0 {
		info.Settings["max_tokens"] = strconv.FormatInt(f.MaxTokens, 10)
	}
	if b.ReplayedRun != "" {
		info.Settings["replay_tools"] = b.ReplayedRun
	}
	return info
}

// gateSettings records a run's gate configuration in its settings, which
// the store reads back (store.RunInfo.GateConfig).
func gateSettings(settings map[string]string, g gavel.GateConfig) {
	if g.Inconclusive != "" {
		settings[store.SettingInconclusive] = string(g.Inconclusive)
	}
	if g.Confidence > 0 {
		settings[store.SettingConfidence] = strconv.FormatFloat(g.Confidence, 'f', -1, 64)
	}
}

// effective formats the value a run uses of a setting: the flag's, else
// the suite's, else the default, marked "(default)".
func effective[T comparable](flag, suite, def T, format func(T) string) string {
	var zero T
	switch {
	case flag != zero:
		return format(flag)
	case suite != zero:
		return format(suite)
	}
	return format(def) + " (default)"
}

// trialsSetting formats how many trials of each case a run makes: the
// flag's for every case, else each case's own, else the suite's, else 1.
func trialsSetting(flag int, s *gavel.Suite) string {
	return trialsSettingOf(flag, s, slices.ContainsFunc(s.Cases, func(c *gavel.Case) bool { return c.Trials > 0 }))
}

// trialsSettingOf is trialsSetting, told whether a case has trials of its
// own.
func trialsSettingOf(flag int, s *gavel.Suite, own bool) string {
	if flag > 0 {
		return strconv.Itoa(flag)
	}
	suite := effective(0, s.Trials, 1, strconv.Itoa)
	if own {
		return "each case's own, else " + suite
	}
	return suite
}

// shortDuration formats a duration without its zero units: 5m, not 5m0s.
func shortDuration(d time.Duration) string {
	s := d.String()
	if strings.HasSuffix(s, "m0s") {
		s = strings.TrimSuffix(s, "0s")
	}
	if strings.HasSuffix(s, "h0m") {
		s = strings.TrimSuffix(s, "0m")
	}
	return s
}

// gitInfo returns the commit and branch dir is at, or "" for what git
// cannot tell (no git, not a repository, a detached head), and whether
// the tree has changes not committed (modified, staged, deleted or
// untracked files, as git status sees them). Gavel's own outputs make no
// tree dirty: its .gavel directories, the files own says a run writes,
// and whatever lies in the reports/ directory beside the working
// directory or the suite (where runs write reports by default), so that
// the run after a run is as clean as the one before.
func gitInfo(dir string, own func(path string) bool) (commit, branch string, dirty bool) {
	if out, err := git(dir, "rev-parse", "HEAD"); err == nil {
		commit = strings.TrimSpace(string(out))
	}
	if out, err := git(dir, "rev-parse", "--abbrev-ref", "HEAD"); err == nil {
		if b := strings.TrimSpace(string(out)); b != "HEAD" {
			branch = b
		}
	}
	if commit == "" {
		return commit, branch, false
	}
	top, err := git(dir, "rev-parse", "--show-toplevel")
	if err != nil {
		return commit, branch, false
	}
	root := strings.TrimSpace(string(top))
	status, err := git(root, "status", "--porcelain=v1", "-z", "--untracked-files=all")
	if err != nil {
		return commit, branch, false
	}
	var reports []string
	wd, _ := os.Getwd()
	for _, d := range []string{wd, dir} {
		if abs, err := filepath.Abs(filepath.Join(d, "reports")); err == nil {
			if real, err := filepath.EvalSymlinks(filepath.Dir(abs)); err == nil { // as git's paths are
				abs = filepath.Join(real, "reports")
			}
			reports = append(reports, abs+string(filepath.Separator))
		}
	}
	entries := strings.Split(string(status), "\x00")
	for i := 0; i < len(entries); i++ {
		e := entries[i]
		if len(e) < 4 {
			continue
		}
		if e[0] == 'R' || e[0] == 'C' { // a rename's or copy's source follows
			i++
		}
		name := e[3:]
		path := filepath.Join(root, filepath.FromSlash(name))
		if slices.Contains(strings.Split(name, "/"), ".gavel") || own(path) ||
			slices.ContainsFunc(reports, func(r string) bool { return strings.HasPrefix(path, r) }) {
			continue
		}
		return commit, branch, true
	}
	return commit, branch, false
}
