package main

import (
	"context"
	"database/sql"
	"encoding/json"
	"log/slog"
	"net"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gavelhq/gavel/examples/support-desk/orders"
	"github.com/google/go-cmp/cmp"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// testContext returns a context that ends when t does, or after a
// minute, whichever comes first.
func testContext(t *testing.T) context.Context {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), time.Minute)
	t.Cleanup(cancel)
	return ctx
}

// testLogger logs to t's output, which is shown when t fails or with -v.
func testLogger(t *testing.T) *slog.Logger {
	return slog.New(slog.NewTextHandler(t.Output(), nil))
}

// openOrders opens a new orders database in a temporary directory, closed
// when t ends, and returns it with its path.
func openOrders(t *testing.T) (*orders.DB, string) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "orders.db")
	db, err := orders.Open(testContext(t), path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db, path
}

// connect serves newServer over db to an SDK client in this process, over
// the SDK's in-memory transport, and returns the client's session. Both
// ends close when t ends.
func connect(t *testing.T, db *orders.DB) *mcp.ClientSession {
	t.Helper()
	ctx := testContext(t)
	serverEnd, clientEnd := mcp.NewInMemoryTransports()
	ss, err := newServer(db, testLogger(t)).Connect(ctx, serverEnd, nil)
	if err != nil {
		t.Fatalf("server Connect: %v", err)
	}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "0"}, nil).Connect(ctx, clientEnd, nil)
	if err != nil {
		ss.Close()
		t.Fatalf("client Connect: %v", err)
	}
	t.Cleanup(func() {
		cs.Close()
		ss.Wait()
	})
	return cs
}

// call calls a tool and returns its result's text and isError. A protocol
// error fails t.
func call(t *testing.T, cs *mcp.ClientSession, tool, args string) (string, bool) {
	t.Helper()
	res, err := cs.CallTool(testContext(t), &mcp.CallToolParams{Name: tool, Arguments: json.RawMessage(args)})
	if err != nil {
		t.Fatalf("CallTool(%s, %s): %v", tool, args, err)
	}
	var text []string
	for _, c := range res.Content {
		tc, ok := c.(*mcp.TextContent)
		if !ok {
			t.Fatalf("CallTool(%s, %s): content %T, want text only", tool, args, c)
		}
		text = append(text, tc.Text)
	}
	return strings.Join(text, "\n"), res.IsError
}

// The tools the agent sees are exactly the seed document's.
func TestTools(t *testing.T) {
	db, _ := openOrders(t)
	res, err := connect(t, db).ListTools(testContext(t), nil)
	if err != nil {
		t.Fatal(err)
	}
	type tool struct {
		Name, Description string
		InputSchema       any
	}
	var got []tool
	for _, tl := range res.Tools {
		got = append(got, tool{tl.Name, tl.Description, asJSONValue(t, tl.InputSchema)})
		if tl.OutputSchema != nil {
			t.Errorf("tool %s has an output schema, which the seed's tools do not: %v", tl.Name, tl.OutputSchema)
		}
	}
	want := []tool{ // sorted by name, as the SDK lists them
		{"cancel_order", "Cancel an order. Requires explicit user confirmation.", asJSONValue(t, json.RawMessage(
			`{"type":"object","properties":{"order_id":{"type":"string"},"confirmation":{"type":"boolean"}},"required":["order_id","confirmation"]}`))},
		{"get_order_status", "Look up an order's current status.", asJSONValue(t, json.RawMessage(
			`{"type":"object","properties":{"order_id":{"type":"string"}},"required":["order_id"]}`))},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("tools mismatch (-want +got):\n%s", diff)
	}
}

// asJSONValue returns v as encoding/json decodes its JSON into an any, so
// that schemas can be compared whatever Go type holds them.
func asJSONValue(t *testing.T, v any) any {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	var out any
	if err := json.Unmarshal(b, &out); err != nil {
		t.Fatal(err)
	}
	return out
}

