package main

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/gavelhq/gavel/examples/support-desk/orders"
	gavelmcp "github.com/gavelhq/gavel/mcp"
)

// buildTimeout bounds go build, which compiles the pure-Go SQLite the
// first time (a minute or more) and is quick from the build cache.
const buildTimeout = 5 * time.Minute

// TestBinary builds orders-mcp and runs it as an agent would: over stdio
// through Gavel's own MCP client, and over HTTP, stopped by a signal.
func TestBinary(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary; skipped with -short")
	}
	bin := buildBinary(t)

	t.Run("stdio", func(t *testing.T) {
		ctx := testContext(t)
		path := filepath.Join(t.TempDir(), "orders.db") // the binary creates it
		client, err := gavelmcp.Connect(ctx, gavelmcp.Server{
			Name:    "orders-mcp",
			Command: []string{bin, "-db", path},
			Timeout: 30 * time.Second,
		})
		if err != nil {
			t.Fatalf("Connect: %v", err)
		}
		closed := false
		defer func() {
			if !closed {
				client.Close()
			}
		}()

		tools, err := client.Tools(ctx)
		if err != nil {
			t.Fatalf("Tools: %v", err)
		}
		var names []string
		for _, tool := range tools {
			names = append(names, tool.Name)
		}
		if got, want := strings.Join(names, ","), "cancel_order,get_order_status"; got != want {
			t.Errorf("tools: got %s, want %s", got, want)
		}

		for _, c := range []struct{ tool, args, want string }{
			{"get_order_status", `{"order_id":"12345"}`, `{"order_id":"12345","status":"shipped","eta":"2026-03-15"}`},
			{"cancel_order", `{"order_id":"67890","confirmation":true}`, `{"order_id":"67890","cancelled":true}`},
		} {
			call, err := client.Call(ctx, c.tool, json.RawMessage(c.args))
			if err != nil {
				t.Fatalf("Call(%s, %s): %v", c.tool, c.args, err)
			}
			if call.Result != c.want || call.IsError {
				t.Errorf("Call(%s, %s): got %q (isError %v), want %q", c.tool, c.args, call.Result, call.IsError, c.want)
			}
		}
		call, err := client.Call(ctx, "get_order_status", json.RawMessage(`{"order_id":"99999"}`))
		if err != nil {
			t.Fatalf("Call(get_order_status, 99999): %v", err)
		}
		if !call.IsError || call.Result != "order 99999 not found" {
			t.Errorf("Call(get_order_status, 99999): got %q (isError %v), want a failed call saying the order is not found", call.Result, call.IsError)
		}

		// Close closes the server's stdin and waits for it to exit.
		closed = true
		if err := client.Close(); err != nil {
			t.Fatalf("Close: %v", err)
		}
		db, err := orders.Open(ctx, path)
		if err != nil {
			t.Fatal(err)
		}
		defer db.Close()
		o, err := db.Status(ctx, "67890")
		if err != nil {
			t.Fatal(err)
		}
		if o.Status != orders.StatusCancelled {
			t.Errorf("67890 after the session: status %q, want %q", o.Status, orders.StatusCancelled)
		}
	})

	t.Run("http, SIGTERM", func(t *testing.T) {
		needSignals(t)
		ctx := testContext(t)
		p := start(t, bin, "-db", filepath.Join(t.TempDir(), "orders.db"), "-http", "127.0.0.1:0")
		url := p.waitFor(t, regexp.MustCompile(`url=(http://127\.0\.0\.1:\d+/mcp)`))

		client, err := gavelmcp.Connect(ctx, gavelmcp.Server{Name: "orders-mcp", URL: url, Timeout: 30 * time.Second})
		if err != nil {
			t.Fatalf("Connect: %v", err)
		}
		// The server is stopped with the session still open; closing the
		// session afterwards may find it gone, which is no failure.
		defer client.Close()
		call, err := client.Call(ctx, "get_order_status", json.RawMessage(`{"order_id":"67890"}`))
		if err != nil {
			t.Fatalf("Call: %v", err)
		}
		if want := `{"order_id":"67890","status":"processing","eta":"2026-03-20"}`; call.Result != want {
			t.Errorf("Call: got %q, want %q", call.Result, want)
		}

		p.stop(t, syscall.SIGTERM)
	})

	t.Run("stdio, SIGINT", func(t *testing.T) {
		needSignals(t)
		p := start(t, bin, "-db", filepath.Join(t.TempDir(), "orders.db"))
		p.waitFor(t, regexp.MustCompile(`serving MCP over stdio`))
		// stdin stays open: only the signal can end the server.
		p.stop(t, syscall.SIGINT)
	})
}

