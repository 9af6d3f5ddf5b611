package main

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"

	"github.com/gavelhq/gavel/examples/property-desk/listings"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// The tools' input schemas are written out, so that the agent sees
// exactly these (the SDK's derived ones would add
// "additionalProperties": false).
var tools = []*mcp.Tool{
	{Name: "get_listings", Description: "List the property manager's listings: id, name, city, nightly price.",
		InputSchema: json.RawMessage(`{"type": "object", "properties": {}}`)},
	{Name: "get_listing_details", Description: "A listing's address, nightly price, bedrooms and occupancy rate over a month (this month, 2026-03, by default).",
		InputSchema: json.RawMessage(`{"type": "object", "properties": {
			"listing_id": {"type": "string", "description": "The listing's id, such as L-101"},
			"month": {"type": "string", "description": "YYYY-MM"}}, "required": ["listing_id"]}`)},
	{Name: "get_bookings", Description: "A listing's bookings (guest stays and owner blocks), optionally only those in a month.",
		InputSchema: json.RawMessage(`{"type": "object", "properties": {
			"listing_id": {"type": "string"}, "month": {"type": "string", "description": "YYYY-MM"}}, "required": ["listing_id"]}`)},
	{Name: "get_revenue_data", Description: "Revenue of the stays that began in a month, in all and by listing.",
		InputSchema: json.RawMessage(`{"type": "object", "properties": {
			"month": {"type": "string", "description": "YYYY-MM"}, "listing_id": {"type": "string"}}, "required": ["month"]}`)},
	{Name: "block_dates", Description: "Block nights of a listing for the owner, from check_in to the morning of check_out. Fails if a night is booked.",
		InputSchema: json.RawMessage(`{"type": "object", "properties": {
			"listing_id": {"type": "string"}, "check_in": {"type": "string", "description": "YYYY-MM-DD"},
			"check_out": {"type": "string", "description": "YYYY-MM-DD"}, "note": {"type": "string"}},
			"required": ["listing_id", "check_in", "check_out"]}`)},
}

// args holds every tool's arguments; each tool reads its own.
type args struct {
	ListingID string `json:"listing_id"`
	Month     string `json:"month"`
	CheckIn   string `json:"check_in"`
	CheckOut  string `json:"check_out"`
	Note      string `json:"note"`
}

// newServer returns the MCP server of the tools over db, logging each
// call. An error a tool returns reaches the agent as a result with
// isError set.
func newServer(db *listings.DB, log *slog.Logger) *mcp.Server {
	server := mcp.NewServer(&mcp.Implementation{Name: "listings-mcp", Version: "1.0.0"}, nil)
	handlers := map[string]func(context.Context, args) (any, error){
		"get_listings": func(ctx context.Context, _ args) (any, error) { return db.Listings(ctx) },
		"get_listing_details": func(ctx context.Context, a args) (any, error) {
			return db.Listing(ctx, a.ListingID, a.Month)
		},
		"get_bookings": func(ctx context.Context, a args) (any, error) {
			return db.Bookings(ctx, a.ListingID, a.Month)
		},
		"get_revenue_data": func(ctx context.Context, a args) (any, error) {
			return db.Revenue(ctx, a.Month, a.ListingID)
		},
		"block_dates": func(ctx context.Context, a args) (any, error) {
			return db.Block(ctx, a.ListingID, a.CheckIn, a.CheckOut, a.Note)
		},
	}
	for _, tool := range tools {
		handle := handlers[tool.Name]
		mcp.AddTool(server, tool, func(ctx context.Context, _ *mcp.CallToolRequest, a args) (*mcp.CallToolResult, any, error) {
			v, err := handle(ctx, a)
			log.Info(tool.Name, "args", a, "err", err)
			if err != nil {
				return nil, nil, err
			}
			b, err := json.Marshal(v)
			if err != nil {
				return nil, nil, fmt.Errorf("encode result: %w", err)
			}
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: string(b)}}}, nil, nil
		})
	}
	return server
}
