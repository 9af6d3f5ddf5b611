package gaveltest

import (
	"cmp"
	"errors"
	"fmt"
	"os"
	"slices"
	"testing"
	"time"

	"github.com/gavelhq/gavel"
	"github.com/gavelhq/gavel/agent"
	"github.com/gavelhq/gavel/eval"
	"github.com/gavelhq/gavel/llm"
	"github.com/gavelhq/gavel/llm/providers"
	"github.com/gavelhq/gavel/report"
	"github.com/gavelhq/gavel/runner"
	"github.com/gavelhq/gavel/spec"
	"github.com/gavelhq/gavel/store"
)

// Config says which cases Run runs, and how. The zero value runs every
// case of the suite as its file says, each case's subtest passing only when
// the suite's threshold of its trials pass, with the providers Gavel links
// in, keys from the environment and no cache.
type Config struct {
	// IDs, when set, runs only the cases with these ids; an id the suite
	// does not have fails the test. Defaults to every case. (go test -run
	// TestX/case_005 chooses cases too.)
	IDs []string
	// Tags, when set, runs only the cases with at least one of these tags.
	// Defaults to every case.
	Tags []string

	// Trials, when positive, overrides the suite's and every case's number
	// of trials.
	Trials int
	// MinPassRate is the share of a case's trials (0..1) that must pass for
	// its subtest to pass. Defaults to the suite's threshold, which is 1
	// unless the suite file sets one: with one trial, a case must pass.
	MinPassRate float64
	// Concurrency is how many trials run at once. Defaults to the suite's,
	// else 4.
	Concurrency int
	// Timeout bounds each trial's conversation. Defaults to the suite's,
	// else 5 minutes.
	Timeout time.Duration

	// Registry opens the suite's model references by provider. Defaults to
	// providers.Registry(): openai, ollama, anthropic and script.
	Registry llm.Registry
	// Getenv reads the environment: keys, base URLs, ${VAR} in headers.
	// Defaults to os.Getenv.
	Getenv func(string) string
	// CacheDir, when set, keeps the models' answers in this directory and
	// answers a repeated request from it instead of calling the model
	// again (see llm.Cache). Defaults to "": no cache.
	CacheDir string
	// Agents are agents written in Go, by the name a suite's agent: {go:
	// NAME} gives: the suite tests one of them in process, as it would an
	// http or exec agent. Defaults to none.
	Agents map[string]agent.Agent
	// Prices price models, by the name their vendor gives them, in US
	// dollars per million tokens: they replace the suite's prices: and
	// Gavel's table (llm.DefaultPrices) for the models they name. A model
	// without a price is reported unpriced: its cost is unknown.
	Prices llm.Prices

	// Store, when set, keeps the run as gavel run keeps its runs: the
	// cases' definitions, every trial as it finishes, and how the run
	// ended, so that gavel show, gavel compare and the web app read it
	// (sqlite.Open(".gavel/gavel.db") is gavel's own), and a suite's
	// agent.replay_tools reads the run it replays there. Defaults to
	// none: the run is not kept, and a suite that replays is refused.
	Store store.Store
	// Gate fails t when the whole run does not pass as gavel run's would
	// (exit code 0): it is complete and its pass rate reaches the suite's
	// threshold (or MinPassRate), over the cases -run chose. Defaults to
	// false: only the cases' subtests pass or fail.
	Gate bool
}

// Run runs the suite at path (a suite file, or a directory holding
// gavel.yaml) and reports every case as a subtest of t named by the case's
// id. A case passes when at least Config.MinPassRate of its trials pass; a
// case that does not fails its subtest with the judges' reasons, a case the
// run skipped skips it. Cases run together, Config.Concurrency trials at
// a time, before any subtest reports: the subtests are parallel ones, so
// they end after t's function returns. Run returns the run, for reports
// or checks of its own.
//
// go test's -run and -skip choose cases: with -run 'TestX/case_005' only
// case_005 runs. A suite with problems (a mistake in the file, a missing
// key) fails t at once with every problem, file:line:column, and so does a
// Config that names no case of the suite.
//
// The run stops when t's context is cancelled. Run does not look at
// testing.Short: a test that should not run in -short mode skips itself.
func Run(t *testing.T, path string, c Config) *gavel.Run {
	t.Helper()
	if c.MinPassRate < 0 || c.MinPassRate > 1 {
		t.Fatalf("gaveltest: Config.MinPassRate %v: want a share of trials from 0 to 1", c.MinPassRate)
	}
	if c.Getenv == nil {
		c.Getenv = os.Getenv
	}
	m, err := eval.OpenModels(c.CacheDir, c.CacheDir == "", false)
	if err != nil {
		t.Fatalf("gaveltest: %v", err)
	}
	m.Getenv = c.Getenv
	defer func() {
		if err := m.Close(); err != nil {
			t.Errorf("gaveltest: %v", err)
		}
	}()
	meter := llm.NewMeter(llm.DefaultPrices())
	registry := c.Registry
	if registry == nil {
		registry = providers.Registry()
	}
	// Models of one server share a limiter that learns its rate limit.
	env := spec.Env{Registry: (&llm.Limiters{}).Registry(registry), Getenv: c.Getenv, Wrap: m.Wrapper(meter), Agents: c.Agents}
	if c.Store != nil {
		env.ToolRecording = eval.ToolRecording(c.Store) // agent.replay_tools reads its run there
	}
	b, err := spec.Open(path, env)
	if err != nil {
		var problems spec.Problems
		if errors.As(err, &problems) {
			t.Fatalf("gaveltest: suite %s: fix these problems first:\n%v", path, err)
		}
		t.Fatalf("gaveltest: suite %s: %v", path, err)
	}
	defer func() {
		if err := b.Close(); err != nil {
			t.Logf("gaveltest: closing suite %s: %v", path, err)
		}
	}()
	for _, w := range b.Warnings {
		t.Logf("gaveltest: %v", w)
	}
	meter.SetPrices(llm.DefaultPrices().With(b.Prices).With(c.Prices))
	s := b.Suite
	cases, err := chooseCases(s.Cases, c.IDs, c.Tags)
	if err != nil {
		t.Fatalf("gaveltest: suite %s: %v", path, err)
	}
	minPassRate := cmp.Or(c.MinPassRate, s.Threshold, 1)

	// Each case's subtest is started now, so that go test's -run and -skip
	// say which cases to run: a subtest they rule out never starts. One
	// that starts notes its case and pauses (t.Parallel) until this
	// function returns, by when its case has run.
	verdicts := map[*gavel.Case]verdict{}
	var chosen []*gavel.Case
	for _, cs := range cases {
		t.Run(cs.ID, func(t *testing.T) {
			chosen = append(chosen, cs)
			t.Parallel()
			v, ok := verdicts[cs]
			if !ok {
				t.Fatal("gaveltest: the case did not run")
			}
			v.report(t)
		})
	}
	s.Cases = chosen
	if len(chosen) == 0 {
		t.Logf("gaveltest: suite %s: no case chosen by -run and -skip", path)
		return &gavel.Run{Suite: s, Started: time.Now()}
	}

	rc := runner.Config{
		Concurrency: cmp.Or(c.Concurrency, b.Concurrency),
		Trials:      c.Trials,
		Timeout:     cmp.Or(c.Timeout, b.Timeout),
		FollowUps:   b.FollowUps,
	}
	if testing.Verbose() {
		// A line per trial as it finishes, for go test -v: a long run
		// shows its progress.
		rc.Progress = func(p runner.Progress) {
			t.Logf("[%d/%d] %-5s %s#%d", p.Done, p.Total, p.Trial.Verdict.Status, p.Trial.CaseID, p.Trial.N)
		}
	}
	run := record(t, b, c, rc, minPassRate)
	for i := range run.Cases {
		cr := &run.Cases[i]
		verdicts[cr.Case] = verdictOf(cr, minPassRate)
	}
	t.Log(summary(run, minPassRate))
	return run
}

