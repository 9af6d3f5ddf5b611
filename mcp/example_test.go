package mcp_test

import (
	"context"
	"encoding/json"
	"fmt"
	"log"
	"net/http"
	"net/http/httptest"

	"github.com/gavelhq/gavel/mcp"
	mcpsdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// ordersServer serves a small MCP server, built with the SDK, over
// streamable HTTP in this process, and returns its URL and a function
// that stops it.
func ordersServer() (string, func()) {
	server := mcpsdk.NewServer(&mcpsdk.Implementation{Name: "orders", Version: "1.0.0"}, nil)
	type order struct {
		ID string `json:"order_id" jsonschema:"the order's id"`
	}
	mcpsdk.AddTool(server, &mcpsdk.Tool{Name: "get_order_status", Description: "Looks an order up."},
		func(_ context.Context, _ *mcpsdk.CallToolRequest, in order) (*mcpsdk.CallToolResult, any, error) {
			if in.ID != "A-1001" {
				return nil, nil, fmt.Errorf("no order %s", in.ID) // a failed call: isError
			}
			return &mcpsdk.CallToolResult{Content: []mcpsdk.Content{&mcpsdk.TextContent{Text: "A-1001: shipped"}}}, nil, nil
		})
	srv := httptest.NewServer(mcpsdk.NewStreamableHTTPHandler(func(*http.Request) *mcpsdk.Server { return server }, nil))
	return srv.URL, srv.Close
}

// Connect to an MCP server, list its tools and call one.
func Example() {
	url, stop := ordersServer()
	defer stop()

	ctx := context.Background()
	client, err := mcp.Connect(ctx, mcp.Server{Name: "orders", URL: url})
	if err != nil {
		log.Fatal(err)
	}
	defer client.Close()

	tools, err := client.Tools(ctx)
	if err != nil {
		log.Fatal(err)
	}
	for _, tool := range tools {
		fmt.Printf("%s: %s %s\n", tool.Name, tool.Description, tool.Parameters)
	}

	for _, args := range []string{`{"order_id":"A-1001"}`, `{"order_id":"B-7"}`} {
		call, err := client.Call(ctx, "get_order_status", json.RawMessage(args))
		if err != nil {
			log.Fatal(err) // the server could not be asked
		}
		fmt.Printf("%s %s -> %q (is error: %v)\n", call.Name, call.Arguments, call.Result, call.IsError)
	}
	// Output:
	// get_order_status: Looks an order up. {"additionalProperties":false,"properties":{"order_id":{"description":"the order's id","type":"string"}},"required":["order_id"],"type":"object"}
	// get_order_status {"order_id":"A-1001"} -> "A-1001: shipped" (is error: false)
	// get_order_status {"order_id":"B-7"} -> "no order B-7" (is error: true)
}

// Record the tool calls of an agent that does not report them: give it a
// proxy in front of its real MCP server, and take the calls turn by turn.
func ExampleNewProxy() {
	url, stop := ordersServer()
	defer stop()

	var calls mcp.Log
	proxy, err := mcp.NewProxy(mcp.Server{Name: "orders", URL: url}, &calls)
	if err != nil {
		log.Fatal(err)
	}
	defer proxy.Close()
	// Serve the proxy on a loopback port and give its URL to the agent
	// (or give the agent a command that runs proxy.ServeStdio).
	srv := httptest.NewServer(proxy.Handler())
	defer srv.Close()

	// The agent's turn: here, an MCP client standing in for the agent.
	ctx := context.Background()
	agent, err := mcp.Connect(ctx, mcp.Server{URL: srv.URL})
	if err != nil {
		log.Fatal(err)
	}
	defer agent.Close()
	agent.Call(ctx, "get_order_status", json.RawMessage(`{"order_id":"B-7"}`))
	agent.Call(ctx, "get_order_status", json.RawMessage(`{"order_id":"A-1001"}`))

	for _, call := range calls.Take() {
		fmt.Printf("%s %s -> %q (is error: %v)\n", call.Name, call.Arguments, call.Result, call.IsError)
	}
	// Output:
	// get_order_status {"order_id":"B-7"} -> "no order B-7" (is error: true)
	// get_order_status {"order_id":"A-1001"} -> "A-1001: shipped" (is error: false)
}
