package main

import (
	"context"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/gavelhq/gavel/eval"
)

// jaegerBinary finds the Jaeger program (.ci/run builds it from
// internal/tools/jaeger): $GAVEL_JAEGER, else jaeger on PATH. Without one
// the test is skipped, or fails under GAVEL_REQUIRE_INTEGRATION=1.
func jaegerBinary(t *testing.T) string {
	t.Helper()
	if bin := os.Getenv("GAVEL_JAEGER"); bin != "" {
		return bin
	}
	if bin, err := exec.LookPath("jaeger"); err == nil {
		return bin
	}
	const how = "build it with: cd internal/tools/jaeger && go build -o /usr/local/bin/jaeger github.com/jaegertracing/jaeger/cmd/jaeger (or set GAVEL_JAEGER)"
	if os.Getenv("GAVEL_REQUIRE_INTEGRATION") == "1" {
		t.Fatal("no Jaeger, and GAVEL_REQUIRE_INTEGRATION=1 requires the tracing test: " + how)
	}
	t.Skip("no Jaeger: " + how)
	return ""
}

// A jaeger is a Jaeger v2 process on loopback, keeping traces in memory.
type jaeger struct {
	otlp  string // the OTLP/HTTP receiver: OTEL_EXPORTER_OTLP_ENDPOINT
	query string // the query API's base URL
}

// freePort returns a loopback port no one listens on now.
func freePort(t *testing.T) int {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port
}

// startJaeger starts Jaeger on free loopback ports, with in-memory
// storage, and waits until its query API answers; the test stops it.
func startJaeger(t *testing.T) jaeger {
	t.Helper()
	bin := jaegerBinary(t)
	otlp, queryHTTP, queryGRPC := freePort(t), freePort(t), freePort(t)
	config := fmt.Sprintf(`service:
  extensions: [jaeger_storage, jaeger_query]
  pipelines:
    traces:
      receivers: [otlp]
      processors: [batch]
      exporters: [jaeger_storage_exporter]
  telemetry:
    metrics:
      level: none
    logs:
      level: warn
extensions:
  jaeger_query:
    storage:
      traces: memstore
    http:
      endpoint: 127.0.0.1:%d
    grpc:
      endpoint: 127.0.0.1:%d
  jaeger_storage:
    backends:
      memstore:
        memory:
          max_traces: 10000
receivers:
  otlp:
    protocols:
      http:
        endpoint: 127.0.0.1:%d
processors:
  batch:
    timeout: 100ms
exporters:
  jaeger_storage_exporter:
    trace_storage: memstore
`, queryHTTP, queryGRPC, otlp)
	dir := t.TempDir()
	path := filepath.Join(dir, "jaeger.yaml")
	if err := os.WriteFile(path, []byte(config), 0o644); err != nil {
		t.Fatal(err)
	}
	p := &process{cmd: exec.Command(bin, "--config", path), done: make(chan struct{})}
	p.cmd.Dir, p.cmd.Stdout, p.cmd.Stderr = dir, p, p
	if err := p.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() { p.cmd.Wait(); close(p.done) }()
	t.Cleanup(func() { p.cmd.Process.Kill(); <-p.done })
	j := jaeger{otlp: fmt.Sprintf("http://127.0.0.1:%d", otlp), query: fmt.Sprintf("http://127.0.0.1:%d", queryHTTP)}
	deadline := time.Now().Add(time.Minute)
	for {
		resp, err := http.Get(j.query + "/api/services")
		if err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				if c, err := net.Dial("tcp", fmt.Sprintf("127.0.0.1:%d", otlp)); err == nil {
					c.Close()
					return j
				}
			}
		}
		select {
		case <-p.done:
			t.Fatalf("jaeger exited: %s", p.errors())
		case <-time.After(50 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			t.Fatalf("jaeger did not answer within a minute:\n%s", p.errors())
		}
	}
}

