package queue

import (
	"bytes"
	"cmp"
	"context"
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/riverqueue/river"
	"github.com/riverqueue/river/riverdriver/riverdatabasesql"

	"github.com/gavelhq/gavel"
	"github.com/gavelhq/gavel/agent"
	"github.com/gavelhq/gavel/judge"
	"github.com/gavelhq/gavel/runner"
	"github.com/gavelhq/gavel/spec"
	"github.com/gavelhq/gavel/store"
)

// deskSuite is a suite of three cases whose Go agent, desk, the tests
// give: each case passes when the agent repeats its ticket.
const deskSuite = `name: desk
threshold: 0.5
agent: {go: desk}
cases:
  - {id: a, input: "ticket A", rules: [{contains: "A"}]}
  - {id: b, input: "ticket B", rules: [{contains: "B"}]}
  - {id: c, input: "ticket C", rules: [{contains: "C"}]}
`

// echo is a desk that repeats the ticket and spends 100 input tokens a
// trial.
var echo = agent.Func(func(_ context.Context, _ string, msg agent.Message) (*agent.Reply, error) {
	return &agent.Reply{Text: "Noted: " + msg.Text, Usage: judge.Usage{InputTokens: 100}}, nil
})

// A fixture is a queue of the test's own and deskSuite on disk.
type fixture struct {
	q     *Queue
	suite string // the suite file's path
	load  func(string) (*spec.Built, error)
}

// newFixture writes deskSuite, whose desk is ag, for workers to load.
func newFixture(t *testing.T, ag agent.Agent) *fixture {
	t.Helper()
	f := &fixture{q: openQueue(t), suite: filepath.Join(t.TempDir(), "gavel.yaml")}
	if err := os.WriteFile(f.suite, []byte(deskSuite), 0o644); err != nil {
		t.Fatal(err)
	}
	f.load = func(path string) (*spec.Built, error) {
		return spec.Open(path, spec.Env{Agents: map[string]agent.Agent{"desk": ag}})
	}
	return f
}

// enqueue enqueues trials trials of each of cases, with budget.
func (f *fixture) enqueue(t *testing.T, budget runner.Budget, trials int, cases ...string) string {
	t.Helper()
	b, err := f.load(f.suite)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	digest, err := b.Digest()
	if err != nil {
		t.Fatal(err)
	}
	p := Plan{Suite: f.suite, Digest: digest, Budget: budget}
	for _, c := range cases {
		p.Cases = append(p.Cases, PlannedCase{ID: c, Trials: trials})
	}
	info, err := f.q.Enqueue(context.Background(), store.RunInfo{Suite: "desk", SuiteFile: f.suite, Threshold: 0.5}, p)
	if err != nil {
		t.Fatal(err)
	}
	return info.ID
}

// A workerLog is a worker's log, safe for concurrent writes.
type workerLog struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *workerLog) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *workerLog) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// work starts a worker of cfg (its Load the fixture's unless set) on the
// fixture's queue, stopped when the test ends, and returns its log.
func (f *fixture) work(t *testing.T, cfg WorkerConfig) *workerLog {
	t.Helper()
	l := &workerLog{}
	if cfg.Load == nil {
		cfg.Load = f.load
	}
	cfg.Log, cfg.FetchPollInterval = l, 50*time.Millisecond
	w, err := f.q.Worker(cfg)
	if err != nil {
		t.Fatal(err)
	}
	if err := w.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		w.StopAndCancel(ctx)
		w.Close()
		if t.Failed() {
			t.Logf("the worker's log:\n%s", l)
		}
	})
	return l
}

// finished waits, at most 30 s, for run to be finished, and returns it as
// stored.
func (f *fixture) finished(t *testing.T, run string) *store.StoredRun {
	t.Helper()
	ctx := context.Background()
	for deadline := time.Now().Add(30 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		settled, total, finished, err := f.q.Progress(ctx, run)
		if err != nil {
			t.Fatal(err)
		}
		if finished {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("run %s not finished after 30 s: %d of %d trials settled", run, settled, total)
		}
	}
	stored, err := f.q.st.Run(ctx, run)
	if err != nil {
		t.Fatal(err)
	}
	return stored
}

// verdicts are a run's trials' verdicts, "case#n STATUS", in order.
func verdicts(run *gavel.Run) []string {
	var out []string
	for _, c := range run.Cases {
		for _, tr := range c.Trials {
			out = append(out, tr.CaseID+"#"+strconv.Itoa(tr.N)+" "+string(tr.Verdict.Status))
		}
	}
	return out
}

