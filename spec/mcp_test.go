package spec_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gavelhq/gavel/judge"
	"github.com/gavelhq/gavel/mcp"
	"github.com/gavelhq/gavel/mcp/mcptest"
	"github.com/gavelhq/gavel/runner"
	"github.com/gavelhq/gavel/spec"
)

// echoAgentScript is the builtin agent's model: it makes the calls of
// mcpCases, and repeats the tool's result.
const echoAgentScript = `name: echo-agent
rules:
  - when: {last: user, user: 'hello gavel'}
    tool_calls: [{name: echo, arguments: {message: hello gavel}}]
  - when: {last: user, user: '"message": 5'}
    tool_calls: [{name: echo, arguments: {message: 5}}]
  - when: {last: tool, text: '(?s)(?P<result>.*)'}
    text: 'The tool said: ${result}'
`

// mcpCases are the cases of the suites of TestMCPServerByURL: a call that
// works, and one whose arguments the server refuses with isError.
const mcpCases = `cases:
  - id: echo
    input: 'call echo {"message": "hello gavel"}'
    expected_tool_calls: [{name: echo, args: {message: hello gavel}}]
    rules: [{contains: "Echo: hello gavel"}]
  - id: refused
    input: 'call echo {"message": 5}'
    expected_tools: [echo]
`

// TestMCPServerByURL runs suites whose MCP servers are given by url:
// the everything reference server over SSE and over streamable HTTP, as
// the tools of a builtin agent and as the upstream of the recording proxy
// of an http agent, with a header whose value reads the environment. A
// tool's isError result is kept in the transcript as a failed call.
func TestMCPServerByURL(t *testing.T) {
	for _, tr := range []struct {
		name, mode, path, transport string
	}{
		{"sse", mcptest.SSE, "/sse", ", transport: sse"},
		{"streamable", mcptest.StreamableHTTP, "/mcp", ""}, // the default transport
	} {
		t.Run(tr.name, func(t *testing.T) {
			base := mcptest.StartEverything(t, tr.mode)
			server, auth := recordHeaders(t, base)
			env := testEnv()
			vars := map[string]string{"EVERYTHING_URL": server + tr.path, "EVERYTHING_TOKEN": "s3cret"}
			env.Getenv = func(name string) string { return vars[name] }
			upstream := "{name: everything, url: '${EVERYTHING_URL}'" + tr.transport + ", headers: {Authorization: 'Bearer ${EVERYTHING_TOKEN}'}"

			t.Run("builtin agent", func(t *testing.T) {
				dir := suiteDir(t, map[string]string{
					"agent.yaml": echoAgentScript,
					"gavel.yaml": "agent:\n  builtin:\n    model: script:agent.yaml\n    mcp:\n      - " + upstream + "}\n" + mcpCases,
				})
				checkMCPRun(t, dir, env)
			})
			t.Run("proxy of an http agent", func(t *testing.T) {
				listen := fmt.Sprintf("127.0.0.1:%d", mcptest.FreePort(t))
				vars["PROXY_ADDR"] = listen
				vars["AGENT_URL"] = toolAgent(t, "http://"+listen+"/mcp")
				dir := suiteDir(t, map[string]string{
					"gavel.yaml": "agent:\n  http: {url: '${AGENT_URL}'}\n  mcp_proxy:\n    - " + upstream + ", listen: '${PROXY_ADDR}'}\n" + mcpCases,
				})
				checkMCPRun(t, dir, env)
			})
			for _, got := range auth() {
				if got != "Bearer s3cret" {
					t.Errorf("the server got Authorization %q, want the header with ${EVERYTHING_TOKEN} expanded", got)
				}
			}
			if len(auth()) == 0 {
				t.Error("the server got no request")
			}
		})
	}
}

