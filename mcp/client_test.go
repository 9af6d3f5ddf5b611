package mcp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/gavelhq/gavel/judge"
	"github.com/gavelhq/gavel/llm"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	mcpsdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// connect connects to s and closes the client when t ends.
func connect(t testing.TB, s Server) *Client {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	c, err := Connect(ctx, s)
	if err != nil {
		t.Fatalf("Connect: %v", err)
	}
	t.Cleanup(func() {
		if err := c.Close(); err != nil {
			t.Errorf("Close: %v", err)
		}
	})
	return c
}

// mustCall calls a tool and fails t on a Go error.
func mustCall(t testing.TB, c *Client, name, args string) judge.ToolCall {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	call, err := c.Call(ctx, name, json.RawMessage(args))
	if err != nil {
		t.Fatalf("Call(%s, %s): %v", name, args, err)
	}
	if call.Name != name || string(call.Arguments) != args {
		t.Errorf("Call(%s, %s) recorded name %q, arguments %s", name, args, call.Name, call.Arguments)
	}
	if call.Duration <= 0 {
		t.Errorf("Call(%s, %s): duration %v, want > 0", name, args, call.Duration)
	}
	return call
}

func findTool(t testing.TB, tools []llm.Tool, name string) llm.Tool {
	t.Helper()
	for _, tool := range tools {
		if tool.Name == name {
			return tool
		}
	}
	t.Fatalf("no tool %q among %d tools", name, len(tools))
	return llm.Tool{}
}

// schemaProperties returns the property names of an object schema.
func schemaProperties(t testing.TB, schema json.RawMessage) []string {
	t.Helper()
	var s struct {
		Type       string                     `json:"type"`
		Properties map[string]json.RawMessage `json:"properties"`
	}
	if err := json.Unmarshal(schema, &s); err != nil {
		t.Fatalf("schema %s: %v", schema, err)
	}
	if s.Type != "object" {
		t.Errorf("schema %s: type %q, want object", schema, s.Type)
	}
	var names []string
	for name := range s.Properties {
		names = append(names, name)
	}
	return names
}

// TestEverything lists and calls tools of the everything reference server
// over each transport it speaks.
func TestEverything(t *testing.T) {
	for _, tc := range []struct {
		name   string
		server func(t *testing.T) Server
	}{
		{"stdio", func(t *testing.T) Server { return everythingStdio(t) }},
		{"sse", func(t *testing.T) Server {
			return Server{URL: startEverythingHTTP(t, "sse") + "/sse", Transport: TransportSSE}
		}},
		{"streamable", func(t *testing.T) Server {
			return Server{URL: startEverythingHTTP(t, "streamableHttp") + "/mcp"}
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := connect(t, tc.server(t))
			ctx := context.Background()

			tools, err := c.Tools(ctx)
			if err != nil {
				t.Fatalf("Tools: %v", err)
			}
			echo := findTool(t, tools, "echo")
			if echo.Description != "Echoes back the input string" {
				t.Errorf("echo's description: got %q", echo.Description)
			}
			if got := schemaProperties(t, echo.Parameters); strings.Join(got, ",") != "message" {
				t.Errorf("echo's parameters: got %v, want [message]", got)
			}
			findTool(t, tools, "get-sum")

			for _, tc := range []struct{ tool, args, want string }{
				{"echo", `{"message":"hello, gavel"}`, "Echo: hello, gavel"},
				{"get-sum", `{"a":2,"b":3}`, "The sum of 2 and 3 is 5."},
				// The text block holds the structured content: not repeated.
				{"get-structured-content", `{"location":"Chicago"}`, `{"temperature":36,"conditions":"Light rain / drizzle","humidity":82}`},
			} {
				call := mustCall(t, c, tc.tool, tc.args)
				if call.Result != tc.want || call.IsError {
					t.Errorf("%s %s:\ngot  %q (is error %v)\nwant %q", tc.tool, tc.args, call.Result, call.IsError, tc.want)
				}
			}

			image := mustCall(t, c, "get-tiny-image", `{}`)
			if !regexp.MustCompile(`^Here's the image you requested:\n\[image/png, [1-9]\d* bytes\]\nThe image above is the MCP logo\.$`).MatchString(image.Result) {
				t.Errorf("get-tiny-image: got %q", image.Result)
			}

			// Arguments the tool refuses: a failed call, not a Go error.
			bad := mustCall(t, c, "echo", `{"message":5}`)
			if !bad.IsError || !strings.Contains(bad.Result, "message") {
				t.Errorf("echo with a number: got %q (is error %v), want a failed call about message", bad.Result, bad.IsError)
			}
		})
	}
}