// A jaegerSpan is a span as Jaeger's query API (/api/traces/ID) gives it.
type jaegerSpan struct {
	TraceID       string `json:"traceID"`
	SpanID        string `json:"spanID"`
	OperationName string `json:"operationName"`
	References    []struct {
		RefType string `json:"refType"`
		SpanID  string `json:"spanID"`
	} `json:"references"`
	Tags []struct {
		Key   string `json:"key"`
		Value any    `json:"value"`
	} `json:"tags"`
	Logs []struct {
		Fields []struct {
			Key   string `json:"key"`
			Value any    `json:"value"`
		} `json:"fields"`
	} `json:"logs"`
	ProcessID string `json:"processID"`
}

func (s jaegerSpan) parent() string {
	for _, r := range s.References {
		if r.RefType == "CHILD_OF" {
			return r.SpanID
		}
	}
	return ""
}

// tag returns a tag's value as text, "" when the span has none.
func (s jaegerSpan) tag(key string) string {
	for _, t := range s.Tags {
		if t.Key == key {
			return fmt.Sprint(t.Value)
		}
	}
	return ""
}

type jaegerTrace struct {
	Spans     []jaegerSpan `json:"spans"`
	Processes map[string]struct {
		ServiceName string `json:"serviceName"`
	} `json:"processes"`
}

// trace asks Jaeger for a trace until it holds a span named root (the
// last span a run ends), for a minute at most.
func (j jaeger) trace(t *testing.T, id, root string) jaegerTrace {
	t.Helper()
	deadline := time.Now().Add(time.Minute)
	var last string
	for time.Now().Before(deadline) {
		resp, err := http.Get(j.query + "/api/traces/" + id)
		if err == nil {
			var body struct {
				Data []jaegerTrace `json:"data"`
			}
			err = json.NewDecoder(resp.Body).Decode(&body)
			resp.Body.Close()
			if err == nil && len(body.Data) == 1 && slices.ContainsFunc(body.Data[0].Spans, func(s jaegerSpan) bool { return s.OperationName == root }) {
				return body.Data[0]
			}
			last = fmt.Sprintf("status %d, %v", resp.StatusCode, err)
		} else {
			last = err.Error()
		}
		time.Sleep(100 * time.Millisecond)
	}
	t.Fatalf("jaeger has no trace %s with a span %q after a minute (last answer: %s)", id, root, last)
	return jaegerTrace{}
}

// drawTree draws a trace's spans as an indented tree of names, children
// sorted by name, for failure messages and comparisons.
func drawTree(spans []jaegerSpan) string {
	kids := map[string][]jaegerSpan{}
	for _, s := range spans {
		kids[s.parent()] = append(kids[s.parent()], s)
	}
	var b strings.Builder
	var draw func(parent string, depth int)
	draw = func(parent string, depth int) {
		list := kids[parent]
		slices.SortStableFunc(list, func(a, b jaegerSpan) int { return strings.Compare(a.OperationName, b.OperationName) })
		for _, s := range list {
			fmt.Fprintf(&b, "%s%s\n", strings.Repeat("  ", depth), s.OperationName)
			draw(s.SpanID, depth+1)
		}
	}
	draw("", 0)
	return b.String()
}

// storedTraceIDs returns the trace ids the store keeps with a run's
// trials, by "case#n".
func storedTraceIDs(t *testing.T, db, runID string) map[string]string {
	t.Helper()
	st, err := eval.OpenStore(context.Background(), db)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	stored, err := st.Run(context.Background(), runID)
	if err != nil {
		t.Fatal(err)
	}
	ids := map[string]string{}
	for _, c := range stored.Run.Cases {
		for _, tr := range c.Trials {
			ids[fmt.Sprintf("%s#%d", tr.CaseID, tr.N)] = tr.TraceID
		}
	}
	return ids
}

