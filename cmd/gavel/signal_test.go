package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/gavelhq/gavel/eval"
	"github.com/gavelhq/gavel/judge"
	"github.com/gavelhq/gavel/llm"
	"github.com/gavelhq/gavel/llm/llmtest"
	"github.com/gavelhq/gavel/report"
)

// buildGavel builds the gavel binary into a temporary directory.
func buildGavel(t *testing.T) string {
	t.Helper()
	if testing.Short() {
		t.Skip("builds gavel and runs it")
	}
	bin := filepath.Join(t.TempDir(), "gavel")
	ctx, cancel := context.WithTimeout(t.Context(), 5*time.Minute)
	defer cancel()
	if out, err := exec.CommandContext(ctx, "go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	return bin
}

// A process is a gavel binary running, its standard error kept.
type process struct {
	cmd    *exec.Cmd
	done   chan struct{}
	mu     sync.Mutex
	stderr bytes.Buffer
}

func (p *process) Write(b []byte) (int, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.stderr.Write(b)
}

func (p *process) errors() string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.stderr.String()
}

// startGavel starts bin with args in dir, the variables env added to the
// environment; the test kills it if it is still running at the end.
func startGavel(t *testing.T, bin, dir string, env []string, args ...string) *process {
	t.Helper()
	p := &process{cmd: exec.Command(bin, args...), done: make(chan struct{})}
	p.cmd.Dir, p.cmd.Env, p.cmd.Stderr = dir, append(os.Environ(), env...), p
	if err := p.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() { p.cmd.Wait(); close(p.done) }()
	t.Cleanup(func() { p.cmd.Process.Kill(); <-p.done })
	return p
}

// waitFor waits until cond holds, failing the test after a minute.
func (p *process) waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(time.Minute)
	for !cond() {
		select {
		case <-p.done:
			t.Fatalf("gavel exited before %s:\n%s", what, p.errors())
		case <-time.After(20 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			t.Fatalf("no %s after a minute:\n%s", what, p.errors())
		}
	}
}

// exit waits for the process to end, for two minutes at most, and returns
// its exit code.
func (p *process) exit(t *testing.T) int {
	t.Helper()
	select {
	case <-p.done:
	case <-time.After(2 * time.Minute):
		p.cmd.Process.Kill()
		t.Fatalf("gavel did not exit within two minutes:\n%s", p.errors())
	}
	return p.cmd.ProcessState.ExitCode()
}

// readReport reads a JSON report.
func readReport(t *testing.T, path string) report.JSONReport {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("the JSON report: %v", err)
	}
	var r report.JSONReport
	if err := json.Unmarshal(data, &r); err != nil {
		t.Fatalf("the JSON report: %v", err)
	}
	return r
}

// agentAt returns the variables that make the starter suite's agent an
// OpenAI model served at url, with a key.
func agentAt(url string) []string {
	return []string{"GAVEL_AGENT_MODEL=openai:agent", "OPENAI_BASE_URL=" + url, "OPENAI_API_KEY=sk-test"}
}

// slowAgent starts a fake OpenAI server for the starter suite's agent,
// answering after latency, and returns it with the variables that point
// the suite at it.
func slowAgent(t *testing.T, latency time.Duration) (*llmtest.OpenAIServer, []string) {
	srv := llmtest.NewOpenAIServer(&llmtest.Scripted{Rules: []llmtest.Rule{{Text: "Hello! Returns are accepted within 30 days."}}})
	srv.Latency = latency
	t.Cleanup(srv.Close)
	return srv, agentAt(srv.URL)
}

