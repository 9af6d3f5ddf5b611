package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"

	"github.com/gavelhq/gavel/examples/support-desk/orders"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// The tools as the seed document defines them. The input schemas are
// written out rather than derived from the argument structs, so that the
// agent sees exactly the seed's: the SDK's derived schemas would add
// "additionalProperties": false.
var (
	getOrderStatusTool = &mcp.Tool{
		Name:        "get_order_status",
		Description: "Look up an order's current status.",
		InputSchema: json.RawMessage(`{
			"type": "object",
			"properties": {"order_id": {"type": "string"}},
			"required": ["order_id"]
		}`),
	}
	cancelOrderTool = &mcp.Tool{
		Name:        "cancel_order",
		Description: "Cancel an order. Requires explicit user confirmation.",
		InputSchema: json.RawMessage(`{
			"type": "object",
			"properties": {"order_id": {"type": "string"}, "confirmation": {"type": "boolean"}},
			"required": ["order_id", "confirmation"]
		}`),
	}
)

type statusArgs struct {
	OrderID string `json:"order_id"`
}

type cancelArgs struct {
	OrderID      string `json:"order_id"`
	Confirmation bool   `json:"confirmation"`
}

// statusReply and cancelReply are the tools' results, sent as JSON text.
type statusReply struct {
	OrderID string `json:"order_id"`
	Status  string `json:"status"`
	ETA     string `json:"eta,omitempty"`
}

type cancelReply struct {
	OrderID   string `json:"order_id"`
	Cancelled bool   `json:"cancelled"`
	Reason    string `json:"reason,omitempty"`
}

// newServer returns an MCP server with the two tools over db. It logs each
// call to log.
//
// An error a handler returns reaches the agent as a tool result with
// isError set and the error as its text ("order 99999 not found"), not as
// a protocol error: the SDK's typed handlers do that, and it is what lets
// the agent read the error and tell the user.
func newServer(db *orders.DB, log *slog.Logger) *mcp.Server {
	server := mcp.NewServer(&mcp.Implementation{Name: "orders-mcp", Version: "1.0.0"}, nil)

	mcp.AddTool(server, getOrderStatusTool,
		func(ctx context.Context, _ *mcp.CallToolRequest, args statusArgs) (*mcp.CallToolResult, any, error) {
			if args.OrderID == "" {
				return nil, nil, errors.New("order_id is empty")
			}
			o, err := db.Status(ctx, args.OrderID)
			log.Info("get_order_status", "order_id", args.OrderID, "status", o.Status, "err", err)
			if err != nil {
				return nil, nil, err
			}
			return jsonResult(statusReply{OrderID: o.ID, Status: o.Status, ETA: o.ETA})
		})

	mcp.AddTool(server, cancelOrderTool,
		func(ctx context.Context, _ *mcp.CallToolRequest, args cancelArgs) (*mcp.CallToolResult, any, error) {
			if args.OrderID == "" {
				return nil, nil, errors.New("order_id is empty")
			}
			res, err := db.Cancel(ctx, args.OrderID, args.Confirmation)
			log.Info("cancel_order", "order_id", args.OrderID, "confirmation", args.Confirmation,
				"cancelled", res.Cancelled, "reason", res.Reason, "err", err)
			if err != nil {
				return nil, nil, err
			}
			return jsonResult(cancelReply{OrderID: res.OrderID, Cancelled: res.Cancelled, Reason: res.Reason})
		})

	return server
}

// jsonResult returns a tool result whose only content is v as JSON text.
// (The handlers' output type is any, so the SDK adds no structured content
// and no output schema of its own: the tools stay the seed's.)
func jsonResult(v any) (*mcp.CallToolResult, any, error) {
	b, err := json.Marshal(v)
	if err != nil {
		return nil, nil, fmt.Errorf("encode result: %w", err)
	}
	return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: string(b)}}}, nil, nil
}