// record runs the chosen cases of b with rc, keeping the run in
// c.Store when it is set, and failing t when c.Gate and the run does not
// pass as gavel run's would.
func record(t *testing.T, b *spec.Built, c Config, rc runner.Config, minPassRate float64) *gavel.Run {
	t.Helper()
	var rec *eval.Recording
	if c.Store != nil {
		info := eval.NewRunInfo(b, &eval.Options{Tags: c.Tags, IDs: c.IDs, Trials: c.Trials, Concurrency: c.Concurrency, Timeout: c.Timeout}, minPassRate)
		info.Settings["gaveltest"] = t.Name()
		stop := eval.NewDrain()
		rc.Stop, rc.Why = stop.Stopped(), stop.Why
		var err error
		if rec, err = eval.Record(t.Context(), c.Store, b, info, stop.Stop, t.Output()); err != nil {
			t.Fatalf("gaveltest: the results store: %v", err)
		}
	}
	b.Suite.Threshold = minPassRate
	run, code, err := eval.RunRecorded(t.Context(), b, rc, rec)
	if err != nil {
		t.Errorf("gaveltest: the results store: %v", err)
	}
	if rec != nil {
		t.Logf("gaveltest: run %s saved (gavel show %s)", rec.ID(), rec.ID())
	}
	if c.Gate && code != eval.ExitPassed {
		t.Errorf("gaveltest: suite %s: the run does not pass: %s", b.Suite.Name, eval.WholeVerdict(run))
	}
	return run
}

// chooseCases returns the cases with one of ids and one of tags (an empty
// list keeps all), in suite order.
func chooseCases(cases []*gavel.Case, ids, tags []string) ([]*gavel.Case, error) {
	for _, id := range ids {
		if !slices.ContainsFunc(cases, func(c *gavel.Case) bool { return c.ID == id }) {
			return nil, fmt.Errorf("Config.IDs: no case has id %q", id)
		}
	}
	var out []*gavel.Case
	for _, c := range cases {
		if len(ids) > 0 && !slices.Contains(ids, c.ID) {
			continue
		}
		if len(tags) > 0 && !slices.ContainsFunc(c.Tags, func(t string) bool { return slices.Contains(tags, t) }) {
			continue
		}
		out = append(out, c)
	}
	if len(out) == 0 {
		return nil, errors.New("no case matches Config.IDs and Config.Tags")
	}
	return out, nil
}

// summary is the run in one line: cases passed, pass rate against the
// threshold, trials, tokens (with the model calls and how many the cache
// answered), cost and time.
func summary(run *gavel.Run, minPassRate float64) string {
	st := run.Stats()
	u := st.Usage.Total()
	calls := ""
	if c := report.Calls(u); c != "" {
		calls = " (" + c + ")"
	}
	return fmt.Sprintf("gaveltest: suite %s: %d of %d cases passed (%d failed, %d flaky, %d errored, %d skipped); a case needs %s of its trials to pass; %d trials, %s tokens%s, %s, %s",
		run.Suite.Name, st.Cases[gavel.Passed], len(run.Cases), st.Cases[gavel.Failed], st.Cases[gavel.Flaky], st.Cases[gavel.Errored], st.Cases[gavel.Skipped],
		percent(minPassRate), st.Trials, report.Tokens(u), calls, report.Cost(u), run.Duration.Round(time.Millisecond))
}

// percent formats a share as "80%" or "66.7%".
func percent(f float64) string {
	return fmt.Sprintf("%.3g%%", 100*f)
}
