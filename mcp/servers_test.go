package mcp

import (
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"testing"
	"time"
)

// needService skips t when a service the test needs is missing, or fails
// it when GAVEL_REQUIRE_INTEGRATION=1 (as in CI), where a missing service
// is a broken setup rather than a choice.
func needService(t testing.TB, format string, args ...any) {
	t.Helper()
	msg := fmt.Sprintf(format, args...)
	if os.Getenv("GAVEL_REQUIRE_INTEGRATION") == "1" {
		t.Fatalf("%s, and GAVEL_REQUIRE_INTEGRATION=1", msg)
	}
	t.Skipf("%s; install the servers with: sh mcp/testdata/install-servers.sh", msg)
}

// serversDir is where the reference servers are installed: the npm prefix
// in GAVEL_MCP_SERVERS (best absolute: tests run in the package's
// directory), else testdata/servers.
func serversDir() string {
	if dir := os.Getenv("GAVEL_MCP_SERVERS"); dir != "" {
		return dir
	}
	return filepath.Join("testdata", "servers")
}

// serverBin returns the absolute path of an installed reference server's
// executable ("mcp-server-everything"), or skips t when it or node is
// missing.
func serverBin(t testing.TB, name string) string {
	t.Helper()
	if _, err := exec.LookPath("node"); err != nil {
		needService(t, "node is not in PATH")
	}
	bin, err := filepath.Abs(filepath.Join(serversDir(), "node_modules", ".bin", name))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(bin); err != nil {
		needService(t, "MCP reference server %s is not installed in %s", name, serversDir())
	}
	return bin
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
	bin := serverBin(t, "mcp-server-everything")
	preload, err := filepath.Abs(filepath.Join("testdata", "loopback.cjs"))
	if err != nil {
		t.Fatal(err)
	}
	// Another process may take the free port before the server does: try
	// a few.
	var lastErr error
	for range 3 {
		port := freePort(t)
		cmd := exec.Command(bin, mode)
		cmd.Env = append(os.Environ(), "PORT="+strconv.Itoa(port),
			"NODE_OPTIONS="+os.Getenv("NODE_OPTIONS")+` --require "`+preload+`"`)
		stderr := &tail{max: 4 << 10}
		cmd.Stderr = stderr
		if err := cmd.Start(); err != nil {
			t.Fatalf("start %s %s: %v", bin, mode, err)
		}
		exited := make(chan struct{})
		go func() { cmd.Wait(); close(exited) }()
		stop := func() { cmd.Process.Kill(); <-exited }
		if err := waitListening(port, exited, 20*time.Second); err != nil {
			stop()
			lastErr = fmt.Errorf("%w; stderr:\n%s", err, stderr.lines(10))
			continue
		}
		t.Cleanup(stop)
		return "http://127.0.0.1:" + strconv.Itoa(port)
	}
	t.Fatalf("everything server (%s): %v", mode, lastErr)
	return ""
}

// freePort returns a loopback TCP port that was free a moment ago.
func freePort(t testing.TB) int {
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
