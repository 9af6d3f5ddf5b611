package eval

import (
	"cmp"
	"context"
	"fmt"
	"io"
	"os"
	"slices"
	"sync"

	"github.com/gavelhq/gavel/llm"
	"github.com/gavelhq/gavel/llm/providers"
	"github.com/gavelhq/gavel/runner"
	"github.com/gavelhq/gavel/spec"
	"github.com/gavelhq/gavel/store"
	"github.com/gavelhq/gavel/web"
)

// A Launcher runs, for the web app (web.Launcher), the suites gavel
// serve was given, with the cases written in the web app added to their
// files' cases, within Limits.
type Launcher struct {
	// Limits bound the runs started from the web app. Set them before
	// the first Launch; the zero LaunchLimits is DefaultLaunchLimits.
	Limits LaunchLimits

	paths  map[string]string // suite name → its file
	st     store.Store
	models *Models
	limits *llm.Limiters
	log    io.Writer

	mu      sync.Mutex
	drains  []*Drain // each run's, to stop scheduling its trials
	active  int      // the runs under way
	running sync.WaitGroup
}

// LaunchLimits bound what the people who may start runs from the web app
// (editors) can spend: the admin who serves it sets them (gavel serve
// --max-trials-per-run, --max-runs-at-once, --max-cost-usd-per-run).
type LaunchLimits struct {
	// MaxTrials is the most trials a run may make (its cases times their
	// trials). Defaults to 1,000.
	MaxTrials int
	// MaxRunning is the most runs under way at once. Defaults to 2.
	MaxRunning int
	// MaxCostUSD, when positive, stops starting a run's trials once it
	// spent this much (as gavel run --max-cost-usd). Defaults to none.
	MaxCostUSD float64
}

// DefaultLaunchLimits are the limits of a Launcher given none.
var DefaultLaunchLimits = LaunchLimits{MaxTrials: 1000, MaxRunning: 2}

// limitsOrDefault is l.Limits, the defaults in place of what it leaves
// unset.
func (l *Launcher) limitsOrDefault() LaunchLimits {
	lim := l.Limits
	lim.MaxTrials = cmp.Or(lim.MaxTrials, DefaultLaunchLimits.MaxTrials)
	lim.MaxRunning = cmp.Or(lim.MaxRunning, DefaultLaunchLimits.MaxRunning)
	return lim
}

// NewLauncher checks the suites at paths (as gavel validate does) and
// returns a launcher of them.
func NewLauncher(paths []string, st store.Store, m *Models, log io.Writer) (*Launcher, error) {
	l := &Launcher{paths: map[string]string{}, st: st, models: m, limits: &llm.Limiters{}, log: log}
	for _, p := range paths {
		b, err := spec.Open(p, spec.Env{Registry: providers.Registry(), Getenv: os.Getenv, DryRun: true})
		if err != nil {
			return nil, err
		}
		b.Close()
		l.paths[b.Suite.Name] = b.Suite.File
	}
	return l, nil
}

// Suites names the suites the launcher runs, sorted.
func (l *Launcher) Suites() []string {
	var names []string
	for name := range l.paths {
		names = append(names, name)
	}
	slices.Sort(names)
	return names
}

// Launch builds the suite, with the cases written in the web app, creates
// the run and runs it in the background.
func (l *Launcher) Launch(ctx context.Context, r web.LaunchRequest) (string, error) {
	path, ok := l.paths[r.Suite]
	if !ok {
		return "", web.Refused("this server does not run suite %q: it runs %v", r.Suite, l.Suites())
	}
	loaded, err := spec.Load(path)
	if err != nil {
		return "", web.Refused("%v", err) // the file was changed into one with problems
	}
	if err := l.addWrittenCases(ctx, loaded, r.Suite); err != nil {
		return "", err
	}
	meter := llm.NewMeter(llm.DefaultPrices())
	b, err := spec.Build(loaded, suiteEnv(l.limits, l.models, meter, l.log, l.st))
	if err != nil {
		return "", web.Refused("%v", err)
	}
	meter.SetPrices(llm.DefaultPrices().With(b.Prices))
	if err := selectCases(b.Suite, r.Tags, r.IDs); err != nil {
		b.Close()
		return "", web.Refused("%v", err)
	}
	lim := l.limitsOrDefault()
	config := runner.Config{Concurrency: b.Concurrency, Trials: r.Trials, Timeout: b.Timeout, FollowUps: b.FollowUps,
		Budget: runner.Budget{MaxCostUSD: lim.MaxCostUSD}}
	trials := 0
	for _, c := range b.Suite.Cases {
		trials += config.TrialsOf(b.Suite, c)
	}
	if trials > lim.MaxTrials {
		b.Close()
		return "", web.Refused("this run would make %d trials, and this server runs at most %d a run (gavel serve --max-trials-per-run): run fewer cases or trials", trials, lim.MaxTrials)
	}
	l.mu.Lock()
	if l.active >= lim.MaxRunning {
		active := l.active
		l.mu.Unlock()
		b.Close()
		runs, are := "runs", "are"
		if lim.MaxRunning == 1 {
			runs, are = "run", "is"
		}
		return "", web.Refused("this server runs at most %d %s at once (gavel serve --max-runs-at-once), and %d %s running: wait for one to end", lim.MaxRunning, runs, active, are)
	}
	l.active++ // held from here, so that two requests at once cannot both start
	l.mu.Unlock()
	done := func() {
		l.mu.Lock()
		l.active--
		l.mu.Unlock()
	}
	d := NewDrain()
	f := &Options{Tags: r.Tags, IDs: r.IDs, Trials: r.Trials, MaxCostUSD: lim.MaxCostUSD, Label: r.Label}
	info := NewRunInfo(b, f, b.Suite.Threshold)
	info.StartedBy = r.By
	rec, err := Record(ctx, l.st, b, info, d.Stop, l.log)
	if err != nil {
		done()
		b.Close()
		return "", err
	}
	l.mu.Lock()
	l.drains = append(l.drains, d)
	l.mu.Unlock()
	l.running.Go(func() {
		defer done()
		defer b.Close()
		config.Stop, config.Why = d.Stopped(), d.Why
		if _, _, err := RunRecorded(context.Background(), b, config, rec); err != nil {
			fmt.Fprintf(l.log, "gavel serve: run %s: %v\n", rec.ID(), err)
		}
	})
	return rec.ID(), nil
}

// addWrittenCases adds to a loaded suite the cases written in the web app
// (their latest versions), but for those whose id the file has.
func (l *Launcher) addWrittenCases(ctx context.Context, loaded *spec.Loaded, suite string) error {
	written, err := l.st.Cases(ctx, suite)
	if err != nil {
		return err
	}
	for _, c := range written {
		if c.Source != "" || slices.ContainsFunc(loaded.Cases, func(lc spec.LoadedCase) bool { return cmp.Or(lc.Spec.ID, lc.Spec.Name) == c.ID }) {
			continue
		}
		lc, err := spec.ParseCase(fmt.Sprintf("the web app's case %s (version %d)", c.ID, c.Version), c.Definition)
		if err != nil {
			return err
		}
		lc.Written = true
		loaded.Cases = append(loaded.Cases, lc)
	}
	return nil
}

// Close stops scheduling the runs under way and waits for their trials in
// flight to finish and be stored.
func (l *Launcher) Close() {
	l.mu.Lock()
	for _, d := range l.drains {
		d.Stop("interrupted: the web app was stopped")
	}
	l.mu.Unlock()
	l.running.Wait()
}