// TestMemory creates entities in the memory reference server and reads the
// graph back, in the file the server was given through Env, across two
// sessions.
func TestMemory(t *testing.T) {
	bin := serverBin(t, "mcp-server-memory")
	file := filepath.Join(t.TempDir(), "memory.jsonl")
	s := Server{Name: "memory", Command: []string{bin}, Env: []string{"MEMORY_FILE_PATH=" + file}}

	c := connect(t, s)
	tools, err := c.Tools(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if got := schemaProperties(t, findTool(t, tools, "create_entities").Parameters); strings.Join(got, ",") != "entities" {
		t.Errorf("create_entities' parameters: got %v, want [entities]", got)
	}
	created := mustCall(t, c, "create_entities", `{"entities":[{"name":"Gavel","entityType":"project","observations":["tests AI agents"]}]}`)
	if created.IsError || !strings.Contains(created.Result, `"Gavel"`) {
		t.Errorf("create_entities: got %q (is error %v)", created.Result, created.IsError)
	}
	if err := c.Close(); err != nil {
		t.Fatalf("Close: %v", err)
	}
	data, err := os.ReadFile(file)
	if err != nil || !strings.Contains(string(data), "tests AI agents") {
		t.Fatalf("memory file after create_entities: %q, %v", data, err)
	}

	graph := mustCall(t, connect(t, s), "read_graph", `{}`)
	if graph.IsError || !strings.Contains(graph.Result, `"Gavel"`) || !strings.Contains(graph.Result, "tests AI agents") {
		t.Errorf("read_graph: got %q (is error %v), want the entity created before", graph.Result, graph.IsError)
	}
}

// ordersServer is a small MCP server built with the SDK: a tool that
// answers, one that fails (isError), one with structured output, and one
// that fails at the protocol level.
func ordersServer() *mcpsdk.Server {
	s := mcpsdk.NewServer(&mcpsdk.Implementation{Name: "orders", Version: "1.0.0"}, &mcpsdk.ServerOptions{Instructions: "Look orders up before changing them."})
	type order struct {
		ID string `json:"order_id" jsonschema:"the order's id"`
	}
	type status struct {
		ID     string `json:"order_id"`
		Status string `json:"status"`
	}
	mcpsdk.AddTool(s, &mcpsdk.Tool{Name: "get_order_status", Description: "Looks an order up."},
		func(_ context.Context, _ *mcpsdk.CallToolRequest, in order) (*mcpsdk.CallToolResult, status, error) {
			if in.ID != "A-1001" {
				return nil, status{}, fmt.Errorf("no order %s", in.ID)
			}
			return nil, status{ID: in.ID, Status: "shipped"}, nil
		})
	mcpsdk.AddTool(s, &mcpsdk.Tool{Name: "cancel_order", Description: "Cancels an order."},
		func(_ context.Context, _ *mcpsdk.CallToolRequest, in order) (*mcpsdk.CallToolResult, any, error) {
			return &mcpsdk.CallToolResult{
				Content: []mcpsdk.Content{&mcpsdk.TextContent{Text: "cancelled " + in.ID}, &mcpsdk.ImageContent{MIMEType: "image/png", Data: []byte("12345")}},
			}, nil, nil
		})
	s.AddTool(&mcpsdk.Tool{Name: "crash", Description: "Fails at the protocol level.", InputSchema: json.RawMessage(`{"type":"object"}`)},
		func(context.Context, *mcpsdk.CallToolRequest) (*mcpsdk.CallToolResult, error) {
			return nil, &jsonrpc.Error{Code: 4711, Message: "the order database is down"}
		})
	return s
}

// serveOrders serves ordersServer over HTTP ("streamable" or "sse") and
// returns the endpoint's URL. Requests without the bearer token get a 401.
func serveOrders(t testing.TB, transport, token string) string {
	t.Helper()
	s := ordersServer()
	var h http.Handler
	if transport == TransportSSE {
		h = mcpsdk.NewSSEHandler(func(*http.Request) *mcpsdk.Server { return s }, nil)
	} else {
		h = mcpsdk.NewStreamableHTTPHandler(func(*http.Request) *mcpsdk.Server { return s }, nil)
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Authorization") != "Bearer "+token {
			http.Error(w, "unauthorized", http.StatusUnauthorized)
			return
		}
		h.ServeHTTP(w, r)
	}))
	t.Cleanup(srv.Close)
	return srv.URL
}