// SIGTERM, as a CI runner sends to cancel a job, drains the run as Ctrl-C
// does: the trials in flight finish and are kept, no new one starts, the
// reports and the store say the run is incomplete, and gavel exits 5.
func TestSIGTERMDrains(t *testing.T) {
	bin := buildGavel(t)
	dir, db := starterSuite(t)
	srv, agent := slowAgent(t, 200*time.Millisecond)
	out := filepath.Join(dir, "report.json")
	p := startGavel(t, bin, dir, agent, "run", "--quiet", "--no-cache", "--db", db,
		"--trials", "20", "--concurrency", "2", "--out", out, dir)
	p.waitFor(t, "request to the agent's model", func() bool { return srv.Requests() >= 1 })
	if err := p.cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	if code := p.exit(t); code != eval.ExitIncomplete {
		t.Fatalf("exit %d, want %d:\n%s", code, eval.ExitIncomplete, p.errors())
	}
	if !strings.Contains(p.errors(), "SIGTERM: stopping") {
		t.Errorf("no word of the stop:\n%s", p.errors())
	}
	r := readReport(t, out)
	if r.Passed || !r.Incomplete || !r.Interrupted || r.StopReason != "interrupted (SIGTERM)" {
		t.Errorf("report: passed %v, incomplete %v, interrupted %v, stop reason %q; want false, true, true, \"interrupted (SIGTERM)\"",
			r.Passed, r.Incomplete, r.Interrupted, r.StopReason)
	}
	if r.Stats.Trials == 0 || r.Stats.Trials >= 40 {
		t.Errorf("%d trials ran, want some of the 40 and not all", r.Stats.Trials)
	}
	for _, c := range r.Cases {
		for _, tr := range c.Trials {
			if tr.Cause() == judge.CauseCancelled {
				t.Errorf("trial %s#%d was cut short: a single SIGTERM lets the trials in flight finish", tr.CaseID, tr.N)
			}
		}
	}
	code, list, _ := gavelCmd(t, "runs", "--db", db)
	if code != eval.ExitPassed || !strings.Contains(list, "incomplete") {
		t.Errorf("gavel runs: exit %d, want the run listed as incomplete:\n%s", code, list)
	}
}

// A second Ctrl-C cancels the trials in flight: gavel still writes its
// reports and stores what it has, the cut trials marked as such, and
// exits 5. --resume then makes a new run that keeps the trial that
// finished and runs again those cut short and those never started,
// leaving the first run as it was.
func TestSecondSignalStopsAtOnce(t *testing.T) {
	bin := buildGavel(t)
	dir, db := starterSuite(t)
	// The agent's model answers its first request, and never the others.
	var calls atomic.Int32
	answer := &llmtest.Scripted{Rules: []llmtest.Rule{{Text: "Hello! Returns are accepted within 30 days."}}}
	srv := llmtest.NewOpenAIServer(llm.Func(func(ctx context.Context, req *llm.Request) (*llm.Response, error) {
		if calls.Add(1) > 1 {
			<-ctx.Done()
			return nil, ctx.Err()
		}
		return answer.Generate(ctx, req)
	}))
	t.Cleanup(srv.Close)
	out := filepath.Join(dir, "report.json")
	p := startGavel(t, bin, dir, agentAt(srv.URL), "run", "--quiet", "--no-cache", "--db", db,
		"--trials", "3", "--concurrency", "2", "--out", out, dir)
	p.waitFor(t, "three requests to the agent's model", func() bool { return srv.Requests() >= 3 })
	if err := p.cmd.Process.Signal(os.Interrupt); err != nil {
		t.Fatal(err)
	}
	p.waitFor(t, "word of the first SIGINT", func() bool { return strings.Contains(p.errors(), "SIGINT: stopping") })
	if err := p.cmd.Process.Signal(os.Interrupt); err != nil {
		t.Fatal(err)
	}
	if code := p.exit(t); code != eval.ExitIncomplete {
		t.Fatalf("exit %d, want %d:\n%s", code, eval.ExitIncomplete, p.errors())
	}
	r := readReport(t, out)
	if r.Passed || !r.Incomplete {
		t.Errorf("report: passed %v, incomplete %v; want false, true", r.Passed, r.Incomplete)
	}
	ran, cut := 0, 0
	for _, c := range r.Cases {
		for _, tr := range c.Trials {
			ran++
			if tr.Cause() == judge.CauseCancelled {
				cut++
			}
		}
	}
	if ran != 3 || cut != 2 {
		t.Errorf("%d trials in the report, %d cut short; want 3: 1 finished and the 2 in flight cut", ran, cut)
	}
	m := runID.FindStringSubmatch(p.errors())
	if m == nil {
		t.Fatalf("the run was not saved:\n%s", p.errors())
	}
	first := m[1]
	code, shown, errs := gavelCmd(t, "show", "--db", db, first)
	if code != eval.ExitPassed || !strings.Contains(shown, "(incomplete)") {
		t.Errorf("gavel show: exit %d, want the run incomplete:\n%s%s", code, shown, errs)
	}
	code, before, errs := gavelCmd(t, "report", "--verbose", "--db", db, first)
	if code != eval.ExitPassed || !strings.Contains(before, "CANCELLED") {
		t.Errorf("gavel report: exit %d, want the cancelled trials stored:\n%s%s", code, before, errs)
	}

	// Resume with an agent that answers.
	_, fast := slowAgent(t, 0)
	for _, v := range fast {
		name, value, _ := strings.Cut(v, "=")
		t.Setenv(name, value)
	}
	// As the run said to, from another directory: the suite and the
	// trials a case are the first run's.
	if hint := "gavel run --resume " + first; !strings.Contains(p.errors(), hint) {
		t.Errorf("the interrupted run does not say %q:\n%s", hint, p.errors())
	}
	code, resumedOut, errs := gavelCmd(t, "run", "--no-cache", "--db", db, "--resume", first)
	if code != eval.ExitFailed || !strings.Contains(errs, "keeping 1 of its trials and running 2 of them again") {
		t.Errorf("resume: exit %d, want 1 (greeting fails), keeping 1 trial and running the 2 cut ones again:\n%s", code, errs)
	}
	if strings.Contains(resumedOut, "CANCELLED") || !strings.Contains(resumedOut, "Trials: 6") {
		t.Errorf("the resumed run carries cancelled trials, or not all 6:\n%s", resumedOut)
	}
	if _, after, _ := gavelCmd(t, "report", "--verbose", "--db", db, first); after != before {
		t.Errorf("the first run changed when it was resumed:\n%s", after)
	}
}