// TestTracesInJaeger runs the support-desk suite's happy-path lookup (the
// builtin agent calls get_order_status on the orders MCP server, and a
// traits judge asks the judge model) with the built gavel, exporting to a
// real Jaeger, then asks Jaeger's query API for the trace whose id the
// store kept with the trial, and checks its span tree and attributes.
func TestTracesInJaeger(t *testing.T) {
	bin := gavelBinary(t)
	j := startJaeger(t)
	suite, err := filepath.Abs(filepath.Join("..", "..", "examples", "support-desk"))
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	db, out := filepath.Join(dir, "gavel.db"), filepath.Join(dir, "report.json")
	p := startGavel(t, bin, dir, []string{"OTEL_EXPORTER_OTLP_ENDPOINT=" + j.otlp, "OTEL_SERVICE_NAME=gavel-test"},
		"run", "--quiet", "--no-cache", "--db", db, "--id", "case_001", "--out", out, suite)
	if code := p.exit(t); code != eval.ExitPassed {
		t.Fatalf("gavel run: exit %d, want %d\n%s", code, eval.ExitPassed, p.errors())
	}
	m := runID.FindStringSubmatch(p.errors())
	if m == nil {
		t.Fatalf("gavel run saved no run:\n%s", p.errors())
	}
	ids := storedTraceIDs(t, db, m[1])
	traceID := ids["case_001#1"]
	if len(traceID) != 32 {
		t.Fatalf("the store keeps trace id %q with case_001#1, want 32 hexadecimal digits", traceID)
	}
	if r := readReport(t, out); r.Cases[0].Trials[0].TraceID != traceID {
		t.Errorf("the JSON report's trace_id %q, want the stored %q", r.Cases[0].Trials[0].TraceID, traceID)
	}

	tr := j.trace(t, traceID, "gavel run")
	tree := drawTree(tr.Spans)
	for _, p := range tr.Processes {
		if p.ServiceName != "gavel-test" {
			t.Errorf("service %q, want OTEL_SERVICE_NAME's gavel-test", p.ServiceName)
		}
	}
	byName := map[string][]jaegerSpan{}
	byID := map[string]jaegerSpan{}
	for _, s := range tr.Spans {
		byName[s.OperationName] = append(byName[s.OperationName], s)
		byID[s.SpanID] = s
	}
	one := func(name string) jaegerSpan {
		t.Helper()
		if len(byName[name]) != 1 {
			t.Fatalf("%d spans %q, want 1, in:\n%s", len(byName[name]), name, tree)
		}
		return byName[name][0]
	}
	// The tree: run → trial → turn → the agent's model calls and its tool
	// call; trial → judges → the judge's model call.
	run, trial, turn, tool := one("gavel run"), one("gavel trial"), one("invoke_agent"), one("execute_tool get_order_status")
	for _, edge := range []struct{ child, parent jaegerSpan }{{trial, run}, {turn, trial}, {tool, turn}} {
		if edge.child.parent() != edge.parent.SpanID {
			t.Errorf("%s is not a child of %s:\n%s", edge.child.OperationName, edge.parent.OperationName, tree)
		}
	}
	if run.parent() != "" {
		t.Errorf("the run span has a parent:\n%s", tree)
	}
	var agentCalls, judgeCalls []jaegerSpan
	for _, s := range tr.Spans {
		if !strings.HasPrefix(s.OperationName, "chat ") {
			continue
		}
		switch parent := byID[s.parent()]; {
		case parent.SpanID == turn.SpanID:
			agentCalls = append(agentCalls, s)
		case strings.HasPrefix(parent.OperationName, "judge "):
			judgeCalls = append(judgeCalls, s)
		default:
			t.Errorf("model call %s under %q:\n%s", s.OperationName, parent.OperationName, tree)
		}
	}
	if len(agentCalls) < 2 || len(judgeCalls) < 1 {
		t.Fatalf("%d model calls under the turn (want the call that asks for the tool and the one after), %d under a judge (want 1 or more):\n%s",
			len(agentCalls), len(judgeCalls), tree)
	}

	want := []struct {
		span  jaegerSpan
		attrs map[string]string
	}{
		{run, map[string]string{"gavel.suite": "support-desk", "gavel.run.id": m[1], "gavel.run.complete": "true", "gavel.run.passed": "true"}},
		{trial, map[string]string{"gavel.case.id": "case_001", "gavel.trial": "1", "gavel.verdict": "PASS", "gavel.exec_status": "SUCCESS"}},
		{turn, map[string]string{"gen_ai.operation.name": "invoke_agent", "gavel.round": "1"}},
		{tool, map[string]string{"gen_ai.operation.name": "execute_tool", "gen_ai.tool.name": "get_order_status"}},
		{agentCalls[0], map[string]string{"gen_ai.operation.name": "chat", "gen_ai.provider.name": "script"}},
		{judgeCalls[0], map[string]string{"gen_ai.operation.name": "chat", "gen_ai.provider.name": "script"}},
		{byID[judgeCalls[0].parent()], map[string]string{"gavel.verdict": "PASS"}},
	}
	for _, w := range want {
		for k, v := range w.attrs {
			if got := w.span.tag(k); got != v {
				t.Errorf("span %s: %s = %q, want %q", w.span.OperationName, k, got, v)
			}
		}
	}
	if tool.tag("gen_ai.tool.call.id") == "" {
		t.Errorf("span %s has no gen_ai.tool.call.id", tool.OperationName)
	}
	// A script model's name is its file's path.
	for _, c := range []struct {
		span  jaegerSpan
		model string
	}{{agentCalls[0], "models/agent.yaml"}, {judgeCalls[0], "models/judge.yaml"}} {
		if got := c.span.tag("gen_ai.request.model"); !strings.HasSuffix(got, c.model) {
			t.Errorf("span %s: gen_ai.request.model = %q, want the path of %s", c.span.OperationName, got, c.model)
		}
	}
	for _, s := range append(agentCalls, judgeCalls...) {
		for _, k := range []string{"gen_ai.usage.input_tokens", "gen_ai.usage.output_tokens"} {
			if s.tag(k) == "" {
				t.Errorf("span %s has no %s", s.OperationName, k)
			}
		}
	}
	judgeSpan := byID[judgeCalls[0].parent()]
	if judgeSpan.tag("gavel.score") == "" || len(judgeSpan.Logs) == 0 {
		t.Errorf("the judge span %s has no score (%q) or no gen_ai.evaluation.result event (%d logs)", judgeSpan.OperationName, judgeSpan.tag("gavel.score"), len(judgeSpan.Logs))
	}
	if t.Failed() {
		t.Logf("the trace:\n%s", tree)
	}
}

