package spec_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/gavelhq/gavel/mcp/mcptest"
	"github.com/gavelhq/gavel/runner"
	"github.com/gavelhq/gavel/spec"
)

// Faults on purpose, in front of a real MCP server (the everything
// reference server): a builtin agent's first echo fails with the words
// the suite gives, and an http agent's echo, through the recording proxy,
// comes back cut in half. The transcript marks each injected call.
func TestFaults(t *testing.T) {
	bin := mcptest.ServerBin(t, "mcp-server-everything")
	const onecase = `cases:
  - id: echo
    input: 'call echo {"message": "hello gavel"}'
    expected_tools: [echo]
`
	run := func(t *testing.T, dir string) (result, injected string) {
		t.Helper()
		b, err := spec.Open(dir, testEnv())
		if err != nil {
			t.Fatal(err)
		}
		defer b.Close()
		ctx, cancel := context.WithTimeout(t.Context(), time.Minute)
		defer cancel()
		r := runner.Run(ctx, b.Suite, runner.Config{Concurrency: 1, Timeout: 30 * time.Second})
		calls := r.Cases[0].Trials[0].Transcript.ToolCalls()
		if len(calls) != 1 {
			t.Fatalf("%d calls: %+v", len(calls), calls)
		}
		return calls[0].Result, calls[0].Injected
	}
	t.Run("builtin agent", func(t *testing.T) {
		dir := suiteDir(t, map[string]string{
			"agent.yaml": echoAgentScript,
			"gavel.yaml": `agent:
  builtin:
    model: script:agent.yaml
    mcp: [{command: ["` + bin + `", stdio]}]
  faults: [{tool: echo, on_call: 1, kind: error, message: echo is down}]
` + onecase,
		})
		if result, injected := run(t, dir); result != "echo is down" || injected != "error" {
			t.Errorf("result %q, injected %q; want the suite's error, marked", result, injected)
		}
	})
	t.Run("builtin agent, protocol error", func(t *testing.T) {
		dir := suiteDir(t, map[string]string{
			"agent.yaml": echoAgentScript,
			"gavel.yaml": `agent:
  builtin:
    model: script:agent.yaml
    mcp: [{command: ["` + bin + `", stdio]}]
  faults: [{tool: echo, on_call: 1, kind: protocol_error, message: echo refused}]
` + onecase,
		})
		if result, injected := run(t, dir); result != "the tool could not be called: echo refused" || injected != "protocol_error" {
			t.Errorf("result %q, injected %q; want the protocol error as a failed call, marked", result, injected)
		}
	})
	t.Run("http agent through the proxy", func(t *testing.T) {
		listen := fmt.Sprintf("127.0.0.1:%d", mcptest.FreePort(t))
		dir := suiteDir(t, map[string]string{
			"gavel.yaml": "agent:\n  http: {url: '" + toolAgent(t, "http://"+listen+"/mcp") + "'}\n" +
				"  mcp_proxy: [{command: [\"" + bin + "\", stdio], listen: '" + listen + "'}]\n" +
				"  faults: [{tool: echo, rate: 1, kind: truncate}]\n" + onecase,
		})
		// The everything server answers "Echo: hello gavel" (17
		// characters): cut in half, 8.
		if result, injected := run(t, dir); result != "Echo: he" || injected != "truncated" {
			t.Errorf("result %q, injected %q; want it cut in half, marked", result, injected)
		}
	})
	// on_call counts a tool's calls by trial through the proxy too: the
	// first call of each of two trials fails, however they interleave.
	t.Run("http agent through the proxy, by trial", func(t *testing.T) {
		listen := fmt.Sprintf("127.0.0.1:%d", mcptest.FreePort(t))
		dir := suiteDir(t, map[string]string{
			"gavel.yaml": "trials: 2\nagent:\n  http: {url: '" + toolAgent(t, "http://"+listen+"/mcp") + "'}\n" +
				"  mcp_proxy: [{command: [\"" + bin + "\", stdio], listen: '" + listen + "'}]\n" +
				"  faults: [{tool: echo, on_call: 1, kind: error, message: echo is down}]\n" + onecase,
		})
		b, err := spec.Open(dir, testEnv())
		if err != nil {
			t.Fatal(err)
		}
		defer b.Close()
		ctx, cancel := context.WithTimeout(t.Context(), time.Minute)
		defer cancel()
		r := runner.Run(ctx, b.Suite, runner.Config{Concurrency: 2, Timeout: 30 * time.Second})
		for i, tr := range r.Cases[0].Trials {
			if calls := tr.Transcript.ToolCalls(); len(calls) != 1 || calls[0].Injected != "error" {
				t.Errorf("trial %d: calls %+v; want its first call failed on purpose", i+1, calls)
			}
		}
	})
}