// A run whose process is killed (kill -9: no report, no end) is shown as
// abandoned, not running, by gavel runs and gavel show, and --resume
// carries it on.
func TestKilledRunIsAbandoned(t *testing.T) {
	bin := buildGavel(t)
	dir, db := starterSuite(t)
	srv, agent := slowAgent(t, time.Hour)
	p := startGavel(t, bin, dir, agent, "run", "--quiet", "--no-cache", "--db", db, "--concurrency", "1", dir)
	p.waitFor(t, "a request to the agent's model", func() bool { return srv.Requests() >= 1 })
	code, list, _ := gavelCmd(t, "runs", "--db", db, "--status", "running")
	m := regexp.MustCompile(`(?m)^(\S+)\s+my-agent\s+running\s`).FindStringSubmatch(list)
	if code != eval.ExitPassed || m == nil {
		t.Fatalf("gavel runs --status running: exit %d, want the run:\n%s", code, list)
	}
	id := m[1]
	if err := p.cmd.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	p.exit(t)

	code, list, _ = gavelCmd(t, "runs", "--db", db)
	if code != eval.ExitPassed || !regexp.MustCompile(id+`\s+my-agent\s+abandoned\s`).MatchString(list) {
		t.Errorf("gavel runs: exit %d, want %s abandoned:\n%s", code, id, list)
	}
	if _, list, _ = gavelCmd(t, "runs", "--db", db, "--status", "running"); strings.Contains(list, id) {
		t.Errorf("gavel runs --status running lists the killed run:\n%s", list)
	}
	if _, list, _ = gavelCmd(t, "runs", "--db", db, "--status", "abandoned"); !strings.Contains(list, id) {
		t.Errorf("gavel runs --status abandoned does not list the killed run:\n%s", list)
	}
	code, shown, _ := gavelCmd(t, "show", "--db", db, id)
	if code != eval.ExitPassed || !strings.Contains(shown, "Run "+id+" (abandoned)") || !strings.Contains(shown, "Abandoned: the process that ran it (pid") {
		t.Errorf("gavel show: exit %d, want the run abandoned:\n%s", code, shown)
	}

	_, fast := slowAgent(t, 0)
	for _, v := range fast {
		name, value, _ := strings.Cut(v, "=")
		t.Setenv(name, value)
	}
	code, _, errs := gavelCmd(t, "run", "--quiet", "--no-cache", "--db", db, "--resume", id, dir)
	if code != eval.ExitFailed || !strings.Contains(errs, "a new run carries it on") {
		t.Errorf("--resume of the abandoned run: exit %d, want 1 (greeting fails):\n%s", code, errs)
	}
}