// A run ends when its last trial is settled, not before: every trial is
// run, and the worker that settles the last one finishes the run, once.
func TestWorkerFinishesARunOnItsLastTrial(t *testing.T) {
	f := newFixture(t, echo)
	run := f.enqueue(t, runner.Budget{}, 2, "a", "b")
	log := f.work(t, WorkerConfig{Concurrency: 1})
	stored := f.finished(t, run)
	want := []string{"a#1 PASS", "a#2 PASS", "b#1 PASS", "b#2 PASS"}
	if got := verdicts(stored.Run); strings.Join(got, ", ") != strings.Join(want, ", ") {
		t.Errorf("the finished run's trials: %v, want %v", got, want)
	}
	if stored.Info.Status != store.Passed {
		t.Errorf("the finished run is %s, want passed", stored.Info.Status)
	}
	if n := strings.Count(log.String(), "run "+run+" finished"); n != 1 {
		t.Errorf("the run was finished %d times, want once:\n%s", n, log)
	}
}

// A run whose budget is spent ends incomplete, as gavel run's: the cases
// the budget stopped are skipped, saying why, and the trials that ran
// keep their verdicts.
func TestBudgetStopsAQueuedRun(t *testing.T) {
	f := newFixture(t, echo)
	// Each trial spends 100 tokens: the first spends the budget.
	run := f.enqueue(t, runner.Budget{MaxTokens: 100}, 1, "a", "b", "c")
	f.work(t, WorkerConfig{Concurrency: 1})
	stored := f.finished(t, run)
	const why = "the budget of 100 tokens was spent (100)"
	if got := verdicts(stored.Run); strings.Join(got, ", ") != "a#1 PASS" {
		t.Errorf("trials saved: %v, want a#1 PASS only", got)
	}
	for _, c := range stored.Run.Cases[1:] {
		if c.Outcome != gavel.Skipped || c.SkipReason != why {
			t.Errorf("case %s: %s (%q), want SKIPPED (%q)", c.ID(), c.Outcome, c.SkipReason, why)
		}
	}
	info := stored.Info
	if info.Status != store.Incomplete || info.Stopped != gavel.StopBudget || info.StopReason != why {
		t.Errorf("run: %s, stopped %q (%q); want incomplete, stopped by the budget (%q)", info.Status, info.Stopped, info.StopReason, why)
	}
	if info.Stats.Cases[gavel.Skipped] != 2 {
		t.Errorf("the run's summary counts %d cases skipped, want 2", info.Stats.Cases[gavel.Skipped])
	}
}

// A trial settled again (redone by another worker after a rescue, or
// settled by two workers at once) counts once, its spend too.
func TestSettlingATrialTwiceCountsItOnce(t *testing.T) {
	f := newFixture(t, echo)
	run := f.enqueue(t, runner.Budget{}, 1, "a", "b")
	ctx := context.Background()
	spent := settlement{spent: judge.Usage{InputTokens: 100, CostUSD: 0.5}}
	for range 2 {
		p, err := f.q.settle(ctx, run, "a", 1, spent)
		if err != nil {
			t.Fatal(err)
		}
		if p.settled != 1 || p.spent.InputTokens != 100 || p.spent.CostUSD != 0.5 {
			t.Errorf("after settling a#1: %d of %d trials settled, %d tokens and $%v spent; want 1, 100 and $0.5",
				p.settled, p.total, p.spent.InputTokens, p.spent.CostUSD)
		}
	}
	p, err := f.q.settle(ctx, run, "b", 1, settlement{skipped: gavel.StopBudget, reason: "spent"})
	if err != nil {
		t.Fatal(err)
	}
	if p.settled != 2 || p.total != 2 {
		t.Errorf("after settling b#1: %d of %d trials settled, want 2 of 2", p.settled, p.total)
	}
}

// A queued run's status is gavel run's: a run stopped before every trial
// ran is incomplete however well those that ran did.
func TestStatusOf(t *testing.T) {
	pass := gavel.Trial{N: 1, Verdict: judge.Judgment{Status: judge.StatusPass}}
	fail := gavel.Trial{N: 1, Verdict: judge.Judgment{Status: judge.StatusFail}}
	unreachable := gavel.Trial{N: 1, Verdict: judge.Judgment{Status: judge.StatusError, Cause: judge.CauseUnreachable}}
	for _, c := range []struct {
		name    string
		trials  []gavel.Trial
		stopped gavel.StopCause
		want    store.Status
	}{
		{"every trial passed", []gavel.Trial{pass}, "", store.Passed},
		{"every trial failed", []gavel.Trial{fail}, "", store.Failed},
		{"stopped by the budget after a pass", []gavel.Trial{pass}, gavel.StopBudget, store.Incomplete},
		{"every trial unreachable", []gavel.Trial{unreachable}, "", store.Errored},
	} {
		t.Run(c.name, func(t *testing.T) {
			cr := gavel.CaseResult{Case: &gavel.Case{ID: "a"}, Trials: c.trials}
			cr.Summarize()
			run := &gavel.Run{Suite: &gavel.Suite{Threshold: 0.5}, Cases: []gavel.CaseResult{cr}, Stopped: c.stopped}
			if got := StatusOf(run); got != c.want {
				t.Errorf("got %s, want %s", got, c.want)
			}
		})
	}
}