// SIGTERM stops a traced run gracefully, and the spans of what finished,
// the run's own included, reach the collector before gavel exits.
func TestTracesFlushedOnSIGTERM(t *testing.T) {
	bin := gavelBinary(t)
	j := startJaeger(t)
	dir, db := starterSuite(t)
	srv, agent := slowAgent(t, 200*time.Millisecond)
	p := startGavel(t, bin, dir, append(agent, "OTEL_EXPORTER_OTLP_ENDPOINT="+j.otlp), "run", "--quiet", "--no-cache", "--db", db,
		"--trials", "20", "--concurrency", "2", dir)
	p.waitFor(t, "request to the agent's model", func() bool { return srv.Requests() >= 1 })
	if err := p.cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	if code := p.exit(t); code != eval.ExitIncomplete {
		t.Fatalf("exit %d, want %d:\n%s", code, eval.ExitIncomplete, p.errors())
	}
	m := runID.FindStringSubmatch(p.errors())
	if m == nil {
		t.Fatalf("gavel run saved no run:\n%s", p.errors())
	}
	ids := storedTraceIDs(t, db, m[1])
	if len(ids) == 0 {
		t.Fatal("no trial was stored")
	}
	var traceID string
	for _, id := range ids {
		if traceID == "" {
			traceID = id
		} else if id != traceID {
			t.Errorf("the run's trials are in traces %s and %s, want one", traceID, id)
		}
	}
	tr := j.trace(t, traceID, "gavel run")
	trials := 0
	for _, s := range tr.Spans {
		if s.OperationName == "gavel trial" {
			trials++
		}
		if s.OperationName == "gavel run" && s.tag("gavel.run.complete") != "false" {
			t.Errorf("the run span says complete = %q, want false", s.tag("gavel.run.complete"))
		}
	}
	if trials != len(ids) {
		t.Errorf("%d trial spans in the trace, want the %d trials stored:\n%s", trials, len(ids), drawTree(tr.Spans))
	}
}
