package mcp

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/gavelhq/gavel/judge"
	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	mcpsdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// newTestProxy starts a proxy in front of upstream and closes it when t
// ends.
func newTestProxy(t testing.TB, upstream Server, rec Recorder) *Proxy {
	t.Helper()
	p, err := NewProxy(upstream, rec)
	if err != nil {
		t.Fatalf("NewProxy: %v", err)
	}
	t.Cleanup(func() { p.Close() })
	return p
}

// connectHTTP connects an agent to the proxy over streamable HTTP.
func connectHTTP(t testing.TB, p *Proxy) *Client {
	t.Helper()
	srv := httptest.NewServer(p.Handler())
	t.Cleanup(srv.Close)
	return connect(t, Server{Name: "proxy", URL: srv.URL})
}

// connectStdio connects an agent to the proxy over in-memory pipes, as if
// the proxy were the agent's stdio server. It checks, when t ends, that
// ServeStdio returned nil once the agent hung up.
func connectStdio(t testing.TB, p *Proxy) *Client {
	t.Helper()
	agentIn, proxyOut := io.Pipe()
	proxyIn, agentOut := io.Pipe()
	served := make(chan error, 1)
	go func() { served <- p.ServeStdio(context.Background(), proxyIn, proxyOut) }()

	c := &Client{label: `"proxy"`, timeout: 30 * time.Second}
	if err := c.connect(context.Background(), &mcpsdk.IOTransport{Reader: agentIn, Writer: agentOut}); err != nil {
		t.Fatalf("connect over stdio: %v", err)
	}
	t.Cleanup(func() {
		c.Close() // closes agentIn and agentOut: the proxy reads EOF
		select {
		case err := <-served:
			if err != nil {
				t.Errorf("ServeStdio: %v", err)
			}
		case <-time.After(10 * time.Second):
			t.Error("ServeStdio still serving 10s after the agent hung up")
		}
	})
	return c
}

// checkPassThrough checks that agent, connected through a proxy that
// records in log, sees what direct sees of the same upstream: the same
// tools, and the same result of each call; and that log got every call.
func checkPassThrough(t *testing.T, direct, agent *Client, log *Log, calls [][2]string) {
	t.Helper()
	ctx := context.Background()

	want, err := direct.listTools(ctx)
	if err != nil {
		t.Fatal(err)
	}
	got, err := agent.listTools(ctx)
	if err != nil {
		t.Fatal(err)
	}
	// The SDK's server lists tools sorted by name; the order means nothing.
	byName := cmpopts.SortSlices(func(a, b *mcpsdk.Tool) bool { return a.Name < b.Name })
	if diff := cmp.Diff(want, got, byName); diff != "" {
		t.Errorf("tools through the proxy (-direct +proxy):\n%s", diff)
	}

	var wantCalls []judge.ToolCall
	for _, c := range calls {
		name, args := c[0], json.RawMessage(c[1])
		wantRes, wantCall, err := direct.call(ctx, name, args)
		if err != nil {
			t.Fatalf("direct %s: %v", name, err)
		}
		gotRes, gotCall, err := agent.call(ctx, name, args)
		if err != nil {
			t.Fatalf("through the proxy %s: %v", name, err)
		}
		if diff := cmp.Diff(wantRes, gotRes, sameResult); diff != "" {
			t.Errorf("%s %s: result through the proxy (-direct +proxy):\n%s", name, args, diff)
		}
		if diff := cmp.Diff(wantCall, gotCall, cmpopts.IgnoreFields(judge.ToolCall{}, "Duration")); diff != "" {
			t.Errorf("%s %s: record through the proxy (-direct +proxy):\n%s", name, args, diff)
		}
		wantCalls = append(wantCalls, wantCall)
	}

	if !slices.ContainsFunc(wantCalls, func(c judge.ToolCall) bool { return c.IsError }) {
		t.Error("no call failed: isError's passing through is untested")
	}

	recorded := log.Take()
	if diff := cmp.Diff(wantCalls, recorded, cmpopts.IgnoreFields(judge.ToolCall{}, "Duration")); diff != "" {
		t.Errorf("recorded calls (-want +got):\n%s", diff)
	}
	for _, c := range recorded {
		if c.Duration <= 0 {
			t.Errorf("recorded %s with duration %v, want > 0", c.Name, c.Duration)
		}
	}
	if more := log.Take(); more != nil {
		t.Errorf("second Take: got %v, want nil", more)
	}
}