// errRefused is a Load that cannot build the suite.
func errRefused(string) (*spec.Built, error) { return nil, errors.New("no such suite here") }

// blocker is a desk that answers nothing until its trial is cut short.
var blocker = agent.Func(func(ctx context.Context, _ string, _ agent.Message) (*agent.Reply, error) {
	<-ctx.Done()
	return nil, ctx.Err()
})

// Whatever way a trial's job ends for good (its last attempt failed,
// timed out, panicked or was rescued from a dead worker, or the job was
// cancelled), River gives up on it, and a worker saves the trial as an
// ERROR that says why: the run finishes.
func TestWorkerSavesTheTrialOfAJobGivenUp(t *testing.T) {
	for _, c := range []struct {
		name  string
		agent agent.Agent
		cfg   WorkerConfig
		// given up makes the job of run's trial end for good, or be
		// about to, before the worker starts.
		givenUp func(t *testing.T, q *Queue, run string)
		says    []string
	}{
		{name: "every worker refuses the suite", agent: echo, cfg: WorkerConfig{Load: errRefused},
			givenUp: lastAttempt, says: []string{"1 attempt", "no such suite here"}},
		{name: "the last attempt panics", agent: echo,
			cfg:     WorkerConfig{Load: func(string) (*spec.Built, error) { panic("the worker's bug") }},
			givenUp: lastAttempt, says: []string{"1 attempt", "panicked", "the worker's bug"}},
		{name: "the last attempt outlasts rescue-after", agent: blocker, cfg: WorkerConfig{RescueAfter: 300 * time.Millisecond},
			// River's rescuer may take the job before its timeout ends it.
			givenUp: lastAttempt, says: []string{"1 attempt", "rescue-after"}},
		{name: "the worker of the last attempt died", agent: echo, cfg: WorkerConfig{RescueAfter: time.Second},
			givenUp: diedOnLastAttempt, says: []string{"1 attempt", "ran longer than the workers' --rescue-after"}},
		{name: "the job is cancelled", agent: echo, givenUp: cancelled, says: []string{"cancelled"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			f := newFixture(t, c.agent)
			run := f.enqueue(t, runner.Budget{}, 1, "a")
			c.givenUp(t, f.q, run)
			f.work(t, c.cfg)
			stored := f.finished(t, run)
			if got := verdicts(stored.Run); strings.Join(got, ", ") != "a#1 ERROR" {
				t.Fatalf("trials saved: %v, want a#1 ERROR", got)
			}
			tr := stored.Run.Cases[0].Trials[0]
			for _, want := range c.says {
				if !strings.Contains(tr.Verdict.Reasoning, want) || tr.Transcript == nil || !strings.Contains(tr.Transcript.Error, want) {
					t.Errorf("the ERROR trial does not say %q:\nverdict:    %s\ntranscript: %+v", want, tr.Verdict.Reasoning, tr.Transcript)
				}
			}
			if stored.Info.Status != store.Failed {
				t.Errorf("the run is %s, want failed", stored.Info.Status)
			}
		})
	}
}

// lastAttempt makes the next attempt of each of run's jobs its last, as
// after every attempt but one failed.
func lastAttempt(t *testing.T, q *Queue, run string) {
	t.Helper()
	if _, err := q.db.Exec("UPDATE river_job SET max_attempts = 1 WHERE args->>'run' = $1", run); err != nil {
		t.Fatal(err)
	}
}

// diedOnLastAttempt leaves each of run's jobs as a worker that died an
// hour into its last attempt left it: running, for River's rescuer.
func diedOnLastAttempt(t *testing.T, q *Queue, run string) {
	t.Helper()
	_, err := q.db.Exec(`UPDATE river_job SET state = 'running', attempt = 1, max_attempts = 1,
		attempted_at = now() - interval '1 hour', attempted_by = ARRAY['a-dead-worker'] WHERE args->>'run' = $1`, run)
	if err != nil {
		t.Fatal(err)
	}
}