// buildBinary builds orders-mcp into a temporary directory and returns its
// path.
func buildBinary(t *testing.T) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "orders-mcp")
	if runtime.GOOS == "windows" {
		bin += ".exe"
	}
	ctx, cancel := context.WithTimeout(t.Context(), buildTimeout)
	defer cancel()
	// go test puts its own go first in PATH; "." is this package, the
	// test's working directory.
	out, err := exec.CommandContext(ctx, "go", "build", "-o", bin, ".").CombinedOutput()
	if err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	return bin
}

func needSignals(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("sends Unix signals")
	}
}

// A proc is the binary running under a test, its stderr read line by line
// as it comes.
type proc struct {
	cmd    *exec.Cmd
	exited chan struct{} // closed when the process has exited and stderr is read
	err    error         // from Wait, once exited is closed

	mu     sync.Mutex
	stderr strings.Builder
	grew   chan struct{} // closed and replaced when stderr grows
}

// start runs bin with args and kills it when t ends, if it is still
// running. Its stdin is a pipe that stays open until then.
func start(t *testing.T, bin string, args ...string) *proc {
	t.Helper()
	p := &proc{cmd: exec.Command(bin, args...), exited: make(chan struct{}), grew: make(chan struct{})}
	stdin, err := p.cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stderr, err := p.cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := p.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() {
		p.read(stderr)
		p.err = p.cmd.Wait()
		close(p.exited)
	}()
	t.Cleanup(func() {
		stdin.Close()
		p.cmd.Process.Kill()
		<-p.exited
		if t.Failed() {
			t.Logf("stderr of %s:\n%s", filepath.Base(bin), p.output())
		}
	})
	return p
}

func (p *proc) read(r io.Reader) {
	scanner := bufio.NewScanner(r)
	for scanner.Scan() {
		p.mu.Lock()
		p.stderr.WriteString(scanner.Text() + "\n")
		close(p.grew)
		p.grew = make(chan struct{})
		p.mu.Unlock()
	}
}

func (p *proc) output() string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.stderr.String()
}

// waitFor waits until stderr matches re, and returns the first submatch
// (or the whole match when re has no group). It fails t if the process
// exits or 30 seconds pass first.
func (p *proc) waitFor(t *testing.T, re *regexp.Regexp) string {
	t.Helper()
	deadline := time.After(30 * time.Second)
	for {
		p.mu.Lock()
		m := re.FindStringSubmatch(p.stderr.String())
		grew := p.grew
		p.mu.Unlock()
		if m != nil {
			return m[len(m)-1]
		}
		select {
		case <-grew:
		case <-p.exited:
			t.Fatalf("the server exited (%v) before logging %q", p.err, re)
		case <-deadline:
			t.Fatalf("the server did not log %q within 30s", re)
		}
	}
}

// stop sends sig and checks that the process exits with status 0 within
// ten seconds.
func (p *proc) stop(t *testing.T, sig os.Signal) {
	t.Helper()
	if err := p.cmd.Process.Signal(sig); err != nil {
		t.Fatalf("signal %v: %v", sig, err)
	}
	const limit = 10 * time.Second
	select {
	case <-p.exited:
	case <-time.After(limit):
		t.Fatalf("the server did not exit within %v of %v", limit, sig)
	}
	if p.err != nil {
		t.Errorf("after %v: %v, want exit status 0", sig, p.err)
	}
}
