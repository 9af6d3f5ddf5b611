package main

import (
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gavelhq/gavel/examples/property-desk/listings"
	gavelmcp "github.com/gavelhq/gavel/mcp"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

func testServer(t *testing.T) *mcp.Server {
	t.Helper()
	db, err := listings.Open(t.Context(), filepath.Join(t.TempDir(), "property.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return newServer(db, slog.New(slog.NewTextHandler(io.Discard, nil)))
}

// Each tool over its own transports, as the agent reaches them: SSE (the
// seed's) and streamable HTTP, through Gavel's MCP client.
func TestTools(t *testing.T) {
	for _, tc := range []struct {
		transport string
		handler   func(*mcp.Server) http.Handler
	}{
		{"sse", func(s *mcp.Server) http.Handler {
			return mcp.NewSSEHandler(func(*http.Request) *mcp.Server { return s }, nil)
		}},
		{"streamable", func(s *mcp.Server) http.Handler {
			return mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return s }, nil)
		}},
	} {
		t.Run(tc.transport, func(t *testing.T) {
			srv := httptest.NewServer(tc.handler(testServer(t)))
			defer srv.Close()
			c, err := gavelmcp.Connect(t.Context(), gavelmcp.Server{Name: "listings", URL: srv.URL, Transport: tc.transport})
			if err != nil {
				t.Fatal(err)
			}
			defer c.Close()
			tools, err := c.Tools(t.Context())
			if err != nil || len(tools) != 5 {
				t.Fatalf("tools: %v, %v; want 5", tools, err)
			}
			for _, call := range []struct {
				name, args, want string
				isError          bool
			}{
				{"get_listings", `{}`, `"name":"Mountain Cabin"`, false},
				{"get_listing_details", `{"listing_id":"L-101"}`, `"occupancy_rate":"45%"`, false},
				{"get_listing_details", `{"listing_id":"L-999"}`, "listing L-999 not found", true},
				{"get_bookings", `{"listing_id":"L-103","month":"2026-04"}`, `"guest":"Jonas Berg"`, false},
				{"get_revenue_data", `{"month":"2026-03"}`, `"total":9900`, false},
				{"block_dates", `{"listing_id":"L-101","check_in":"2026-04-10","check_out":"2026-04-12"}`, `"kind":"owner_block"`, false},
				{"block_dates", `{"listing_id":"L-103","check_in":"2026-04-16","check_out":"2026-04-19"}`, "overlaps a booking", true},
			} {
				got, err := c.Call(t.Context(), call.name, []byte(call.args))
				if err != nil {
					t.Fatalf("%s(%s): %v", call.name, call.args, err)
				}
				if !strings.Contains(string(got.Result), call.want) || got.IsError != call.isError {
					t.Errorf("%s(%s): %s (isError %v), want %q (isError %v)", call.name, call.args, got.Result, got.IsError, call.want, call.isError)
				}
			}
		})
	}
}
