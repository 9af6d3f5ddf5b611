package main

import (
	"bytes"
	"context"
	"database/sql"
	"fmt"
	"io"
	"maps"
	"net"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/gavelhq/gavel"
	"github.com/gavelhq/gavel/eval"
	"github.com/gavelhq/gavel/internal/pgtest"
	"github.com/gavelhq/gavel/judge"
	"github.com/gavelhq/gavel/llm"
	"github.com/gavelhq/gavel/llm/llmtest"
	"github.com/gavelhq/gavel/store"
	"github.com/gavelhq/gavel/store/postgres"
)

// queueKey is the API key gavel's processes send the fake model server.
const queueKey = "sk-queue-test"

// queueModels plays the agent and the judge of queueSuite on a fake
// OpenAI server, deterministically: the agent echoes the user's message,
// and the judge passes a reply that says "good" (0.9) and fails the rest
// (0.2).
func queueModels(t *testing.T, latency time.Duration) *llmtest.OpenAIServer {
	t.Helper()
	s := llmtest.NewOpenAIServer(llm.Func(func(_ context.Context, req *llm.Request) (*llm.Response, error) {
		usage := llm.Usage{InputTokens: 120, OutputTokens: 30}
		var last string
		for _, m := range req.Messages {
			if m.Role == llm.RoleUser {
				last = m.Content
			}
		}
		if req.ResponseSchema != nil {
			score := 0.2
			if strings.Contains(last, "good") {
				score = 0.9
			}
			return &llm.Response{Text: fmt.Sprintf(`{"reasoning":"judged","score":%v}`, score), FinishReason: llm.FinishStop, Usage: usage}, nil
		}
		return &llm.Response{Text: "Noted: " + last, FinishReason: llm.FinishStop, Usage: usage}, nil
	}))
	s.Key, s.Latency = queueKey, latency
	t.Cleanup(s.Close)
	return s
}

// queueSuite writes a suite of n cases, two trials each, into dir/evals:
// some pass, some fail on a rule, some fail on the judge's score. Every
// model is priced at $1 per thousand tokens: a trial costs $0.30.
func queueSuite(t *testing.T, dir string, n int) {
	t.Helper()
	var b strings.Builder
	b.WriteString(`name: queued
threshold: 0.5
trials: 2
max_followups: -1
allow_same_family_judge: true
prices:
  fake-agent: {input: 1000, output: 1000}
  fake-judge: {input: 1000, output: 1000}
models:
  judge: openai:fake-judge
agent:
  builtin:
    model: openai:fake-agent
    system_prompt: Repeat the ticket.
cases:
`)
	for i := 1; i <= n; i++ {
		word, rule := "good", fmt.Sprintf("T-%d", i)
		if i%3 == 0 {
			word = "bad"
		}
		if i%4 == 0 {
			rule = "nowhere"
		}
		fmt.Fprintf(&b, "  - {id: case_%02d, input: \"%s ticket T-%d\", rules: [{contains: %q}], judge_prompt: It repeats the ticket.}\n", i, word, i, rule)
	}
	if err := os.MkdirAll(filepath.Join(dir, "evals"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "evals", "gavel.yaml"), []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
}

// A gavelProc is a gavel process of a test, its stderr kept.
type gavelProc struct {
	cmd  *exec.Cmd
	mu   sync.Mutex
	errs bytes.Buffer
	done chan struct{}
}

func (p *gavelProc) Write(b []byte) (int, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.errs.Write(b)
}

func (p *gavelProc) stderr() string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.errs.String()
}

// startQueued starts the built gavel in dir with the fake's environment;
// it is killed when the test ends.
func startQueued(t *testing.T, dir string, fake *llmtest.OpenAIServer, args ...string) *gavelProc {
	t.Helper()
	p := &gavelProc{cmd: exec.Command(gavelBinary(t), args...), done: make(chan struct{})}
	p.cmd.Dir = dir
	p.cmd.Env = append(os.Environ(), "OPENAI_BASE_URL="+fake.URL, "OPENAI_API_KEY="+queueKey, "GAVEL_DB=")
	p.cmd.Stderr = p
	if err := p.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() { p.cmd.Wait(); close(p.done) }()
	t.Cleanup(func() {
		p.cmd.Process.Kill()
		<-p.done
		if t.Failed() {
			t.Logf("gavel %s:\n%s", strings.Join(args, " "), p.stderr())
		}
	})
	return p
}

