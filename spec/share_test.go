package spec_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gavelhq/gavel/judge"
	"github.com/gavelhq/gavel/mcp/mcptest"
	"github.com/gavelhq/gavel/runner"
	"github.com/gavelhq/gavel/spec"
)

// An MCP server's share says which trials share it: the run's, a case's,
// or each trial its own, closed once the trial is judged. One server
// process served every trial of a run, and one case saw what another
// stored, without a word in the docs. Two cases of two trials each, on
// the everything reference server, whose starts and ends a shell logs.
func TestMCPShare(t *testing.T) {
	bin := mcptest.ServerBin(t, "mcp-server-everything")
	for _, tc := range []struct {
		share              string
		starts, endedByRun int // server processes started, and ended before the suite closed
	}{
		{"run", 1, 0},
		{"case", 2, 2},
		{"trial", 4, 4},
	} {
		t.Run(tc.share, func(t *testing.T) {
			log := filepath.Join(t.TempDir(), "log")
			dir := suiteDir(t, map[string]string{
				"agent.yaml": echoAgentScript,
				"gavel.yaml": `trials: 2
agent:
  builtin:
    model: script:agent.yaml
    mcp:
      - command: [sh, -c, 'echo start >> ` + log + `; "` + bin + `" stdio; echo end >> ` + log + `']
        share: ` + tc.share + `
cases:
  - id: one
    input: 'call echo {"message": "hello gavel"}'
    expected_tools: [echo]
  - id: two
    input: 'call echo {"message": "hello gavel"}'
    expected_tools: [echo]
`,
			})
			b, err := spec.Open(dir, testEnv())
			if err != nil {
				t.Fatal(err)
			}
			ctx, cancel := context.WithTimeout(t.Context(), 2*time.Minute)
			defer cancel()
			run := runner.Run(ctx, b.Suite, runner.Config{Concurrency: 2, Timeout: time.Minute})
			for _, cr := range run.Cases {
				for _, tr := range cr.Trials {
					if tr.Verdict.Status != judge.StatusPass {
						t.Errorf("%s#%d: %s", cr.ID(), tr.N, tr.Verdict.Summary())
					}
				}
			}
			count := func(word string) int {
				data, _ := os.ReadFile(log)
				return strings.Count(string(data), word)
			}
			// A process ends a moment after its stdin closes.
			for deadline := time.Now().Add(10 * time.Second); count("end") < tc.endedByRun && time.Now().Before(deadline); {
				time.Sleep(20 * time.Millisecond)
			}
			if got, ended := count("start"), count("end"); got != tc.starts || ended != tc.endedByRun {
				t.Errorf("share %s: %d server processes started, %d ended with the run; want %d, %d", tc.share, got, ended, tc.starts, tc.endedByRun)
			}
			b.Close()
		})
	}
}

// A share that is not one, and a recording proxy's share other than the
// run's, are refused, saying why.
func TestMCPShareProblems(t *testing.T) {
	for _, tc := range []struct{ agent, want string }{
		{"agent:\n  builtin:\n    model: 'fake:agent'\n    mcp: [{command: [cat], share: forever}]\n",
			`gavel.yaml:4:28: agent.builtin.mcp[0].share "forever": want run (the default), case or trial`},
		{"agent:\n  exec: {command: [cat]}\n  mcp_proxy: [{command: [cat], share: trial, listen: '127.0.0.1:8788'}]\n",
			`gavel.yaml:3:32: agent.mcp_proxy[0].share "trial": a recording proxy serves the whole run at 127.0.0.1:8788, so its server is the run's`},
	} {
		dir := suiteDir(t, map[string]string{"gavel.yaml": tc.agent + "models: {judge: 'fake:judge'}\ncases:\n  - {id: a, input: hi, expected_tools: [x]}\n"})
		env := testEnv()
		env.DryRun = true
		_, err := spec.Open(dir, env)
		hasProblems(t, dir, err, tc.want)
	}
}