// checkMCPRun runs the suite in dir: the echo case must pass with the
// tool's answer, and the refused case's call must be recorded as failed
// and judged as one.
func checkMCPRun(t *testing.T, dir string, env spec.Env) {
	t.Helper()
	b, err := spec.Open(dir, env)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	ctx, cancel := context.WithTimeout(t.Context(), 2*time.Minute)
	defer cancel()
	run := runner.Run(ctx, b.Suite, runner.Config{Concurrency: 1, Timeout: time.Minute})
	calls := map[string]judge.ToolCall{}
	for _, cr := range run.Cases {
		tr := cr.Trials[0]
		if tr.Verdict.Status == judge.StatusError {
			t.Fatalf("case %s: ERROR: %s", cr.ID(), tr.Verdict.Reasoning)
		}
		for _, turn := range tr.Transcript.Turns {
			for _, c := range turn.ToolCalls {
				calls[cr.ID()] = c
			}
		}
		if cr.ID() == "echo" && tr.Verdict.Status != judge.StatusPass {
			t.Errorf("case echo: %s, want PASS: %s", tr.Verdict.Status, verdictText(tr.Verdict))
		}
		// A call the server refused is not a call made: expected_tools
		// fails, naming it as failed.
		if cr.ID() == "refused" && (tr.Verdict.Status != judge.StatusFail || !strings.Contains(verdictText(tr.Verdict), "failed: echo")) {
			t.Errorf("case refused: %s, want FAIL naming the failed call: %s", tr.Verdict.Status, verdictText(tr.Verdict))
		}
	}
	if c := calls["echo"]; c.IsError || !strings.Contains(c.Result, "Echo: hello gavel") {
		t.Errorf("echo's call: got %q (is error %v), want the echo, not failed", c.Result, c.IsError)
	}
	refused := calls["refused"]
	if !refused.IsError || refused.Name != "echo" {
		t.Errorf("refused's call: got %+v, want a failed call of echo (the server's isError)", refused)
	}
	// The transcript keeps it as the store and reports do.
	data, err := json.Marshal(refused)
	if err != nil || !strings.Contains(string(data), `"is_error":true`) {
		t.Errorf("the failed call as JSON: %s (%v), want is_error true", data, err)
	}
}

func verdictText(j judge.Judgment) string {
	out := j.Reasoning
	for _, sub := range j.Parts {
		out += "; " + verdictText(sub)
	}
	return out
}

// recordHeaders serves a reverse proxy to base and returns its URL and a
// function listing the Authorization headers it was sent.
func recordHeaders(t *testing.T, base string) (string, func() []string) {
	target, err := url.Parse(base)
	if err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	var seen []string
	rp := httputil.NewSingleHostReverseProxy(target)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		seen = append(seen, r.Header.Get("Authorization"))
		mu.Unlock()
		rp.ServeHTTP(w, r)
	}))
	t.Cleanup(srv.Close)
	return srv.URL, func() []string {
		mu.Lock()
		defer mu.Unlock()
		return append([]string(nil), seen...)
	}
}

// toolAgent serves an http agent that does not report its tool calls: to
// "call TOOL ARGS" it calls the tool of the MCP server at mcpURL (Gavel's
// proxy) and answers with the result.
func toolAgent(t *testing.T, mcpURL string) string {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var req struct{ Message string }
		if err := json.NewDecoder(r.Body).Decode(&req); err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		tool, args, ok := strings.Cut(strings.TrimPrefix(req.Message, "call "), " ")
		if !ok {
			http.Error(w, "want: call TOOL ARGS", http.StatusBadRequest)
			return
		}
		c, err := mcp.Connect(r.Context(), mcp.Server{URL: mcpURL, Timeout: 30 * time.Second})
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadGateway)
			return
		}
		defer c.Close()
		call, err := c.Call(r.Context(), tool, json.RawMessage(args))
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadGateway)
			return
		}
		json.NewEncoder(w).Encode(map[string]string{"reply": "The tool said: " + call.Result})
	}))
	t.Cleanup(srv.Close)
	return srv.URL
}

