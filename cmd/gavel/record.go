package main

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
)

// A recorder writes a run to the store as it goes: the cases' definitions
// first, then every trial as it finishes (those kept from a run it carries
// on too), then how the run ended; and while it runs, a heartbeat every
// store.HeartbeatInterval, so that a run whose process died is shown as
// abandoned. Trials are written by a goroutine of their own, in the order
// they finished, so that the runner never waits for the disk. If a write
// fails (a full or read-only disk), it stops the run: results that cannot
// be kept are not worth paying for.
type recorder struct {
	st    store.Store
	runID string
	keys  map[string]int64 // case id → version key
	stop  func(why string) // stops scheduling trials
	warn  io.Writer

	trials  chan gavel.Trial // to write
	written chan struct{}    // closed when every trial is written
	beating chan struct{}    // closed to stop the heartbeat

	mu  sync.Mutex
	err error // the first failed write
}

// pendingTrials is how many finished trials may wait to be written before
// the runner waits for the writer.
const pendingTrials = 256

// record saves b's case definitions and creates the run (info.Continues
// names the run it carries on, if any: that run is left as it was).
func record(ctx context.Context, st store.Store, b *spec.Built, info store.RunInfo, stop func(why string), warn io.Writer) (*recorder, error) {
	r := &recorder{st: st, keys: map[string]int64{}, stop: stop, warn: warn,
		trials: make(chan gavel.Trial, pendingTrials), written: make(chan struct{}), beating: make(chan struct{})}
	for _, c := range b.Suite.Cases {
		v, err := st.SaveCase(ctx, store.CaseDef{Suite: b.Suite.Name, ID: c.ID, Name: c.Name, Tags: c.Tags,
			Definition: b.Definition(c.ID), Source: c.Source})
		if err != nil {
			return nil, err
		}
		r.keys[c.ID] = v.Key
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
func (r *recorder) beat() {
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

// write saves the trials handed over, until there are no more.
func (r *recorder) write() {
	defer close(r.written)
	for t := range r.trials {
		if r.failed() {
			continue // the run is stopping; the first error says why
		}
		err := r.st.SaveTrial(context.Background(), r.runID, store.TrialRecord{CaseKey: r.keys[t.CaseID], Trial: t})
		if err != nil {
			r.fail(err)
		}
	}
}

func (r *recorder) failed() bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.err != nil
}

// fail keeps the first write error, says it, and stops the run.
func (r *recorder) fail(err error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.err == nil {
		r.err = err
		fmt.Fprintf(r.warn, "gavel: stopping: the results database cannot be written: %v\n", err)
		r.stop(fmt.Sprintf("interrupted: the results database stopped taking writes (%v)", err))
	}
}

// trial hands a finished trial, or one kept from the run this one
// carries on, to the writer; it is runner.Config.Progress's helper.
func (r *recorder) trial(p runner.Progress) {
	r.trials <- p.Trial
}

// finish records how the run ended, and returns the first write error.
func (r *recorder) finish(run *gavel.Run, code int) error {
	close(r.trials)
	<-r.written
	close(r.beating)
	status := store.Passed
	switch {
	case code == exitInfra && r.err == nil:
		status = store.Errored
	case !run.Complete() || r.err != nil:
		status = store.Incomplete
	case code == exitFailed:
		status = store.Failed
	}
	err := r.st.FinishRun(context.Background(), r.runID, store.RunEnd{Status: status, Ended: time.Now(), Run: run})
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.err != nil {
		return r.err
	}
	return err
}

// runInfo describes a run about to start, for the store.
func runInfo(b *spec.Built, f *runFlags, threshold float64) store.RunInfo {
	dir := filepath.Dir(b.Suite.File)
	info := store.RunInfo{
		Suite:     b.Suite.Name,
		SuiteFile: b.Suite.File,
		StartedBy: cmpEnv("GAVEL_USER", "USER", "USERNAME"),
		Models:    b.Suite.Models,
		Threshold: threshold,
		Started:   time.Now(),
		// The values the run uses: the flag's, else the suite's, else
		// the runner's default, said to be one.
		Settings: map[string]string{
			"concurrency": effective(f.concurrency, b.Concurrency, runner.DefaultConcurrency, strconv.Itoa),
			"trials":      trialsSetting(f.trials, b.Suite),
			"timeout":     effective(f.timeout, b.Timeout, runner.DefaultTimeout, shortDuration),
		},
	}
	info.Host, _ = os.Hostname()
	info.PID, info.Machine = os.Getpid(), store.ThisMachine()
	info.GitCommit, info.GitBranch, info.GitDirty = gitInfo(dir, f.writes())
	for _, tag := range f.tags {
		info.Filters = append(info.Filters, "--tag "+tag)
	}
	for _, id := range f.ids {
		info.Filters = append(info.Filters, "--id "+id)
	}
	if f.changedSince != "" {
		info.Filters = append(info.Filters, "--changed-since "+f.changedSince)
	}
	if f.maxCost > 0 {
		info.Settings["max_cost_usd"] = strconv.FormatFloat(f.maxCost, 'f', -1, 64)
	}
	if f.maxTokens > 0 {
		info.Settings["max_tokens"] = strconv.FormatInt(f.maxTokens, 10)
	}
	return info
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
	if flag > 0 {
		return strconv.Itoa(flag)
	}
	suite := effective(0, s.Trials, 1, strconv.Itoa)
	for _, c := range s.Cases {
		if c.Trials > 0 {
			return "each case's own, else " + suite
		}
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

// cmpEnv returns the first of the variables that is set.
func cmpEnv(names ...string) string {
	for _, n := range names {
		if v := os.Getenv(n); v != "" {
			return v
		}
	}
	return ""
}
