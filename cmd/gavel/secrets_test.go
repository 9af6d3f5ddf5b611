package main

import (
	"cmp"
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"

	mcpsdk "github.com/modelcontextprotocol/go-sdk/mcp"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"

	"github.com/gavelhq/gavel/eval"
	"github.com/gavelhq/gavel/llm"
	"github.com/gavelhq/gavel/llm/llmtest"
	"github.com/gavelhq/gavel/store/sqlite"
	"github.com/gavelhq/gavel/telemetry"
	"github.com/gavelhq/gavel/web"
)

// envSecrets are the values the suites of TestSecretsAreNeverWritten read
// from the environment that must never be written: passwords, keys and
// tokens in model references, URLs, headers and commands.
var envSecrets = []string{"judge-user", "JudgePass1", "JudgeKey1", "AgentPass2", "AgentKey2", "AgentPath2",
	"McpToken3", "HttpToken4", "HttpPath4", "ExecArg5"}

// TestSecretsAreNeverWritten runs three suites whose secrets come from
// the environment with ${VAR}, against fake servers that echo them back
// (an MCP tool, an agent's error, a command's stderr, a model's reply, a
// judge's reasoning), into a real SQLite file, and reads every output:
// the printed and written reports in every format, stderr, gavel
// validate's warnings, gavel show and report, the database file's bytes,
// the web app's pages and API answers, and the spans. No secret is in
// any of them, and the model references are still shown, without them.
func TestSecretsAreNeverWritten(t *testing.T) {
	spans := tracetest.NewInMemoryExporter()
	tp := sdktrace.NewTracerProvider(sdktrace.WithSyncer(spans))
	t.Cleanup(telemetry.Use(tp))

	models := secretModels(t)
	host := strings.TrimPrefix(strings.TrimSuffix(models.URL, "/v1"), "http://")
	t.Setenv("OPENAI_BASE_URL", models.URL)
	t.Setenv("OPENAI_API_KEY", "sk-test")
	t.Setenv("SECRET_JUDGE_MODEL", "openai:gpt-5@http://judge-user:JudgePass1@"+host+"/v1?key=JudgeKey1")
	t.Setenv("AGENT_PASS", "AgentPass2")
	t.Setenv("AGENT_KEY", "AgentKey2")
	t.Setenv("AGENT_PATH", "AgentPath2")
	t.Setenv("MCP_TOKEN", "McpToken3")
	t.Setenv("HTTP_TOKEN", "HttpToken4")
	t.Setenv("HTTP_PATH", "HttpPath4")
	t.Setenv("EXEC_ARG", "ExecArg5")

	dir := t.TempDir()
	db := filepath.Join(dir, "runs.db")
	suites := map[string]string{
		"builtin": `name: builtin
models: {judge: '${SECRET_JUDGE_MODEL}'}
max_followups: -1
agent:
  builtin:
    model: 'openai:gpt-5-mini@http://u:${AGENT_PASS}@` + host + `/${AGENT_PATH}/v1?key=${AGENT_KEY}'
    system_prompt: Be brief.
    mcp:
      - {name: tools, url: '` + secretMCP(t, "McpToken3") + `?token=${MCP_TOKEN}', headers: {Authorization: 'Bearer ${MCP_TOKEN}'}}
cases:
  - {id: whoami, input: tell me who I am, judge_prompt: The reply says who the user is.}
`,
		"http": `name: http
models: {judge: '${SECRET_JUDGE_MODEL}'}
max_followups: -1
agent:
  http: {url: '` + echoingAgent(t) + `/${HTTP_PATH}/chat', headers: {Authorization: 'Bearer ${HTTP_TOKEN}'}}
cases:
  - {id: hello, input: hello, rules: [{contains: hello}]}
`,
		"exec": `name: exec
agent:
  exec: {command: [sh, -c, 'echo "started with $0" >&2; exit 3', '${EXEC_ARG}']}
cases:
  - {id: hello, input: hello, rules: [{contains: hello}]}
`,
	}
	outputs := map[string]string{}
	ids := map[string]string{} // suite → its run
	for name, text := range suites {
		suiteDir := filepath.Join(dir, name)
		os.MkdirAll(suiteDir, 0o755)
		os.WriteFile(filepath.Join(suiteDir, "gavel.yaml"), []byte(text), 0o644)
		_, out, errs := gavelCmd(t, "validate", suiteDir)
		outputs[name+": validate"] = out + errs
		args := []string{"run", "--no-cache", "--db", db}
		for _, ext := range []string{"json", "xml", "md", "html", "txt"} {
			args = append(args, "--out", filepath.Join(dir, name+"."+ext))
		}
		_, out, errs = gavelCmd(t, append(args, suiteDir)...)
		outputs[name+": run"], outputs[name+": run stderr"] = out, errs
		m := runID.FindStringSubmatch(errs)
		if m == nil {
			t.Fatalf("suite %s: no run saved:\n%s%s", name, out, errs)
		}
		for _, ext := range []string{"json", "xml", "md", "html", "txt"} {
			data, _ := os.ReadFile(filepath.Join(dir, name+"."+ext))
			outputs[name+"."+ext] = string(data)
		}
		for _, cmd := range [][]string{{"show", m[1]}, {"show", m[1], "whoami"}, {"show", m[1], "hello"}, {"report", "--verbose", "--format", "json", m[1]}} {
			_, out, errs := gavelCmd(t, append([]string{cmd[0], "--db", db}, cmd[1:]...)...)
			outputs[name+": "+strings.Join(cmd, " ")] = out + errs
		}
		ids[name] = m[1]
	}
	// Judged again, with a pairwise judge against itself: the judge
	// model is opened again from the suite, secrets and all.
	code, out, errs := gavelCmd(t, "rejudge", "--db", db, "--baseline", ids["builtin"], "--pairwise", "Which reply helps more?", ids["builtin"])
	outputs["rejudge"] = out + errs
	m := runID.FindStringSubmatch(errs)
	if m == nil {
		t.Fatalf("rejudge: exit %d, no run saved:\n%s%s", code, out, errs)
	}
	ids["rejudged"] = m[1]
	// A stored judge model whose secrets were hidden cannot be opened
	// again: compare says to name one.
	code, out, errs = gavelCmd(t, "compare", "--db", db, "--pairwise", "Which reply helps more?", ids["builtin"], ids["rejudged"])
	outputs["compare"] = out + errs
	if code != eval.ExitUsage || !strings.Contains(errs, "name the model with --model") {
		t.Errorf("compare --pairwise: exit %d, want 2 saying to give --model:\n%s%s", code, out, errs)
	}
	for suite, id := range ids {
		for path, body := range webPages(t, db, id, cmp.Or(strings.TrimSuffix(suite, "rejudged"), "builtin")) {
			outputs[suite+": web "+path] = body
		}
	}
	_, out, errs = gavelCmd(t, "runs", "--db", db)
	outputs["runs"] = out + errs
	for _, f := range []string{"runs.db", "runs.db-wal", "runs.db-shm"} {
		data, _ := os.ReadFile(filepath.Join(dir, f))
		outputs[f] = string(data)
	}
	outputs["spans"] = fmt.Sprintf("%+v", spans.GetSpans())

	for where, text := range outputs {
		for _, s := range envSecrets {
			if n := strings.Count(text, s); n > 0 {
				t.Errorf("%s: holds %s %d times", where, s, n)
			}
		}
	}
	// What is not secret is still shown: the models, the server, the
	// variables that were hidden, and the verdict the secrets did not change.
	for _, want := range []string{"openai:gpt-5@http://" + host + "/v1?key=***", "${AGENT_PATH}", "gpt-5-mini"} {
		if !strings.Contains(outputs["builtin.json"], want) {
			t.Errorf("the builtin suite's JSON report lacks %q:\n%s", want, outputs["builtin.json"])
		}
	}
	if !strings.Contains(outputs["builtin: run"], "Pass rate: 100%") {
		t.Errorf("the builtin suite did not pass:\n%s", outputs["builtin: run"])
	}
}