// An MCP server is a command or a URL: validation refuses what applies to
// the other kind, at the field's path, for the builtin agent's servers and
// the proxy's upstreams alike.
func TestMCPServerProblems(t *testing.T) {
	const cases = "models: {judge: 'fake:judge'}\ncases:\n  - {id: a, input: hi, expected_tools: [x]}\n"
	for _, tc := range []struct {
		name, server string
		want         []string // nil: valid
	}{
		{name: "a command", server: "{command: [cat], env: [A=1]}"},
		{name: "a url", server: "{url: 'http://127.0.0.1:1/mcp', headers: {Authorization: 'Bearer ${TOKEN}'}}"},
		{name: "an sse url", server: "{url: 'http://127.0.0.1:1/sse', transport: sse}"},
		{name: "a transport from the environment", server: "{url: 'http://127.0.0.1:1/sse', transport: '${MCP_TRANSPORT}'}"},
		{name: "a transport from the environment's default", server: "{url: 'http://127.0.0.1:1/sse', transport: '${NO_SUCH_TRANSPORT:-sse}'}"},
		{name: "an unknown transport from the environment", server: "{url: 'http://127.0.0.1:1/sse', transport: '${NO_SUCH_TRANSPORT:-ws}'}",
			want: []string{`gavel.yaml: %s.transport "ws": want streamable (the default) or sse`}},
		{name: "both", server: "{command: [cat], url: 'http://127.0.0.1:1/mcp'}",
			want: []string{"gavel.yaml: %s: give command (a stdio server) or url (an HTTP server), not both"}},
		{name: "neither", server: "{name: tools}",
			want: []string{"gavel.yaml: %s: give command (a stdio server, such as "}},
		{name: "unknown transport", server: "{url: 'http://127.0.0.1:1/mcp', transport: websocket}",
			want: []string{`gavel.yaml: %s.transport "websocket": want streamable (the default) or sse`}},
		{name: "transport of a command", server: "{command: [cat], transport: sse}",
			want: []string{`gavel.yaml: %s.transport "sse": a command server speaks stdio: transport is for a url server; remove it`}},
		{name: "stdio transport of a command", server: "{command: [cat], transport: stdio}",
			want: []string{`gavel.yaml: %s.transport "stdio": a command server speaks stdio`}},
		{name: "headers of a command", server: "{command: [cat], headers: {A: b}}",
			want: []string{"gavel.yaml: %s.headers: headers are sent to a url server only"}},
		{name: "env of a url", server: "{url: 'http://127.0.0.1:1/mcp', env: [A=1]}",
			want: []string{"gavel.yaml: %s.env: env is the environment of a command server"}},
		{name: "not an http url", server: "{url: '127.0.0.1:1/mcp'}",
			want: []string{"gavel.yaml: %s.url: want an http:// or https:// URL"}},
		{name: "unset variable in a header", server: "{url: 'http://127.0.0.1:1/mcp', headers: {Authorization: 'Bearer ${NO_SUCH_TOKEN}'}}",
			want: []string{"gavel.yaml: %s.headers.Authorization: the environment variable NO_SUCH_TOKEN is not set"}},
	} {
		for _, kind := range []struct{ field, agent string }{
			{"agent.builtin.mcp[0]", "agent:\n  builtin:\n    model: 'fake:agent'\n    mcp: [%s]\n"},
			{"agent.mcp_proxy[0]", "agent:\n  exec: {command: [cat]}\n  mcp_proxy: [%s]\n"},
		} {
			t.Run(tc.name+"/"+kind.field, func(t *testing.T) {
				server := tc.server
				if kind.field == "agent.mcp_proxy[0]" {
					server = strings.TrimSuffix(server, "}") + ", listen: '127.0.0.1:8788'}"
				}
				dir := suiteDir(t, map[string]string{"gavel.yaml": fmt.Sprintf(kind.agent, server) + cases})
				env := testEnv()
				env.DryRun = true
				env.Getenv = func(name string) string {
					return map[string]string{"TOKEN": "s3cret", "MCP_TRANSPORT": "sse"}[name]
				}
				b, err := spec.Open(dir, env)
				if tc.want == nil {
					if err != nil {
						t.Fatalf("want a valid suite, got:\n%v", err)
					}
					b.Close()
					return
				}
				want := make([]string, len(tc.want))
				for i, w := range tc.want {
					want[i] = fmt.Sprintf(w, kind.field)
				}
				placedProblems(t, dir, err, want...)
				if strings.Contains(err.Error(), "s3cret") {
					t.Errorf("a problem shows a header's value:\n%v", err)
				}
			})
		}
	}
}