// sameResult compares tool results as the agent sees them. The SDK
// server adds its identity to the _meta of each result when the agent
// speaks protocol 2026-07-28 or later (SEP-2575): that is framing, not
// the upstream's result, and it is left out.
var sameResult = cmp.Options{
	cmpopts.IgnoreUnexported(mcpsdk.CallToolResult{}),
	cmp.Transformer("withoutServerInfo", func(m mcpsdk.Meta) mcpsdk.Meta {
		out := mcpsdk.Meta{}
		for k, v := range m {
			if k != mcpsdk.MetaKeyServerInfo {
				out[k] = v
			}
		}
		return out
	}),
}

// everythingCalls are calls of the everything server's tools: answers, a
// refusal (isError), an image and structured content.
var everythingCalls = [][2]string{
	{"echo", `{"message":"hello through the proxy"}`},
	{"get-sum", `{"a":40,"b":2}`},
	{"echo", `{"message":5}`},
	{"get-tiny-image", `{}`},
	{"get-structured-content", `{"location":"New York"}`},
}

// TestProxyEverything puts the proxy in front of the everything reference
// server and talks to it over streamable HTTP and over stdio.
func TestProxyEverything(t *testing.T) {
	direct := connect(t, everythingStdio(t))
	log := &Log{}
	p := newTestProxy(t, everythingStdio(t), log)

	t.Run("streamable", func(t *testing.T) {
		checkPassThrough(t, direct, connectHTTP(t, p), log, everythingCalls)
	})
	t.Run("stdio", func(t *testing.T) {
		checkPassThrough(t, direct, connectStdio(t, p), log, everythingCalls)
	})
	if calls := log.Take(); calls != nil {
		t.Errorf("left in the log: %v", calls)
	}
}

// TestProxyInProcess puts the proxy in front of an SDK server, so the
// proxy's own behaviour is tested without node: isError results,
// protocol errors passed on as they came, the upstream's identity.
func TestProxyInProcess(t *testing.T) {
	upstream := Server{Name: "orders", URL: serveOrders(t, TransportStreamable, "tok"), Headers: map[string]string{"Authorization": "Bearer tok"}}
	direct := connect(t, upstream)
	var log Log
	p := newTestProxy(t, upstream, &log)

	for _, tc := range []struct {
		name    string
		connect func(testing.TB, *Proxy) *Client
	}{{"streamable", connectHTTP}, {"stdio", connectStdio}} {
		t.Run(tc.name, func(t *testing.T) {
			agent := tc.connect(t, p)
			checkPassThrough(t, direct, agent, &log, [][2]string{
				{"get_order_status", `{"order_id":"A-1001"}`},
				{"get_order_status", `{"order_id":"nope"}`},
				{"cancel_order", `{"order_id":"A-1001"}`},
			})

			init := agent.session.InitializeResult()
			if init.ServerInfo.Name != "orders" || init.ServerInfo.Version != "1.0.0" || init.Instructions != "Look orders up before changing them." {
				t.Errorf("proxy introduces itself as %+v with instructions %q, want the upstream's", init.ServerInfo, init.Instructions)
			}

			// A JSON-RPC error upstream reaches the agent as it came, and
			// is recorded as a failed call.
			_, err := agent.Call(context.Background(), "crash", json.RawMessage(`{"why":"test"}`))
			var wire *jsonrpc.Error
			if !errors.As(err, &wire) || wire.Code != 4711 || wire.Message != "the order database is down" {
				t.Errorf("crash through the proxy: got %v, want the upstream's JSON-RPC error 4711", err)
			}
			recorded := log.Take()
			if len(recorded) != 1 || recorded[0].Name != "crash" || string(recorded[0].Arguments) != `{"why":"test"}` ||
				!recorded[0].IsError || !strings.Contains(recorded[0].Result, "the order database is down") {
				t.Errorf("crash recorded as %+v", recorded)
			}

			// A tool the server does not list, as an agent may make one
			// up, is refused as the server would refuse it, and recorded as
			// a failed call for the judges to see.
			_, err = agent.Call(context.Background(), "refund_everything", json.RawMessage(`{"order_id":"A-1001"}`))
			if !errors.As(err, &wire) {
				t.Errorf("an unknown tool through the proxy: got %v, want a JSON-RPC error", err)
			}
			recorded = log.Take()
			if len(recorded) != 1 || recorded[0].Name != "refund_everything" || string(recorded[0].Arguments) != `{"order_id":"A-1001"}` ||
				!recorded[0].IsError || !strings.Contains(recorded[0].Result, `unknown tool "refund_everything"`) {
				t.Errorf("the unknown tool recorded as %+v", recorded)
			}
		})
	}
}