// cancelled cancels each of run's jobs with River's client, as an
// operator would.
func cancelled(t *testing.T, q *Queue, run string) {
	t.Helper()
	client, err := river.NewClient(riverdatabasesql.New(q.db), q.riverConfig())
	if err != nil {
		t.Fatal(err)
	}
	rows, err := q.db.Query("SELECT id FROM river_job WHERE args->>'run' = $1", run)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	for rows.Next() {
		var id int64
		if err := rows.Scan(&id); err != nil {
			t.Fatal(err)
		}
		if _, err := client.JobCancel(context.Background(), id); err != nil {
			t.Fatal(err)
		}
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
}

// What the failed attempts at a run's trials said is known at once, not
// after River's last attempt: one Failure per saying, counting its trials.
func TestFailuresSayWhyTrialsAreTriedAgain(t *testing.T) {
	f := newFixture(t, echo)
	run := f.enqueue(t, runner.Budget{}, 1, "a", "b")
	f.work(t, WorkerConfig{Load: errRefused})
	var got []Failure
	for deadline := time.Now().Add(30 * time.Second); len(got) == 0 || got[0].Trials < 2; time.Sleep(20 * time.Millisecond) {
		var err error
		if got, err = f.q.Failures(context.Background(), run); err != nil {
			t.Fatal(err)
		}
		if time.Now().After(deadline) {
			t.Fatalf("failures after 30 s: %+v, want both trials refused", got)
		}
	}
	if len(got) != 1 {
		t.Fatalf("failures: %+v, want one", got)
	}
	g := got[0]
	if !strings.HasPrefix(g.Said, "said: cannot load the run's suite") || !strings.HasSuffix(g.Said, "no such suite here") ||
		g.Case != "a" || g.N != 1 || g.Attempt < 1 || g.Attempt >= MaxAttempts || g.MaxAttempts != MaxAttempts {
		t.Errorf("got  %+v\nwant a#1 and 1 more refused, an attempt of %d but the last, saying why", g, MaxAttempts)
	}
}

// A queued run is weighed as its suite's gate says: 2 of 3 cases is an
// interval that straddles the threshold of 50% (INCONCLUSIVE), which
// passes by the pass rate alone unless the suite fails such a run.
func TestQueuedRunWeighsTheSuitesGate(t *testing.T) {
	failsC := agent.Func(func(_ context.Context, _ string, msg agent.Message) (*agent.Reply, error) {
		return &agent.Reply{Text: strings.ReplaceAll("Noted: "+msg.Text, "C", "?")}, nil
	})
	for _, tc := range []struct {
		inconclusive string
		want         store.Status
	}{
		{"", store.Passed},
		{"fail", store.Failed},
	} {
		t.Run(cmp.Or(tc.inconclusive, "rate"), func(t *testing.T) {
			f := newFixture(t, failsC)
			b, err := f.load(f.suite)
			if err != nil {
				t.Fatal(err)
			}
			digest, err := b.Digest()
			b.Close()
			if err != nil {
				t.Fatal(err)
			}
			p := Plan{Suite: f.suite, Digest: digest}
			for _, c := range []string{"a", "b", "c"} {
				p.Cases = append(p.Cases, PlannedCase{ID: c, Trials: 1})
			}
			info := store.RunInfo{Suite: "desk", SuiteFile: f.suite, Threshold: 0.5, Settings: map[string]string{}}
			if tc.inconclusive != "" {
				info.Settings[store.SettingInconclusive] = tc.inconclusive
			}
			created, err := f.q.Enqueue(context.Background(), info, p)
			if err != nil {
				t.Fatal(err)
			}
			f.work(t, WorkerConfig{Concurrency: 1})
			if got := f.finished(t, created.ID).Info.Status; got != tc.want {
				t.Errorf("the run is %s, want %s", got, tc.want)
			}
		})
	}
}

// A queued run leaves its quarantined cases out of its gate, as gavel
// run does: c fails, and quarantined, fails nothing.
func TestQueuedRunQuarantines(t *testing.T) {
	failsC := agent.Func(func(_ context.Context, _ string, msg agent.Message) (*agent.Reply, error) {
		return &agent.Reply{Text: strings.ReplaceAll("Noted: "+msg.Text, "C", "?")}, nil
	})
	f := newFixture(t, failsC)
	if err := f.q.st.Quarantine(context.Background(), store.Quarantine{Suite: "desk", CaseID: "c", Reason: "the weekday", By: "ada"}); err != nil {
		t.Fatal(err)
	}
	run := f.enqueue(t, runner.Budget{}, 1, "a", "b", "c")
	f.work(t, WorkerConfig{Concurrency: 1})
	stored := f.finished(t, run)
	if got := stored.Run.Cases[2].Quarantined; got != "quarantined by ada: the weekday" || stored.Info.Status != store.Passed {
		t.Errorf("case c quarantined %q, the run %s; want it quarantined, and the run passed", got, stored.Info.Status)
	}
}
