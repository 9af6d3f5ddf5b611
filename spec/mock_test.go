package spec_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/gavelhq/gavel/judge"
	"github.com/gavelhq/gavel/mcp"
	"github.com/gavelhq/gavel/mcp/mcptest"
	"github.com/gavelhq/gavel/runner"
	"github.com/gavelhq/gavel/spec"
)

// mockTools is a suite's mock tool: get_order_status fails on its first
// call of a trial for order 12345, then answers; other orders are
// unknown.
const mockTools = `  mock_tools:
    - name: get_order_status
      description: Looks an order up by its id.
      input_schema: {type: object, properties: {order_id: {type: string}}, required: [order_id]}
      results:
        - {when: {order_id: "12345"}, once: true, error: the order database is down}
        - {when: {order_id: "12345"}, result: {status: shipped}}
        - {result: no such order}
`

// mockCases call the mock for order 12345, which fails the first time
// (the agent retries), and for another; the transcript has the failure,
// the answer, and the default.
const mockCases = `cases:
  - id: retry
    input: 'call get_order_status {"order_id": "12345"} twice'
    expected_tool_calls: [{name: get_order_status, args: {order_id: "12345"}}]
    rules: [{contains: shipped}]
  - id: unknown
    input: 'call get_order_status {"order_id": "999"}'
    rules: [{contains: no such order}]
`

// outageCase has its own answer of get_order_status: in this case only,
// the tool fails whatever it is asked.
const outageCase = `  - id: outage
    input: 'call get_order_status {"order_id": "12345"}'
    mock_tools: [{name: get_order_status, results: [{error: down for maintenance}]}]
    rules: [{contains: maintenance}]
`

// Mock tools need no server: a builtin agent has them as tools, and an
// http agent reaches them as an MCP server at mock_listen; either way,
// calls are recorded as real ones, with the answers the suite wrote.
func TestMockTools(t *testing.T) {
	script := `name: retrying-agent
rules:
  - when: {last: user, user: 'twice'}
    tool_calls: [{name: get_order_status, arguments: {order_id: "12345"}}]
  - when: {last: tool, text: 'database is down'}
    tool_calls: [{name: get_order_status, arguments: {order_id: "12345"}}]
  - when: {last: user, user: '12345'}
    tool_calls: [{name: get_order_status, arguments: {order_id: "12345"}}]
  - when: {last: user, user: '999'}
    tool_calls: [{name: get_order_status, arguments: {order_id: "999"}}]
  - when: {last: tool, text: '(?s)(?P<result>.*)'}
    text: 'The tool said: ${result}'
`
	check := func(t *testing.T, dir string, wantCalls map[string][]string) {
		t.Helper()
		b, err := spec.Open(dir, testEnv())
		if err != nil {
			t.Fatal(err)
		}
		defer b.Close()
		ctx, cancel := context.WithTimeout(t.Context(), time.Minute)
		defer cancel()
		run := runner.Run(ctx, b.Suite, runner.Config{Concurrency: 1, Timeout: 30 * time.Second})
		for _, cr := range run.Cases {
			tr := cr.Trials[0]
			if tr.Verdict.Status != judge.StatusPass {
				t.Errorf("%s: %s", cr.ID(), tr.Verdict.Summary())
			}
			var got []string
			for _, c := range tr.Transcript.ToolCalls() {
				got = append(got, fmt.Sprintf("%s %v", c.Result, c.IsError))
			}
			if strings.Join(got, " | ") != strings.Join(wantCalls[cr.ID()], " | ") {
				t.Errorf("%s: calls %q, want %q", cr.ID(), got, wantCalls[cr.ID()])
			}
		}
	}
	builtinCalls := map[string][]string{
		"retry":   {"the order database is down true", `{"status":"shipped"} false`},
		"unknown": {"no such order false"},
		"outage":  {"down for maintenance true"},
	}
	t.Run("builtin agent", func(t *testing.T) {
		dir := suiteDir(t, map[string]string{
			"agent.yaml": script,
			"gavel.yaml": "agent:\n  builtin:\n    model: script:agent.yaml\n" + mockTools + mockCases + outageCase,
		})
		check(t, dir, builtinCalls)
	})
	// Through the proxy too, a call belongs to its trial and case (the
	// turn under way): the outage is the outage case's alone, and the
	// retry case fails first in each trial, however trials interleave.
	t.Run("http agent", func(t *testing.T) {
		listen := fmt.Sprintf("127.0.0.1:%d", mcptest.FreePort(t))
		env := testEnv()
		dir := suiteDir(t, map[string]string{
			"gavel.yaml": "agent:\n  http: {url: '" + retryingToolAgent(t, "http://"+listen+"/mcp") + "'}\n  mock_listen: '" + listen + "'\n" + mockTools + mockCases + outageCase,
		})
		b, err := spec.Open(dir, env)
		if err != nil {
			t.Fatal(err)
		}
		b.Close()
		check(t, dir, builtinCalls)
	})
}

