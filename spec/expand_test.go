package spec_test

import (
	"strings"
	"testing"

	"github.com/gavelhq/gavel/spec"
)

// ${VAR} and ${VAR:-default} in model references, URLs and addresses let
// one suite run offline and against real models and agents.
func TestEnvironmentVariables(t *testing.T) {
	const suite = `agent:
  http:
    url: ${AGENT_URL:-http://127.0.0.1:8787}/chat
  mcp_proxy:
    - {name: orders, url: "http://127.0.0.1:9/mcp", listen: "${TOOLS_ADDR}"}
models: {judge: "${JUDGE_MODEL:-fake:offline}"}
cases:
  - {id: a, input: hi, judge_prompt: be nice}
`
	for _, tc := range []struct {
		name    string
		env     map[string]string
		judge   string
		problem string
	}{
		{"defaults", map[string]string{"TOOLS_ADDR": "127.0.0.1:8788"}, "fake:offline", ""},
		{"from the environment", map[string]string{"TOOLS_ADDR": "127.0.0.1:8788", "JUDGE_MODEL": "fake:real"}, "fake:real", ""},
		{"unset without a default", nil, "", "agent.mcp_proxy[0].listen: the environment variable TOOLS_ADDR is not set: set it, or give a default as ${TOOLS_ADDR:-value}"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			env := testEnv()
			env.DryRun = true
			env.Getenv = func(name string) string { return tc.env[name] }
			b, err := spec.Open(suiteDir(t, map[string]string{"gavel.yaml": suite}), env)
			if tc.problem != "" {
				if err == nil || !strings.Contains(err.Error(), tc.problem) {
					t.Fatalf("got %v, want the problem %q", err, tc.problem)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			defer b.Close()
			if got := b.Suite.Models["judge"]; got != tc.judge {
				t.Errorf("judge model %q, want %q", got, tc.judge)
			}
		})
	}
}

func TestMCPProxyIsForAgentsThatDoNotReport(t *testing.T) {
	const suite = `agent:
  builtin: {model: "fake:agent"}
  mcp_proxy: [{name: orders, url: "http://127.0.0.1:9/mcp", listen: "127.0.0.1:8788"}]
models: {judge: "fake:judge"}
cases:
  - {id: a, input: hi, judge_prompt: be nice}
`
	_, err := spec.Open(suiteDir(t, map[string]string{"gavel.yaml": suite}), testEnv())
	if err == nil || !strings.Contains(err.Error(), "a builtin agent reports its tool calls itself") {
		t.Errorf("got %v, want a problem", err)
	}
}
