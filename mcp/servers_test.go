package mcp

import (
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