// TestInProcess calls the tools of an SDK server over both HTTP
// transports, with a header the server requires.
func TestInProcess(t *testing.T) {
	for _, transport := range []string{TransportStreamable, TransportSSE} {
		t.Run(transport, func(t *testing.T) {
			url := serveOrders(t, transport, "s3cret")
			c := connect(t, Server{Name: "orders", URL: url, Transport: transport, Headers: map[string]string{"Authorization": "Bearer s3cret"}})

			tools, err := c.Tools(context.Background())
			if err != nil {
				t.Fatal(err)
			}
			var names []string
			for _, tool := range tools {
				names = append(names, tool.Name)
			}
			if got, want := strings.Join(names, " "), "cancel_order crash get_order_status"; got != want {
				t.Errorf("tools: got %s, want %s", got, want)
			}
			if got := schemaProperties(t, findTool(t, tools, "get_order_status").Parameters); strings.Join(got, ",") != "order_id" {
				t.Errorf("get_order_status' parameters: got %v", got)
			}

			for _, tc := range []struct {
				tool, args, want string
				isError          bool
			}{
				{"get_order_status", `{"order_id":"A-1001"}`, `{"order_id":"A-1001","status":"shipped"}`, false},
				{"get_order_status", `{"order_id":"B-7"}`, "no order B-7", true},
				{"cancel_order", `{"order_id":"A-1001"}`, "cancelled A-1001\n[image/png, 5 bytes]", false},
			} {
				call := mustCall(t, c, tc.tool, tc.args)
				if call.Result != tc.want || call.IsError != tc.isError {
					t.Errorf("%s %s:\ngot  %q (is error %v)\nwant %q (is error %v)", tc.tool, tc.args, call.Result, call.IsError, tc.want, tc.isError)
				}
			}

			// No arguments at all.
			call, err := c.Call(context.Background(), "get_order_status", nil)
			if err == nil && !call.IsError {
				t.Errorf("get_order_status without arguments: got %q, want a failure", call.Result)
			}

			// Protocol failures are errors, with a record of the failed call.
			for _, tc := range []struct{ tool, want string }{
				{"crash", "the order database is down"},
				{"no_such_tool", `unknown tool "no_such_tool"`},
			} {
				call, err := c.Call(context.Background(), tc.tool, json.RawMessage(`{}`))
				if err == nil || !strings.Contains(err.Error(), tc.want) {
					t.Errorf("%s: got error %v, want one containing %q", tc.tool, err, tc.want)
				}
				if call.Name != tc.tool || !call.IsError || err == nil || call.Result != err.Error() {
					t.Errorf("%s: record %+v does not match the error", tc.tool, call)
				}
			}
			var wire *jsonrpc.Error
			if _, err := c.Call(context.Background(), "crash", nil); !errors.As(err, &wire) || wire.Code != 4711 {
				t.Errorf("crash: got %v, want the server's JSON-RPC error 4711", err)
			}

			if _, err := c.Call(context.Background(), "get_order_status", json.RawMessage(`{"order_id":`)); err == nil || !strings.Contains(err.Error(), "not valid JSON") {
				t.Errorf("invalid JSON arguments: got %v", err)
			}
		})
	}
}