// secretModels is a fake OpenAI server for gpt-5-mini, an agent that
// calls the whoami tool and repeats what it said, and gpt-5, a judge that
// quotes the reply in its reasoning.
func secretModels(t *testing.T) *llmtest.OpenAIServer {
	t.Helper()
	srv := llmtest.NewOpenAIServer(llm.Func(func(_ context.Context, req *llm.Request) (*llm.Response, error) {
		last := req.Messages[len(req.Messages)-1]
		resp := &llm.Response{FinishReason: llm.FinishStop, Usage: llm.Usage{InputTokens: 10, OutputTokens: 5}}
		switch {
		case req.Model == "gpt-5":
			resp.Text = fmt.Sprintf(`{"reasoning": %q, "score": 1}`, "It says: "+lastLine(last.Content))
		case last.Role == llm.RoleTool:
			resp.Text = "The tool says " + last.Content
		default:
			resp.ToolCalls = []llm.ToolCall{{ID: "call_1", Name: "whoami", Arguments: []byte(`{}`)}}
			resp.FinishReason = llm.FinishToolCalls
		}
		return resp, nil
	}))
	srv.Gateway = "/AgentPath2/v1" // the agent's model is reached through a path with a secret in it
	t.Cleanup(srv.Close)
	return srv
}

// lastLine is the last line of s that says something.
func lastLine(s string) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	return lines[len(lines)-1]
}

