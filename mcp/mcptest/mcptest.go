// Package mcptest starts the official MCP reference servers for tests of
// any package: the everything server over stdio, SSE or streamable HTTP,
// and Microsoft's Playwright server over streamable HTTP, on loopback,
// stopped when the test ends.
//
// The servers are installed from npm by mcp/testdata/install-servers.sh
// into mcp/testdata/servers (or the npm prefix GAVEL_MCP_SERVERS names).
// A test that needs one skips when it or node is missing, and fails
// instead when GAVEL_REQUIRE_INTEGRATION=1 (as in CI), where a missing
// server is a broken setup rather than a choice.
package mcptest

import (
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// The modes of the everything server that serve over HTTP, as its
// command line names them.
const (
	// SSE serves the older HTTP+SSE transport; the stream is at /sse.
	SSE = "sse"
	// StreamableHTTP serves the streamable HTTP transport at /mcp.
	StreamableHTTP = "streamableHttp"
)

// NeedService skips t when a service the test needs is missing, or fails
// it when GAVEL_REQUIRE_INTEGRATION=1.
func NeedService(t testing.TB, format string, args ...any) {
	t.Helper()
	msg := fmt.Sprintf(format, args...)
	if os.Getenv("GAVEL_REQUIRE_INTEGRATION") == "1" {
		t.Fatalf("%s, and GAVEL_REQUIRE_INTEGRATION=1", msg)
	}
	t.Skipf("%s; install the servers with: sh mcp/testdata/install-servers.sh", msg)
}

// testdata is the mcp package's testdata directory, found from this
// file's place in the module, so that tests of any package find it.
func testdata() string {
	_, file, _, ok := runtime.Caller(0)
	if !ok {
		return filepath.Join("testdata")
	}
	return filepath.Join(filepath.Dir(filepath.Dir(file)), "testdata")
}

// ServersDir is where the reference servers are installed: the npm prefix
// in GAVEL_MCP_SERVERS, else mcp/testdata/servers.
func ServersDir() string {
	if dir := os.Getenv("GAVEL_MCP_SERVERS"); dir != "" {
		return dir
	}
	return filepath.Join(testdata(), "servers")
}

// ServerBin returns the absolute path of an installed reference server's
// executable ("mcp-server-everything"), or skips t (see NeedService) when
// it or node is missing.
func ServerBin(t testing.TB, name string) string {
	t.Helper()
	if _, err := exec.LookPath("node"); err != nil {
		NeedService(t, "node is not in PATH")
	}
	bin, err := filepath.Abs(filepath.Join(ServersDir(), "node_modules", ".bin", name))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(bin); err != nil {
		NeedService(t, "MCP reference server %s is not installed in %s", name, ServersDir())
	}
	return bin
}

// StartEverything runs the everything reference server over HTTP (mode
// SSE or StreamableHTTP) on a free loopback port until t ends, and returns
// its base URL (http://127.0.0.1:PORT): the SSE stream is at /sse, the
// streamable endpoint at /mcp.
func StartEverything(t testing.TB, mode string) string {
	t.Helper()
	bin := ServerBin(t, "mcp-server-everything")
	// The server listens on every interface; the preload keeps it on
	// loopback.
	preload := filepath.Join(testdata(), "loopback.cjs")
	// Another process may take the free port before the server does: try
	// a few.
	var lastErr error
	for range 3 {
		port := FreePort(t)
		cmd := exec.Command(bin, mode)
		cmd.Env = append(os.Environ(), "PORT="+strconv.Itoa(port),
			"NODE_OPTIONS="+os.Getenv("NODE_OPTIONS")+` --require "`+preload+`"`)
		stderr := &tail{}
		cmd.Stderr = stderr
		if err := cmd.Start(); err != nil {
			t.Fatalf("start %s %s: %v", bin, mode, err)
		}
		exited := make(chan struct{})
		go func() { cmd.Wait(); close(exited) }()
		stop := func() { cmd.Process.Kill(); <-exited }
		if err := waitListening(port, exited, 20*time.Second); err != nil {
			stop()
			lastErr = fmt.Errorf("%w; stderr:\n%s", err, stderr.String())
			continue
		}
		t.Cleanup(stop)
		return "http://127.0.0.1:" + strconv.Itoa(port)
	}
	t.Fatalf("everything server (%s): %v", mode, lastErr)
	return ""
}

// StartPlaywright runs Microsoft's Playwright MCP server (@playwright/mcp)
// over streamable HTTP on a free loopback port until t ends, driving the
// system's Chromium headless, and returns its endpoint
// (http://localhost:PORT/mcp). It skips t (see NeedService) when the
// server or Chromium is missing.
func StartPlaywright(t testing.TB) string {
	t.Helper()
	bin := ServerBin(t, "playwright-mcp")
	var chromium string
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome"} {
		if path, err := exec.LookPath(name); err == nil {
			chromium = path
			break
		}
	}
	if chromium == "" {
		NeedService(t, "none of chromium, chromium-browser, google-chrome is on PATH (apt-get install chromium)")
	}
	var lastErr error
	for range 3 {
		port := FreePort(t)
		cmd := exec.Command(bin, "--headless", "--isolated", "--no-sandbox", "--browser", "chromium",
			"--executable-path", chromium, "--host", "127.0.0.1", "--port", strconv.Itoa(port))
		cmd.Dir = t.TempDir()
		stderr := &tail{}
		cmd.Stderr = stderr
		if err := cmd.Start(); err != nil {
			t.Fatalf("start %s: %v", bin, err)
		}
		exited := make(chan struct{})
		go func() { cmd.Wait(); close(exited) }()
		stop := func() { cmd.Process.Kill(); <-exited }
		if err := waitListening(port, exited, 30*time.Second); err != nil {
			stop()
			lastErr = fmt.Errorf("%w; stderr:\n%s", err, stderr.String())
			continue
		}
		t.Cleanup(stop)
		// The server answers only requests that name it as it names
		// itself (a Host header of localhost:PORT), else 403.
		return "http://localhost:" + strconv.Itoa(port) + "/mcp"
	}
	t.Fatalf("playwright MCP server: %v", lastErr)
	return ""
}

// FreePort returns a loopback TCP port that was free a moment ago.
func FreePort(t testing.TB) int {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port
}

// waitListening waits until something accepts connections on port, the
// process exits or the time is up.
func waitListening(port int, exited <-chan struct{}, limit time.Duration) error {
	deadline := time.Now().Add(limit)
	addr := "127.0.0.1:" + strconv.Itoa(port)
	for time.Now().Before(deadline) {
		select {
		case <-exited:
			return fmt.Errorf("server exited before listening on %s", addr)
		default:
		}
		if conn, err := net.DialTimeout("tcp", addr, time.Second); err == nil {
			conn.Close()
			return nil
		}
		time.Sleep(50 * time.Millisecond)
	}
	return fmt.Errorf("nothing listening on %s after %v", addr, limit)
}

// tail keeps the last 4 KiB written to it.
type tail struct {
	mu  sync.Mutex
	buf []byte
}

func (t *tail) Write(b []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.buf = append(t.buf, b...)
	if over := len(t.buf) - 4<<10; over > 0 {
		t.buf = append(t.buf[:0], t.buf[over:]...)
	}
	return len(b), nil
}

func (t *tail) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return strings.TrimSpace(string(t.buf))
}