func TestCalls(t *testing.T) {
	tests := []struct {
		name        string
		tool, args  string
		want        string
		wantIsError bool
	}{
		{"status shipped", "get_order_status", `{"order_id":"12345"}`,
			`{"order_id":"12345","status":"shipped","eta":"2026-03-15"}`, false},
		{"status processing", "get_order_status", `{"order_id":"67890"}`,
			`{"order_id":"67890","status":"processing","eta":"2026-03-20"}`, false},
		{"status cancelled has no eta", "get_order_status", `{"order_id":"11223"}`,
			`{"order_id":"11223","status":"cancelled"}`, false},
		{"status unknown order", "get_order_status", `{"order_id":"99999"}`,
			"order 99999 not found", true},
		{"status empty id", "get_order_status", `{"order_id":""}`,
			"order_id is empty", true},
		{"cancel without confirmation", "cancel_order", `{"order_id":"67890","confirmation":false}`,
			`{"order_id":"67890","cancelled":false,"reason":"confirmation required"}`, false},
		{"cancel with confirmation", "cancel_order", `{"order_id":"67890","confirmation":true}`,
			`{"order_id":"67890","cancelled":true}`, false},
		{"cancel shipped order", "cancel_order", `{"order_id":"12345","confirmation":true}`,
			`{"order_id":"12345","cancelled":false,"reason":"order has already shipped"}`, false},
		{"cancel unknown order", "cancel_order", `{"order_id":"99999","confirmation":true}`,
			"order 99999 not found", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			db, _ := openOrders(t)
			got, isError := call(t, connect(t, db), tt.tool, tt.args)
			if got != tt.want || isError != tt.wantIsError {
				t.Errorf("%s(%s): got %q (isError %v), want %q (isError %v)",
					tt.tool, tt.args, got, isError, tt.want, tt.wantIsError)
			}
		})
	}
}

// The schema makes confirmation required, but not true: leaving it out is
// an error the agent sees.
func TestCancelWithoutConfirmationArgument(t *testing.T) {
	db, _ := openOrders(t)
	got, isError := call(t, connect(t, db), "cancel_order", `{"order_id":"67890"}`)
	if !isError || !strings.Contains(got, "confirmation") {
		t.Errorf("cancel_order without confirmation: got %q (isError %v), want an error that names confirmation", got, isError)
	}
}

// A confirmed cancellation is in the database file, where a check from
// another connection (Gavel's rule/dbstate) reads it; an unconfirmed one
// leaves the row alone.
func TestCancelChangesDatabase(t *testing.T) {
	ctx := testContext(t)
	db, path := openOrders(t)
	cs := connect(t, db)
	reader, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	defer reader.Close()
	status := func() string {
		t.Helper()
		var s string
		if err := reader.QueryRowContext(ctx, "SELECT status FROM orders WHERE id = '67890'").Scan(&s); err != nil {
			t.Fatal(err)
		}
		return s
	}

	call(t, cs, "cancel_order", `{"order_id":"67890","confirmation":false}`)
	if got := status(); got != orders.StatusProcessing {
		t.Errorf("after an unconfirmed cancel: status %q, want %q", got, orders.StatusProcessing)
	}
	call(t, cs, "cancel_order", `{"order_id":"67890","confirmation":true}`)
	if got := status(); got != orders.StatusCancelled {
		t.Errorf("after a confirmed cancel: status %q, want %q", got, orders.StatusCancelled)
	}
}

// serveHTTP serves the tools at /mcp, and stops when its context is done
// even while a client holds a session open with a standalone stream, and
// a connection is open with nothing sent on it (as HTTP clients open
// ahead of need).
func TestServeHTTP(t *testing.T) {
	db, _ := openOrders(t)
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, stop := context.WithCancel(testContext(t))
	defer stop()
	served := make(chan error, 1)
	log := testLogger(t)
	go func() { served <- serveHTTP(ctx, l, newServer(db, log), log) }()

	transport := &mcp.StreamableClientTransport{Endpoint: "http://" + l.Addr().String() + "/mcp", MaxRetries: -1}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "0"}, nil).Connect(testContext(t), transport, nil)
	if err != nil {
		t.Fatalf("Connect: %v", err)
	}
	defer cs.Close()
	if got, _ := call(t, cs, "get_order_status", `{"order_id":"12345"}`); !strings.Contains(got, `"status":"shipped"`) {
		t.Errorf("get_order_status(12345) over HTTP: got %q", got)
	}

	idle, err := net.Dial("tcp", l.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer idle.Close()

	stop()
	select {
	case err := <-served:
		if err != nil {
			t.Errorf("serveHTTP: %v", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("serveHTTP did not return within 10s of its context ending")
	}
}
