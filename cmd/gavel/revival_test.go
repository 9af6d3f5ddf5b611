package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/gavelhq/gavel/eval"
)

// restartScript stops the agent, waits until it has (its pid file goes
// once it stops listening), and starts it again in the background.
const restartScript = `kill "$(cat agent.pid)"
while [ -e agent.pid ]; do sleep 0.05; done
"$AGENT_BIN" -addr "$AGENT_ADDR" -pidfile agent.pid ${AGENT_STATE:+-state "$AGENT_STATE"} >>agent.log 2>&1 &
`

// revivalSuite revives the session of "remembers" by restarting the agent
// between its rounds; "plain" is never revived, and must not see the
// agent restart under it while other trials run alongside.
const revivalSuite = `name: revival-by-restart
trials: 3
concurrency: 4
agent:
  http: {url: "http://${AGENT_ADDR}/chat"}
  restart: {command: [sh, restart.sh], timeout: 30s}
cases:
  - id: remembers
    rounds:
      - prompt: order 12345
      - {prompt: history, rules: [{contains: "order 12345"}]}
    test_agent_revival: true
  - id: plain
    rounds:
      - prompt: order 67890
      - {prompt: history, rules: [{contains: "order 67890"}]}
`

// Seed 000's "bugs that only appear after server restarts": an agent that
// keeps its sessions in memory forgets the thread when a revival restarts
// it, and the case fails; the same agent keeping them on disk passes. The
// case that is not revived passes either way: no restart happens while
// its session is open.
func TestRevivalByRestart(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and restarts a test agent")
	}
	bin := filepath.Join(t.TempDir(), "httpagent")
	if out, err := exec.Command("go", "build", "-o", bin, "../../agent/testdata/httpagent").CombinedOutput(); err != nil {
		t.Fatalf("go build httpagent: %v\n%s", err, out)
	}
	for _, tc := range []struct {
		name     string
		persists bool
		code     int
		want     []string
	}{
		{"in memory", false, eval.ExitFailed, []string{
			"remembers | -     | FAIL     | FAIL    | 0/3",
			"plain     | -     | PASS     | PASS    | 3/3",
			`FAIL round 2: contains "order 12345"`,
			"(agent restarted by command between closing and reopening the session)",
			"history: (none)",
		}},
		{"on disk", true, eval.ExitPassed, []string{
			"remembers | -     | PASS     | PASS    | 3/3",
			"plain     | -     | PASS     | PASS    | 3/3",
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			t.Setenv("AGENT_BIN", bin)
			t.Setenv("AGENT_ADDR", freeAddr(t))
			t.Setenv("AGENT_STATE", "")
			if tc.persists {
				t.Setenv("AGENT_STATE", filepath.Join(dir, "state"))
				os.Mkdir(filepath.Join(dir, "state"), 0o755)
			}
			for name, content := range map[string]string{"restart.sh": restartScript, "gavel.yaml": revivalSuite} {
				if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			startAgent(t, dir)

			code, out, errs := gavelCmd(t, "run", "--no-cache", filepath.Join(dir, "gavel.yaml"))
			if code != tc.code {
				t.Errorf("exit %d, want %d\n%s\n%s", code, tc.code, out, errs)
			}
			for _, want := range tc.want {
				if !strings.Contains(out, want) {
					t.Errorf("the report lacks %q:\n%s\n%s", want, out, errs)
				}
			}
			if log, _ := os.ReadFile(filepath.Join(dir, "agent.log")); strings.Count(string(log), "listening on") != 3 {
				t.Errorf("the agent was not restarted once per trial of the revived case:\n%s", log)
			}
		})
	}
}

// startAgent starts httpagent in dir, as restart.sh does, waits until it
// listens, and stops whichever httpagent then runs when the test ends.
func startAgent(t *testing.T, dir string) {
	t.Helper()
	pidfile := filepath.Join(dir, "agent.pid")
	args := []string{"-addr", os.Getenv("AGENT_ADDR"), "-pidfile", pidfile}
	if state := os.Getenv("AGENT_STATE"); state != "" {
		args = append(args, "-state", state)
	}
	cmd := exec.Command(os.Getenv("AGENT_BIN"), args...)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan struct{})
	go func() { cmd.Wait(); close(exited) }()
	t.Cleanup(func() {
		if data, err := os.ReadFile(pidfile); err == nil {
			if pid, err := strconv.Atoi(string(data)); err == nil {
				syscall.Kill(pid, syscall.SIGTERM)
			}
		}
		for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
			if _, err := os.Stat(pidfile); err != nil {
				break
			}
		}
		cmd.Process.Kill() // the first agent, if no restart stopped it
		<-exited
	})
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		if _, err := os.Stat(pidfile); err == nil {
			return
		}
		if time.Now().After(deadline) {
			t.Fatal("httpagent did not start listening within 10s")
		}
	}
}