// wait waits for p to exit, at most d, and returns its exit code.
func (p *gavelProc) wait(t *testing.T, d time.Duration) int {
	t.Helper()
	select {
	case <-p.done:
		return p.cmd.ProcessState.ExitCode()
	case <-time.After(d):
		t.Fatalf("gavel %s still running after %v:\n%s", strings.Join(p.cmd.Args[1:], " "), d, p.stderr())
	}
	return 0
}

// waitFor waits until cond holds, at most d.
func waitFor(t *testing.T, d time.Duration, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(d)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("waited %v for %s", d, what)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// enqueued is the id of the run gavel run --queue says it enqueued.
func enqueued(t *testing.T, p *gavelProc) string {
	t.Helper()
	var id string
	waitFor(t, time.Minute, "the run to be enqueued", func() bool {
		_, after, ok := strings.Cut(p.stderr(), "gavel: run ")
		id, _, _ = strings.Cut(after, ":")
		return ok && strings.Contains(after, "enqueued")
	})
	return id
}

// storedVerdicts reads a stored run's verdicts by (case, trial), and how many
// trials it holds.
func storedVerdicts(t *testing.T, st store.Store, runID string) (map[string]judge.Status, int) {
	t.Helper()
	r, err := st.RunVerdicts(context.Background(), runID)
	if err != nil {
		t.Fatal(err)
	}
	out, n := map[string]judge.Status{}, 0
	for _, c := range r.Run.Cases {
		for _, tr := range c.Trials {
			out[fmt.Sprintf("%s#%d", tr.CaseID, tr.N)] = tr.Verdict.Status
			n++
		}
	}
	return out, n
}

func openTestStore(t *testing.T, dsn string) store.Store {
	t.Helper()
	st, err := postgres.Open(context.Background(), dsn)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	return st
}

// A worker killed with SIGKILL mid-trial loses that trial's work only:
// River rescues its job, another worker redoes it, and the run ends with
// every (case, trial) saved once, finished by the worker of its last
// trial, with the verdicts one gavel run of the same suite gives.
func TestQueueSurvivesAKilledWorker(t *testing.T) {
	dsn := pgtest.Schema(t)
	fake := queueModels(t, 300*time.Millisecond)
	dir := t.TempDir()
	const cases = 8
	queueSuite(t, dir, cases)

	run := startQueued(t, dir, fake, "run", "--queue", "--db", dsn, "--no-cache", "evals")
	runID := enqueued(t, run)
	// One worker alone first: when the fake has a request in flight, the
	// trial is that worker's.
	doomed := startQueued(t, dir, fake, "worker", "--db", dsn, "--no-cache", "--concurrency", "2", "--rescue-after", "4s")
	waitFor(t, time.Minute, "a trial in flight", func() bool { return fake.Requests() > 0 })
	if err := doomed.cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	doomed.wait(t, 10*time.Second)
	for range 3 {
		startQueued(t, dir, fake, "worker", "--db", dsn, "--no-cache", "--concurrency", "2", "--rescue-after", "4s")
	}
	code := run.wait(t, 3*time.Minute)

	st := openTestStore(t, dsn)
	info, err := st.RunInfo(context.Background(), runID)
	if err != nil {
		t.Fatal(err)
	}
	queued, saved := storedVerdicts(t, st, runID)
	if saved != cases*2 || len(queued) != cases*2 {
		t.Errorf("run %s saved %d trials (%d distinct), want %d: %v", runID, saved, len(queued), cases*2, queued)
	}
	var settled int
	db := st.(interface{ SQL() *sql.DB }).SQL()
	if err := db.QueryRow("SELECT COUNT(*) FROM gavel_queue_trials WHERE run_id = $1", runID).Scan(&settled); err != nil || settled != cases*2 {
		t.Errorf("settled %d trials (%v), want %d", settled, err, cases*2)
	}
	// The killed worker's trials were rescued: River recorded it.
	var rescued int
	if err := db.QueryRow(`SELECT COUNT(*) FROM river_job WHERE args->>'run' = $1 AND errors::text LIKE '%rescued%'`, runID).Scan(&rescued); err != nil || rescued == 0 {
		t.Errorf("%d jobs rescued (%v): the killed worker had none in flight?", rescued, err)
	}

	one := startQueued(t, dir, fake, "run", "--db", dsn, "--no-cache", "evals")
	oneCode := one.wait(t, time.Minute)
	runs, err := st.Runs(context.Background(), store.RunFilter{})
	if err != nil || len(runs) != 2 {
		t.Fatalf("runs: %v %v", runs, err)
	}
	alone, _ := storedVerdicts(t, st, runs[0].ID)
	if !maps.Equal(queued, alone) {
		t.Errorf("verdicts by (case, trial):\nqueued    %v\none gavel %v", queued, alone)
	}
	if code != oneCode || info.Status != runs[0].Status || info.Status == store.Running {
		t.Errorf("queued run: exit %d, %s; one gavel run: exit %d, %s", code, info.Status, oneCode, runs[0].Status)
	}
}

// A worker whose suite file differs from the one a run was enqueued with
// refuses the run's trials, saying what differs and what to do, and runs
// none of them.
func TestQueueWorkerRefusesAnotherSuite(t *testing.T) {
	dsn := pgtest.Schema(t)
	fake := queueModels(t, 0)
	here, there := t.TempDir(), t.TempDir()
	queueSuite(t, here, 2)
	queueSuite(t, there, 3) // one case more
	run := startQueued(t, here, fake, "run", "--queue", "--detach", "--db", dsn, "evals")
	if code := run.wait(t, time.Minute); code != eval.ExitPassed {
		t.Fatalf("gavel run --queue --detach: exit %d", code)
	}
	runID := enqueued(t, run)
	w := startQueued(t, there, fake, "worker", "--db", dsn, "--concurrency", "1")
	waitFor(t, time.Minute, "the worker to refuse", func() bool { return strings.Contains(w.stderr(), "refusing") })
	msg := w.stderr()
	for _, want := range []string{"run " + runID, "the suite evals/gavel.yaml here", "is not the one the run was enqueued with",
		"run gavel worker from a checkout of the same suite files", "goes back to the queue"} {
		if !strings.Contains(msg, want) {
			t.Errorf("the worker's refusal does not say %q:\n%s", want, msg)
		}
	}
	if n := fake.Requests(); n != 0 {
		t.Errorf("the refusing worker called the models %d times", n)
	}
	st := openTestStore(t, dsn)
	if _, saved := storedVerdicts(t, st, runID); saved != 0 {
		t.Errorf("the refusing worker saved %d trials", saved)
	}
	// Stopped gently, so that River records the refusals (SIGKILL would
	// leave them running until rescued).
	w.cmd.Process.Signal(syscall.SIGTERM)
	w.wait(t, time.Minute)

	// A worker with the run's suite takes the trials, the refused ones
	// too once River gives them back, and finishes the run, which nobody
	// waits for (--detach).
	startQueued(t, here, fake, "worker", "--db", dsn, "--concurrency", "2")
	waitFor(t, 2*time.Minute, "the run to finish", func() bool {
		info, err := st.RunInfo(context.Background(), runID)
		return err == nil && info.Status != store.Running
	})
	info, err := st.RunInfo(context.Background(), runID)
	if _, saved := storedVerdicts(t, st, runID); err != nil || saved != 4 || info.Status != store.Passed {
		t.Errorf("run %s: %s (%v), %d trials saved; want passed, with 4", runID, info.Status, err, saved)
	}
}

// A run's budget holds across workers: once the run's settled trials
// spent it, no worker starts another, and the run ends incomplete, its
// exit code 5, with the budget's reason.
func TestQueueBudgetAcrossWorkers(t *testing.T) {
	dsn := pgtest.Schema(t)
	fake := queueModels(t, 50*time.Millisecond)
	dir := t.TempDir()
	queueSuite(t, dir, 6) // 12 trials of $0.30
	run := startQueued(t, dir, fake, "run", "--queue", "--db", dsn, "--no-cache", "--max-cost-usd", "0.5", "evals")
	runID := enqueued(t, run)
	for range 2 {
		startQueued(t, dir, fake, "worker", "--db", dsn, "--no-cache", "--concurrency", "1")
	}
	if code := run.wait(t, 2*time.Minute); code != eval.ExitIncomplete {
		t.Errorf("gavel run --queue --max-cost-usd: exit %d, want %d\n%s", code, eval.ExitIncomplete, run.stderr())
	}
	st := openTestStore(t, dsn)
	info, err := st.RunInfo(context.Background(), runID)
	if err != nil {
		t.Fatal(err)
	}
	_, saved := storedVerdicts(t, st, runID)
	// Two workers, one trial each at a time: at most the two in flight
	// when the budget ran out, after the two that spent it.
	if saved < 2 || saved > 4 {
		t.Errorf("%d trials saved, want 2 to 4 of 12", saved)
	}
	if info.Status != store.Incomplete || info.Stopped != gavel.StopBudget || !strings.Contains(info.StopReason, "the budget of $0.50 was spent") {
		t.Errorf("run: %s, stopped %q (%s); want incomplete, stopped by the budget", info.Status, info.Stopped, info.StopReason)
	}
}

// SIGTERM stops a worker gently: it takes no new trial, finishes those in
// flight, saves them (judged, not cut short), and exits 0; the other
// trials wait in the queue.
func TestQueueWorkerStopsGently(t *testing.T) {
	dsn := pgtest.Schema(t)
	fake := queueModels(t, 500*time.Millisecond)
	dir := t.TempDir()
	queueSuite(t, dir, 4) // 8 trials
	run := startQueued(t, dir, fake, "run", "--queue", "--detach", "--db", dsn, "--no-cache", "evals")
	run.wait(t, time.Minute)
	runID := enqueued(t, run)
	w := startQueued(t, dir, fake, "worker", "--db", dsn, "--no-cache", "--concurrency", "2")
	waitFor(t, time.Minute, "a trial in flight", func() bool { return fake.Requests() > 0 })
	if err := w.cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	if code := w.wait(t, time.Minute); code != eval.ExitPassed || !strings.Contains(w.stderr(), "those in flight finish") {
		t.Errorf("gavel worker after SIGTERM: exit %d\n%s", code, w.stderr())
	}
	st := openTestStore(t, dsn)
	got, saved := storedVerdicts(t, st, runID)
	if saved < 1 || saved > 2 {
		t.Errorf("%d trials saved, want the 1 or 2 in flight: %v", saved, got)
	}
	for trial, status := range got {
		if status == judge.StatusError {
			t.Errorf("%s was cut short: %s", trial, status)
		}
	}
	var waiting int
	db := st.(interface{ SQL() *sql.DB }).SQL()
	db.QueryRow("SELECT COUNT(*) FROM river_job WHERE args->>'run' = $1 AND state = 'available'", runID).Scan(&waiting)
	if waiting != 8-saved {
		t.Errorf("%d trials wait in the queue, want %d", waiting, 8-saved)
	}
}

// gavel migrate brings River's tables and the queue's up to date in a
// PostgreSQL database, beside the store's, and says so.
func TestMigrateMigratesTheQueue(t *testing.T) {
	dsn := pgtest.Schema(t)
	code, out, errs := gavelCmd(t, "migrate", "--db", dsn)
	if code != eval.ExitPassed || !strings.Contains(out, "The job queue's tables are at River's migration") {
		t.Fatalf("gavel migrate: exit %d\n%s%s", code, out, errs)
	}
	db := openTestStore(t, dsn).(interface{ SQL() *sql.DB }).SQL()
	for _, table := range []string{"river_job", "gavel_queue_runs"} {
		var n int
		if err := db.QueryRow("SELECT COUNT(*) FROM " + table).Scan(&n); err != nil {
			t.Errorf("%s: %v", table, err)
		}
	}
}

// The queue lives in PostgreSQL: asked of another store, gavel run
// --queue and gavel worker say so and exit 2; --queue refuses what it
// cannot do.
func TestQueueNeedsPostgres(t *testing.T) {
	dir, db := starterSuite(t)
	for _, args := range [][]string{
		{"run", "--queue", "--db", db, dir},
		{"worker", "--db", db},
		{"run", "--queue", "--fail-fast", dir},
		{"run", "--detach", dir},
	} {
		code, _, errs := gavelCmd(t, args...)
		if code != eval.ExitUsage || !strings.Contains(errs, "--") {
			t.Errorf("gavel %s: exit %d, want %d\n%s", strings.Join(args, " "), code, eval.ExitUsage, errs)
		}
	}
	_, _, errs := gavelCmd(t, "worker", "--db", db)
	if !strings.Contains(errs, "give one with --db postgres://") {
		t.Errorf("gavel worker on SQLite says:\n%s", errs)
	}
}

// Two workers started in one directory share the files the suite's runs
// write there: the second to load the suite says so, and a worker in a
// directory of its own says nothing.
func TestWorkersSharingADirectoryAreWarned(t *testing.T) {
	dsn := pgtest.Schema(t)
	fake := queueModels(t, 200*time.Millisecond)
	dir, alone := t.TempDir(), t.TempDir()
	queueSuite(t, dir, 4)
	queueSuite(t, alone, 4)
	run := startQueued(t, dir, fake, "run", "--queue", "--db", dsn, "--no-cache", "evals")
	enqueued(t, run)
	a := startQueued(t, dir, fake, "worker", "--db", dsn, "--no-cache", "--concurrency", "1")
	b := startQueued(t, dir, fake, "worker", "--db", dsn, "--no-cache", "--concurrency", "1")
	c := startQueued(t, alone, fake, "worker", "--db", dsn, "--no-cache", "--concurrency", "1")
	if code := run.wait(t, 2*time.Minute); code != eval.ExitPassed {
		t.Fatalf("gavel run --queue: exit %d\n%s", code, run.stderr())
	}
	const warning = "another gavel worker runs suites from"
	warned := 0
	for _, w := range []*gavelProc{a, b} {
		if strings.Contains(w.stderr(), warning) {
			warned++
		}
	}
	if warned != 1 {
		t.Errorf("%d of the two workers in one directory warned, want 1:\n%s\n%s", warned, a.stderr(), b.stderr())
	}
	if strings.Contains(c.stderr(), warning) {
		t.Errorf("the worker in a directory of its own warned:\n%s", c.stderr())
	}
}

// A queued run is one trace: gavel run --queue's run span is carried in
// the jobs, and the trials the workers run join it, as a real Jaeger
// shows.
func TestQueuedRunIsOneTrace(t *testing.T) {
	j := startJaeger(t)
	dsn := pgtest.Schema(t)
	fake := queueModels(t, 50*time.Millisecond)
	dir := t.TempDir()
	queueSuite(t, dir, 2) // 4 trials
	t.Setenv("OTEL_EXPORTER_OTLP_ENDPOINT", j.otlp)
	run := startQueued(t, dir, fake, "run", "--queue", "--db", dsn, "--no-cache", "evals")
	runID := enqueued(t, run)
	for range 2 {
		startQueued(t, dir, fake, "worker", "--db", dsn, "--no-cache", "--concurrency", "1")
	}
	if code := run.wait(t, 2*time.Minute); code != eval.ExitPassed {
		t.Fatalf("gavel run --queue: exit %d\n%s", code, run.stderr())
	}
	ids := storedTraceIDs(t, dsn, runID)
	traces := map[string]bool{}
	for _, id := range ids {
		traces[id] = true
	}
	if len(ids) != 4 || len(traces) != 1 || traces[""] {
		t.Fatalf("the run's trials have trace ids %v, want one trace for the 4", ids)
	}
	id := ids["case_01#1"]
	// The workers send their spans in batches, a few seconds apart.
	var tr jaegerTrace
	var trials int
	waitFor(t, time.Minute, "the four trials' spans in the run's trace", func() bool {
		tr = j.trace(t, id, "gavel run")
		trials = 0
		for _, s := range tr.Spans {
			if s.OperationName == "gavel trial" {
				trials++
			}
		}
		return trials == 4
	})
	for _, s := range tr.Spans {
		if s.OperationName == "gavel run" && s.tag("gavel.run.id") != runID {
			t.Errorf("the run span's gavel.run.id %q, want %s:\n%s", s.tag("gavel.run.id"), runID, drawTree(tr.Spans))
		}
	}
	if tree := drawTree(tr.Spans); !strings.HasPrefix(tree, "gavel run\n  gavel trial\n") {
		t.Errorf("the trials are not under the run span:\n%s", tree)
	}
}

// What workers would not honour is refused with --queue, by name: a
// shard (the queue spreads the whole run), and prices given on the
// command line (workers price models from the suite file).
func TestQueueRefusesWhatWorkersCannotHonour(t *testing.T) {
	dir, db := starterSuite(t)
	prices := filepath.Join(t.TempDir(), "prices.yaml")
	if err := os.WriteFile(prices, []byte("my-model: {input: 0.5, output: 1.5}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		args []string
		says string
	}{
		{[]string{"run", "--queue", "--db", db, "--shard", "1/2", dir}, "--queue spreads the whole run over the workers: give no --shard"},
		{[]string{"run", "--queue", "--db", db, "--shard", "1/2", "--run-label", "x", dir}, "give no --shard"},
		{[]string{"run", "--queue", "--db", db, "--prices", prices, dir}, "--queue cannot take --prices"},
	} {
		code, _, errs := gavelCmd(t, c.args...)
		if code != eval.ExitUsage || !strings.Contains(errs, c.says) {
			t.Errorf("gavel %s: exit %d, want %d and %q:\n%s", strings.Join(c.args, " "), code, eval.ExitUsage, c.says, errs)
		}
	}
}

// The trials of a worker whose --rescue-after they outlast are not
// thrown away: once River gives up on their jobs, each is saved as an
// ERROR that says so, the run finishes, and gavel run --queue reports it.
func TestQueueTrialsOutlastingRescueAfterFinishTheRun(t *testing.T) {
	dsn := pgtest.Schema(t)
	fake := queueModels(t, 3*time.Second) // each trial outlasts --rescue-after 2s
	dir := t.TempDir()
	queueSuite(t, dir, 2) // 4 trials
	run := startQueued(t, dir, fake, "run", "--queue", "--db", dsn, "--no-cache", "evals")
	runID := enqueued(t, run)
	st := openTestStore(t, dsn)
	db := st.(interface{ SQL() *sql.DB }).SQL()
	// Each job's next attempt is its last, as after four failed ones
	// (River's backoff between five takes six minutes).
	if _, err := db.Exec("UPDATE river_job SET max_attempts = 1 WHERE args->>'run' = $1", runID); err != nil {
		t.Fatal(err)
	}
	startQueued(t, dir, fake, "worker", "--db", dsn, "--no-cache", "--concurrency", "4", "--rescue-after", "2s")
	if code := run.wait(t, time.Minute); code != eval.ExitFailed {
		t.Errorf("gavel run --queue: exit %d, want %d", code, eval.ExitFailed)
	}
	stored, err := st.RunVerdicts(context.Background(), runID)
	if err != nil {
		t.Fatal(err)
	}
	saved := 0
	for _, c := range stored.Run.Cases {
		for _, tr := range c.Trials {
			saved++
			if tr.Verdict.Status != judge.StatusError || !strings.Contains(tr.Verdict.Reasoning, "rescue-after") {
				t.Errorf("%s#%d: %s (%s), want an ERROR that names --rescue-after", tr.CaseID, tr.N, tr.Verdict.Status, tr.Verdict.Reasoning)
			}
		}
	}
	if saved != 4 || stored.Info.Status != store.Failed {
		t.Errorf("run %s: %s with %d trials saved, want failed with 4", runID, stored.Info.Status, saved)
	}
}

// gavel run --queue says, within seconds, why a worker does not run its
// trials: it does not wait for River's last attempt to say so.
func TestQueueWaiterSaysWhyWorkersRefuse(t *testing.T) {
	dsn := pgtest.Schema(t)
	fake := queueModels(t, 0)
	here, there := t.TempDir(), t.TempDir()
	queueSuite(t, here, 2)
	queueSuite(t, there, 3) // one case more
	run := startQueued(t, here, fake, "run", "--queue", "--db", dsn, "evals")
	enqueued(t, run)
	startQueued(t, there, fake, "worker", "--db", dsn, "--concurrency", "1")
	waitFor(t, 30*time.Second, "gavel run --queue to say why the worker refuses", func() bool {
		return strings.Contains(run.stderr(), "is not the one the run was enqueued with")
	})
}

// gavel run --queue outlives a PostgreSQL restart: it says it reconnects,
// tries again with backoff, and reports the run the workers finished
// meanwhile, with its exit code.
func TestQueueWaiterReconnects(t *testing.T) {
	dsn := pgtest.Schema(t)
	fake := queueModels(t, 100*time.Millisecond)
	dir := t.TempDir()
	queueSuite(t, dir, 4)
	pg := newCutProxy(t, dsn)
	run := startQueued(t, dir, fake, "run", "--queue", "--db", pg.dsn, "--no-cache", "--out", "junit.xml", "evals")
	runID := enqueued(t, run)
	pg.cut(true) // the server restarts, as gavel run --queue sees it
	waitFor(t, 30*time.Second, "gavel run --queue to say it reconnects", func() bool {
		return strings.Contains(run.stderr(), "reconnecting")
	})
	for range 2 {
		startQueued(t, dir, fake, "worker", "--db", dsn, "--no-cache", "--concurrency", "2")
	}
	st := openTestStore(t, dsn)
	waitFor(t, 2*time.Minute, "the workers to finish the run", func() bool {
		info, err := st.RunInfo(context.Background(), runID)
		return err == nil && info.Status != store.Running
	})
	pg.cut(false)
	if code := run.wait(t, time.Minute); code != eval.ExitPassed {
		t.Errorf("gavel run --queue: exit %d, want %d\n%s", code, eval.ExitPassed, run.stderr())
	}
	if _, err := os.Stat(filepath.Join(dir, "junit.xml")); err != nil {
		t.Errorf("no report written: %v", err)
	}
}

// A cutProxy is a TCP proxy on loopback between a gavel process and the
// PostgreSQL server, which a test cuts (its connections are closed, and
// new ones closed at once, as while a server restarts) and restores.
type cutProxy struct {
	dsn    string // the test's DSN, through the proxy
	ln     net.Listener
	target string
	mu     sync.Mutex
	down   bool
	conns  map[net.Conn]bool
}

// newCutProxy starts a proxy to the server of dsn, closed when the test
// ends.
func newCutProxy(t *testing.T, dsn string) *cutProxy {
	t.Helper()
	u, err := url.Parse(dsn)
	if err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	p := &cutProxy{ln: ln, target: u.Host, conns: map[net.Conn]bool{}}
	u.Host = ln.Addr().String()
	p.dsn = u.String()
	go p.serve()
	t.Cleanup(func() {
		ln.Close()
		p.cut(true)
	})
	return p
}

func (p *cutProxy) serve() {
	for {
		c, err := p.ln.Accept()
		if err != nil {
			return
		}
		go p.pipe(c)
	}
}

// pipe carries c to the server and back, unless the proxy is cut.
func (p *cutProxy) pipe(c net.Conn) {
	s, err := net.Dial("tcp", p.target)
	if err != nil {
		c.Close()
		return
	}
	if !p.track(c, s) {
		c.Close()
		s.Close()
		return
	}
	go func() { io.Copy(s, c); s.Close() }()
	io.Copy(c, s)
	c.Close()
}

// track records open connections, unless the proxy is cut.
func (p *cutProxy) track(conns ...net.Conn) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.down {
		return false
	}
	for _, c := range conns {
		p.conns[c] = true
	}
	return true
}

// cut closes every connection and refuses new ones (down), or lets them
// through again.
func (p *cutProxy) cut(down bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.down = down
	if down {
		for c := range p.conns {
			c.Close()
		}
		clear(p.conns)
	}
}