// TestProxyServeStdioCancel checks that ServeStdio returns when its
// context ends, even while no input comes.
func TestProxyServeStdioCancel(t *testing.T) {
	upstream := Server{URL: serveOrders(t, TransportStreamable, "tok"), Headers: map[string]string{"Authorization": "Bearer tok"}}
	p := newTestProxy(t, upstream, nil)
	in, w := io.Pipe()
	defer w.Close()
	ctx, cancel := context.WithCancel(context.Background())
	served := make(chan error, 1)
	go func() { served <- p.ServeStdio(ctx, in, io.Discard) }()
	time.Sleep(50 * time.Millisecond)
	cancel()
	select {
	case err := <-served:
		if !errors.Is(err, context.Canceled) {
			t.Errorf("ServeStdio: got %v, want context.Canceled", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("ServeStdio still serving 10s after its context ended")
	}
}

// TestNewProxyError checks that a proxy whose upstream cannot be reached
// is an error naming it.
func TestNewProxyError(t *testing.T) {
	_, err := NewProxy(Server{Name: "gone", Command: []string{"gavel-no-such-mcp-server"}}, &Log{})
	if err == nil || !strings.Contains(err.Error(), `mcp server "gone"`) {
		t.Errorf("NewProxy: got %v, want an error naming the server", err)
	}
}

// The proxy passes on the fields of the upstream's tools that the MCP
// SDK does not know, as the upstream sent them: the everything server
// says of each tool whether it runs as a task (execution.taskSupport),
// which the proxy dropped.
func TestProxyKeepsToolFieldsItDoesNotKnow(t *testing.T) {
	direct := connect(t, everythingStdio(t))
	p := newTestProxy(t, everythingStdio(t), &Log{})
	ctx := context.Background()
	want, err := direct.Tools(ctx)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name    string
		connect func(testing.TB, *Proxy) *Client
	}{{"stdio", connectStdio}, {"streamable", connectHTTP}} {
		agent := tc.connect(t, p)
		if _, err := agent.Tools(ctx); err != nil {
			t.Fatal(err)
		}
		tasks := 0
		for _, tool := range want {
			d, a := direct.taps.extras(tool.Name), agent.taps.extras(tool.Name)
			if string(d["execution"]) != string(a["execution"]) {
				t.Errorf("%s: %s: execution %s through the proxy, %s from the server", tc.name, tool.Name, a["execution"], d["execution"])
			}
			if strings.Contains(string(d["execution"]), `"required"`) {
				tasks++
			}
		}
		if tasks == 0 {
			t.Error("the everything server said of no tool that it runs as a task: the test tests nothing")
		}
	}
}
