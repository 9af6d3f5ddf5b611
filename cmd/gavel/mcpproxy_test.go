package main

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/gavelhq/gavel/eval"
	"github.com/gavelhq/gavel/mcp"
	mcpsdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// An agent that starts its MCP server as a command is given
// "gavel mcp-proxy URL" instead: its calls reach the run's recording
// proxy, which records them, and the real server, which answers.
func TestMCPProxyBridgesStdioToTheRunsProxy(t *testing.T) {
	server := mcpsdk.NewServer(&mcpsdk.Implementation{Name: "orders", Version: "1"}, nil)
	type args struct {
		OrderID string `json:"order_id"`
	}
	mcpsdk.AddTool(server, &mcpsdk.Tool{Name: "get_order_status"},
		func(_ context.Context, _ *mcpsdk.CallToolRequest, a args) (*mcpsdk.CallToolResult, any, error) {
			return &mcpsdk.CallToolResult{Content: []mcpsdk.Content{&mcpsdk.TextContent{Text: a.OrderID + " shipped"}}}, nil, nil
		})
	upstream := httptest.NewServer(mcpsdk.NewStreamableHTTPHandler(func(*http.Request) *mcpsdk.Server { return server }, nil))
	defer upstream.Close()

	log := &mcp.Log{}
	recording, err := mcp.NewProxy(mcp.Server{Name: "orders", URL: upstream.URL}, log)
	if err != nil {
		t.Fatal(err)
	}
	defer recording.Close()
	runProxy := httptest.NewServer(recording.Handler())
	defer runProxy.Close()

	bridgeIn, agentOut := io.Pipe() // the agent writes, the bridge reads
	agentIn, bridgeOut := io.Pipe() // the bridge writes, the agent reads
	done := make(chan int)
	go func() {
		done <- mcpProxyCommand([]string{runProxy.URL}, stdio{bridgeIn, bridgeOut, io.Discard})
		bridgeOut.Close()
	}()

	client := mcpsdk.NewClient(&mcpsdk.Implementation{Name: "agent", Version: "1"}, nil)
	session, err := client.Connect(t.Context(), &mcpsdk.IOTransport{Reader: agentIn, Writer: agentOut}, nil)
	if err != nil {
		t.Fatal(err)
	}
	res, err := session.CallTool(t.Context(), &mcpsdk.CallToolParams{Name: "get_order_status", Arguments: map[string]any{"order_id": "12345"}})
	if err != nil {
		t.Fatal(err)
	}
	if text := res.Content[0].(*mcpsdk.TextContent).Text; text != "12345 shipped" {
		t.Errorf("the agent got %q, want the server's answer", text)
	}
	session.Close()
	agentOut.Close()
	if code := <-done; code != eval.ExitPassed {
		t.Errorf("gavel mcp-proxy exited %d when the agent hung up, want 0", code)
	}
	calls := log.Take()
	if len(calls) != 1 || calls[0].Name != "get_order_status" || calls[0].Result != "12345 shipped" {
		t.Errorf("the run recorded %+v, want the one call", calls)
	}
}
