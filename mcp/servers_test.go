package mcp

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/gavelhq/gavel/mcp/mcptest"
)

// serverBin returns the absolute path of an installed reference server's
// executable ("mcp-server-everything"), or skips t when it or node is
// missing (see mcptest.NeedService).
func serverBin(t testing.TB, name string) string {
	t.Helper()
	return mcptest.ServerBin(t, name)
}

// everythingStdio describes the everything reference server over stdio.
func everythingStdio(t testing.TB) Server {
	return Server{Name: "everything", Command: []string{serverBin(t, "mcp-server-everything"), "stdio"}, Timeout: 30 * time.Second}
}

// startEverythingHTTP runs the everything reference server over HTTP
// ("sse" or "streamableHttp") on a free loopback port until t ends, and
// returns its base URL.
func startEverythingHTTP(t testing.TB, mode string) string {
	t.Helper()
	return mcptest.StartEverything(t, mode)
}

// freePort returns a loopback TCP port that was free a moment ago.
func freePort(t testing.TB) int {
	t.Helper()
	return mcptest.FreePort(t)
}

// A URL of a server that speaks only the older HTTP+SSE transport, given
// without transport: sse, is reached as the MCP spec's backwards
// compatibility asks of clients: the streamable POST of initialize fails
// with a 4xx (the everything server's /sse answers 404), so the client
// opens the SSE stream at the same URL. transport: streamable forces the
// new transport, and then fails saying what to try.
func TestSSEFallback(t *testing.T) {
	url := startEverythingHTTP(t, mcptest.SSE) + "/sse"
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	c, err := Connect(ctx, Server{Name: "everything", URL: url, Timeout: 20 * time.Second})
	if err != nil {
		t.Fatalf("connect without a transport: %v", err)
	}
	tools, err := c.Tools(ctx)
	c.Close()
	if err != nil || len(tools) == 0 {
		t.Errorf("tools over the SSE fallback: %d, %v", len(tools), err)
	}
	_, err = Connect(ctx, Server{Name: "everything", URL: url, Transport: TransportStreamable, Timeout: 20 * time.Second})
	if err == nil || !strings.Contains(err.Error(), "Not Found") || !strings.Contains(err.Error(), "transport: sse") {
		t.Errorf("connect with transport: streamable: %v", err)
	}
}