// secretMCP serves an MCP server whose one tool, whoami, answers with the
// bearer token it was called with, and which refuses a request without
// it; it returns the server's URL.
func secretMCP(t *testing.T, token string) string {
	t.Helper()
	server := mcpsdk.NewServer(&mcpsdk.Implementation{Name: "tools", Version: "1"}, nil)
	mcpsdk.AddTool(server, &mcpsdk.Tool{Name: "whoami", Description: "Says who you are."},
		func(context.Context, *mcpsdk.CallToolRequest, struct{}) (*mcpsdk.CallToolResult, any, error) {
			return &mcpsdk.CallToolResult{Content: []mcpsdk.Content{&mcpsdk.TextContent{Text: "you hold the token " + token}}}, nil, nil
		})
	handler := mcpsdk.NewStreamableHTTPHandler(func(*http.Request) *mcpsdk.Server { return server }, nil)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Authorization") != "Bearer "+token || r.URL.Query().Get("token") != token {
			http.Error(w, "unauthorized", http.StatusUnauthorized)
			return
		}
		handler.ServeHTTP(w, r)
	}))
	t.Cleanup(srv.Close)
	return srv.URL + "/mcp"
}

// echoingAgent serves an HTTP agent that fails every request with an
// error that repeats the request's path and Authorization header, as
// careless servers do; it returns its base URL.
func echoingAgent(t *testing.T) string {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.Copy(io.Discard, r.Body)
		http.Error(w, fmt.Sprintf("no agent at %s for %s", r.URL.Path, r.Header.Get("Authorization")), http.StatusBadRequest)
	}))
	t.Cleanup(srv.Close)
	return srv.URL
}

// webPages are the web app's pages and API answers about run id of
// suite, over the database file db, by path.
func webPages(t *testing.T, db, id, suite string) map[string]string {
	t.Helper()
	st, err := sqlite.Open(db)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	srv := httptest.NewServer(web.New(st, web.Config{}))
	defer srv.Close()
	out := map[string]string{}
	q := url.QueryEscape(suite)
	for _, path := range []string{"/runs", "/runs/" + id, "/runs/" + id + "/cases/whoami", "/runs/" + id + "/cases/hello",
		"/cases", "/trends?suite=" + q, "/api/runs", "/api/runs/" + id, "/api/runs/" + id + "/info",
		"/api/runs/" + id + "/cases/whoami", "/api/runs/" + id + "/cases/hello", "/api/cases", "/api/trends?suite=" + q} {
		resp, err := http.Get(srv.URL + path)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		out[path] = string(body)
	}
	return out
}
