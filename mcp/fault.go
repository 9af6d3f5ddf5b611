package mcp

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	mcpsdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/gavelhq/gavel/judge"
)

// A Fault is what a tool call is made to suffer on purpose, to see how an
// agent copes (package mock decides which calls, from a suite's faults).
type Fault struct {
	// Kind is FaultError, FaultProtocolError, FaultDelay, FaultEmpty or
	// FaultTruncate.
	Kind string
	// Message is an error's words; Delay how long a delayed call waits
	// before it goes on.
	Message string
	Delay   time.Duration
}

// The kinds of Fault.
const (
	FaultError         = "error"          // an error result, the tool not called
	FaultProtocolError = "protocol_error" // a JSON-RPC error, the tool not called
	FaultDelay         = "delay"          // the call waits Delay first
	FaultEmpty         = "empty"          // the tool's result, emptied
	FaultTruncate      = "truncate"       // the tool's result, cut in half
)

// FaultKinds are the kinds of Fault, in the order docs list them.
var FaultKinds = []string{FaultError, FaultProtocolError, FaultDelay, FaultEmpty, FaultTruncate}

// A Faults decides whether a call of tool, in ctx, suffers a fault.
type Faults func(ctx context.Context, tool string) (Fault, bool)

// Apply makes call suffer f: run is the real call (not made for an error
// or a protocol error). It returns the call as the agent gets it, marked
// Injected, and, for a protocol error, the error.
func (f Fault) Apply(ctx context.Context, call judge.ToolCall, run func(context.Context) (judge.ToolCall, error)) (judge.ToolCall, error) {
	switch f.Kind {
	case FaultError:
		call.Result, call.IsError, call.Injected = f.message("the tool failed"), true, FaultError
		return call, nil
	case FaultProtocolError:
		call.Result, call.IsError, call.Injected = f.message("the server refused the call"), true, FaultProtocolError
		return call, &jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: call.Result}
	case FaultDelay:
		select {
		case <-time.After(f.Delay):
		case <-ctx.Done():
			call.Result, call.IsError, call.Injected = "no answer: "+ctx.Err().Error(), true, fmt.Sprintf("delay %s", f.Delay)
			return call, ctx.Err()
		}
	}
	got, err := run(ctx)
	switch f.Kind {
	case FaultDelay:
		got.Injected = fmt.Sprintf("delay %s", f.Delay)
	case FaultEmpty:
		got.Result, got.Injected = "", FaultEmpty
	case FaultTruncate:
		r := []rune(got.Result)
		got.Result, got.Injected = string(r[:len(r)/2]), "truncated"
	}
	return got, err
}

func (f Fault) message(def string) string {
	if f.Message != "" {
		return f.Message
	}
	return def + " (a fault injected by Gavel)"
}

// resultOf is the MCP result of a call as the agent gets it.
func resultOf(call judge.ToolCall) *mcpsdk.CallToolResult {
	return &mcpsdk.CallToolResult{IsError: call.IsError, Content: []mcpsdk.Content{&mcpsdk.TextContent{Text: call.Result}}}
}

// argsOf is a call's arguments as the proxy got them.
func argsOf(req *mcpsdk.CallToolRequest) json.RawMessage { return req.Params.Arguments }
