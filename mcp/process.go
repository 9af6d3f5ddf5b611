package mcp

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/gavelhq/gavel/internal/procgroup"
	mcpsdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// How long closing a stdio server waits for it to exit: after closing its
// stdin (the MCP spec's polite request), then after SIGTERM; then it is
// killed.
const (
	exitGrace = 2 * time.Second
	termGrace = 2 * time.Second
)

// stderrTailBytes is how much of a stdio server's stderr is kept for errors.
const stderrTailBytes = 4 << 10

// A process is a stdio MCP server: a command Gavel started, its pipes and
// the tail of its stderr. Unlike the SDK's CommandTransport, it waits for
// the process as soon as it starts, so an exit is noticed (and its status
// known) while the handshake is still under way, and it kills the whole
// process group on close, so the children of a wrapper (npx, a shell)
// die too.
type process struct {
	program string
	cmd     *exec.Cmd
	stdin   *os.File // the write end of the command's stdin
	stdout  *os.File // the read end of the command's stdout
	stderr  *tail

	exited  chan struct{} // closed when the process has exited
	waitErr error         // cmd.Wait's error; read after exited is closed

	// hungUp is set when stdout ends or stdin breaks before Gavel closes
	// the process: the process let its pipes go (it exited) by itself.
	hungUp  atomic.Bool
	closing atomic.Bool

	closeOnce sync.Once
	mu        sync.Mutex
	killed    bool // Gavel signalled the process
}

// startProcess starts s's command.
func startProcess(s Server) (*process, error) {
	cmd := exec.Command(s.Command[0], s.Command[1:]...)
	cmd.Dir = s.Dir
	if len(s.Env) > 0 {
		cmd.Env = append(os.Environ(), s.Env...)
	}
	p := &process{program: s.Command[0], cmd: cmd, stderr: &tail{max: stderrTailBytes}, exited: make(chan struct{})}
	cmd.Stderr = p.stderr
	// A grandchild that keeps stderr open must not hold Wait forever.
	cmd.WaitDelay = time.Second
	procgroup.Set(cmd)

	inR, inW, err := os.Pipe()
	if err != nil {
		return nil, err
	}
	outR, outW, err := os.Pipe()
	if err != nil {
		inR.Close()
		inW.Close()
		return nil, err
	}
	cmd.Stdin, cmd.Stdout = inR, outW
	err = cmd.Start()
	// The child has its own copies now; closing ours lets the child see
	// EOF on stdin and us see EOF on stdout when the other side goes.
	inR.Close()
	outW.Close()
	if err != nil {
		inW.Close()
		outR.Close()
		if errors.Is(err, exec.ErrNotFound) {
			return nil, fmt.Errorf("command %q not found (is it installed and in PATH?): %w", s.Command[0], err)
		}
		return nil, fmt.Errorf("start command %q: %w", s.Command[0], err)
	}
	p.stdin, p.stdout = inW, outR
	go func() {
		p.waitErr = cmd.Wait()
		close(p.exited)
	}()
	return p, nil
}

// transport returns the SDK transport over the process's pipes. Closing
// the connection closes the process.
func (p *process) transport() mcpsdk.Transport {
	return &mcpsdk.IOTransport{Reader: stdoutReader{p}, Writer: stdinWriter{p}}
}

// stdoutReader reads the process's stdout. Its Close does nothing: the
// SDK closes the reader before the writer, and the process must see its
// stdin close first (stdinWriter.Close closes stdout once it is gone).
type stdoutReader struct{ p *process }

func (r stdoutReader) Read(b []byte) (int, error) {
	n, err := r.p.stdout.Read(b)
	if err == io.EOF && !r.p.closing.Load() {
		r.p.hungUp.Store(true)
	}
	return n, err
}

func (r stdoutReader) Close() error { return nil }

// stdinWriter writes the process's stdin; its Close shuts the process down.
type stdinWriter struct{ p *process }

func (w stdinWriter) Write(b []byte) (int, error) {
	n, err := w.p.stdin.Write(b)
	if err != nil && !w.p.closing.Load() {
		w.p.hungUp.Store(true)
	}
	return n, err
}

func (w stdinWriter) Close() error { w.p.close(); return nil }

// close shuts the process down as the MCP spec asks: close its stdin, wait
// for it to exit, then SIGTERM, then SIGKILL. Whatever is left of its
// process group is killed. close is idempotent; it returns once the
// process has exited.
func (p *process) close() {
	p.closeOnce.Do(func() {
		p.closing.Store(true)
		p.stdin.Close()
		if !p.waitExit(exitGrace) {
			p.signal(procgroup.Terminate)
			if !p.waitExit(termGrace) {
				p.signal(procgroup.Kill)
				<-p.exited
			}
		}
		procgroup.Kill(p.cmd) // children left behind by a wrapper
		p.stdout.Close()
	})
}

func (p *process) signal(send func(*exec.Cmd)) {
	p.mu.Lock()
	p.killed = true
	p.mu.Unlock()
	send(p.cmd)
}

// waitExit reports whether the process exits within d.
func (p *process) waitExit(d time.Duration) bool {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-p.exited:
		return true
	case <-t.C:
		return false
	}
}

// exitStatus describes how the process ended ("exit status 3"), and
// reports false while it runs or when Gavel had to signal it.
func (p *process) exitStatus() (string, bool) {
	select {
	case <-p.exited:
	default:
		return "", false
	}
	p.mu.Lock()
	killed := p.killed
	p.mu.Unlock()
	if killed {
		return "", false
	}
	if p.waitErr == nil {
		return "exit status 0", true
	}
	var exitErr *exec.ExitError
	if errors.As(p.waitErr, &exitErr) {
		return exitErr.ProcessState.String(), true
	}
	return p.waitErr.Error(), true
}

// stderrNote returns the tail of the process's stderr for an error
// message, or a note that it wrote nothing.
func (p *process) stderrNote() string {
	lines := p.stderr.lines(10)
	if lines == "" {
		return "it wrote nothing on stderr"
	}
	return "its stderr ends with:\n" + indent(lines)
}

// describeExit adds to err what became of the process, when it exited by
// itself, and the tail of its stderr.
func (p *process) describeExit(err error) error {
	if status, ok := p.exitStatus(); ok {
		return fmt.Errorf("%w; command %q exited (%s); %s", err, p.program, status, p.stderrNote())
	}
	return err
}

// A tail is an io.Writer that keeps the last max bytes written to it.
type tail struct {
	max int
	mu  sync.Mutex
	buf []byte
}

func (t *tail) Write(b []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.buf = append(t.buf, b...)
	if over := len(t.buf) - t.max; over > 0 {
		t.buf = append(t.buf[:0], t.buf[over:]...)
	}
	return len(b), nil
}

// lines returns the last n non-blank lines written, trimmed.
func (t *tail) lines(n int) string {
	t.mu.Lock()
	text := string(bytes.ToValidUTF8(t.buf, []byte("?")))
	t.mu.Unlock()
	var out []string
	for _, line := range strings.Split(text, "\n") {
		if line = strings.TrimRight(line, " \t\r"); line != "" {
			out = append(out, line)
		}
	}
	if len(out) > n {
		out = out[len(out)-n:]
	}
	return strings.Join(out, "\n")
}

func indent(s string) string {
	return "\t" + strings.ReplaceAll(s, "\n", "\n\t")
}