// TestConnectErrors checks that the errors a user causes say what to fix.
func TestConnectErrors(t *testing.T) {
	haveSh := func(t *testing.T) {
		if _, err := exec.LookPath("sh"); err != nil {
			t.Skip("no sh")
		}
	}
	deadPort := func(t *testing.T) string { return fmt.Sprintf("http://127.0.0.1:%d/mcp", freePort(t)) }
	dir := t.TempDir()
	secret := map[string]string{"Authorization": "Bearer s3cret-value"}

	for _, tc := range []struct {
		name   string
		setup  func(t *testing.T) Server
		want   []string
		maxDur time.Duration
	}{
		{"command not found", func(*testing.T) Server {
			return Server{Command: []string{"gavel-no-such-mcp-server", "--stdio"}}
		}, []string{`"gavel-no-such-mcp-server"`, "not found"}, 0},
		{"exits at once", func(t *testing.T) Server {
			haveSh(t)
			return Server{Name: "broken", Dir: dir, Command: []string{"sh", "-c", `echo "starting in $(pwd)" >&2; echo "config.json: no such file" >&2; exit 3`}}
		}, []string{`mcp server "broken"`, `command "sh" exited (exit status 3)`, "starting in " + dir, "config.json: no such file"}, 0},
		{"exits at once silently", func(t *testing.T) Server {
			haveSh(t)
			return Server{Command: []string{"sh", "-c", "exit 0"}}
		}, []string{`"sh" exited (exit status 0)`, "wrote nothing on stderr"}, 0},
		{"never answers", func(t *testing.T) Server {
			haveSh(t)
			return Server{Command: []string{"sh", "-c", "echo listening >&2; cat >/dev/null"}, Timeout: 300 * time.Millisecond}
		}, []string{`"sh" did not complete the MCP handshake within 300ms`, "listening"}, 5 * time.Second},
		{"not MCP", func(t *testing.T) Server {
			haveSh(t)
			return Server{Command: []string{"sh", "-c", "echo hello; cat >/dev/null"}}
		}, []string{`MCP handshake with command "sh" failed`}, 0},
		{"unreachable streamable URL", func(t *testing.T) Server {
			return Server{URL: deadPort(t), Headers: secret}
		}, []string{"http://127.0.0.1:", "/mcp", "streamable"}, 0},
		{"unreachable SSE URL", func(t *testing.T) Server {
			return Server{Name: "events", URL: deadPort(t), Transport: TransportSSE, Headers: secret}
		}, []string{`mcp server "events"`, "http://127.0.0.1:", "sse"}, 0},
		{"unauthorized", func(t *testing.T) Server {
			return Server{URL: serveOrders(t, TransportStreamable, "other"), Headers: secret}
		}, []string{"http://127.0.0.1:", "Unauthorized"}, 0},
		{"password in URL", func(t *testing.T) Server {
			return Server{URL: "http://gavel:s3cret-value@127.0.0.1:" + fmt.Sprint(freePort(t))}
		}, []string{"http://127.0.0.1:"}, 0},
		{"command and URL", func(*testing.T) Server {
			return Server{Command: []string{"x"}, URL: "http://localhost"}
		}, []string{"both command and URL are set"}, 0},
		{"neither", func(*testing.T) Server { return Server{Name: "empty"} },
			[]string{`mcp server "empty": neither command nor URL`}, 0},
		{"unknown transport", func(*testing.T) Server {
			return Server{URL: "http://localhost", Transport: "websocket"}
		}, []string{`unknown transport "websocket" (want "stdio", "streamable" or "sse")`}, 0},
		{"stdio with a URL", func(*testing.T) Server {
			return Server{URL: "http://localhost", Transport: TransportStdio}
		}, []string{`transport "stdio" needs a command`}, 0},
		{"SSE with a command", func(*testing.T) Server {
			return Server{Command: []string{"x"}, Transport: TransportSSE}
		}, []string{`transport "sse" needs a URL`}, 0},
		{"headers for stdio", func(*testing.T) Server {
			return Server{Command: []string{"x"}, Headers: secret}
		}, []string{"headers are set but are only sent to HTTP servers"}, 0},
		{"not an HTTP URL", func(*testing.T) Server { return Server{URL: "localhost:8080"} },
			[]string{"is not an http:// or https:// URL"}, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := tc.setup(t)
			if s.Timeout == 0 {
				s.Timeout = 10 * time.Second
			}
			start := time.Now()
			c, err := Connect(context.Background(), s)
			if err == nil {
				c.Close()
				t.Fatal("Connect succeeded, want an error")
			}
			t.Logf("error: %v", err)
			for _, want := range tc.want {
				if !strings.Contains(err.Error(), want) {
					t.Errorf("error:\n%v\nwant it to contain %q", err, want)
				}
			}
			if strings.Contains(err.Error(), "s3cret") {
				t.Errorf("error reveals a secret:\n%v", err)
			}
			if tc.maxDur > 0 && time.Since(start) > tc.maxDur {
				t.Errorf("Connect took %v, want at most %v", time.Since(start), tc.maxDur)
			}
		})
	}
}

// TestServerExitsDuringSession checks that a call to a stdio server that
// has exited says so, with its stderr.
func TestServerExitsDuringSession(t *testing.T) {
	c := connect(t, everythingStdio(t))
	if err := c.proc.cmd.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	<-c.proc.exited
	_, err := c.Call(context.Background(), "echo", json.RawMessage(`{"message":"anyone?"}`))
	if err == nil || !strings.Contains(err.Error(), "call echo") || !strings.Contains(err.Error(), "exited (signal: killed)") {
		t.Fatalf("Call after the server died: got %v", err)
	}
}