// retryingToolAgent is an http agent that, told "call TOOL ARGS", calls
// the tool of the MCP server at mcpURL, and once more if told "twice"
// and the first call failed; it says what the tool said last.
func retryingToolAgent(t *testing.T, mcpURL string) string {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var req struct{ Message string }
		if err := json.NewDecoder(r.Body).Decode(&req); err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		msg, twice := strings.CutSuffix(strings.TrimPrefix(req.Message, "call "), " twice")
		tool, args, _ := strings.Cut(msg, " ")
		c, err := mcp.Connect(r.Context(), mcp.Server{URL: mcpURL, Timeout: 30 * time.Second})
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadGateway)
			return
		}
		defer c.Close()
		call, err := c.Call(r.Context(), tool, json.RawMessage(args))
		if err == nil && twice && call.IsError {
			call, err = c.Call(r.Context(), tool, json.RawMessage(args))
		}
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadGateway)
			return
		}
		json.NewEncoder(w).Encode(map[string]string{"reply": "The tool said: " + call.Result})
	}))
	t.Cleanup(srv.Close)
	return srv.URL
}

// A mock tool without answers, an answer with both a result and an
// error, and mock tools an http agent cannot reach are refused, saying
// what to write.
func TestMockToolProblems(t *testing.T) {
	for _, tc := range []struct{ agent, want string }{
		{"agent:\n  builtin: {model: 'fake:agent'}\n  mock_tools: [{name: t}]\n",
			"agent.mock_tools[0]: give results: the answers of the tool"},
		{"agent:\n  builtin: {model: 'fake:agent'}\n  mock_tools: [{name: t, results: [{result: a, error: b}]}]\n",
			"agent.mock_tools[0].results[0]: give result or error, not both"},
		{"agent:\n  exec: {command: [cat]}\n  mock_tools: [{name: t, results: [{result: a}]}]\n",
			"agent.mock_tools: an http or exec agent reaches mock tools as an MCP server: give agent.mock_listen"},
		{"agent:\n  builtin: {model: 'fake:agent'}\n  mock_tools: [{name: t, results: [{result: a}]}, {name: t, results: [{result: b}]}]\n",
			`agent.mock_tools: two mock tools are named "t": rename one`},
		{"agent:\n  builtin: {model: 'fake:agent'}\n", "mock_tools: the suite declares no mock tools: declare each under agent.mock_tools"},
		{"agent:\n  builtin: {model: 'fake:agent'}\n  mock_tools: [{name: u, results: [{result: a}]}]\n",
			`mock_tools[0].name: no such mock tool "t": a case gives answers of the suite's mock tools (u); declare the tool there`},
	} {
		dir := suiteDir(t, map[string]string{"gavel.yaml": tc.agent + "models: {judge: 'fake:judge'}\ncases:\n  - {id: a, input: hi, expected_tools: [t], mock_tools: [{name: t, results: [{error: down}]}]}\n"})
		env := testEnv()
		env.DryRun = true
		_, err := spec.Open(dir, env)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v, want %q", tc.agent, err, tc.want)
		}
	}
}
