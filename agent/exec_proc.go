package agent

import (
	"bufio"
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os/exec"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/gavelhq/gavel/internal/procgroup"
	"github.com/gavelhq/gavel/llm"
)

// The requests of the protocol, one JSON object per line.
type (
	// execSessionRequest is an open or a close.
	execSessionRequest struct {
		Type    string `json:"type"`
		ID      string `json:"id"`
		Session string `json:"session"`
	}
	execMessageRequest struct {
		Type     string            `json:"type"`
		ID       string            `json:"id"`
		Session  string            `json:"session"`
		Text     string            `json:"text"`
		Metadata map[string]string `json:"metadata"`
	}
	execEventRequest struct {
		Type    string          `json:"type"`
		ID      string          `json:"id"`
		Session string          `json:"session"`
		Name    string          `json:"name"`
		Payload json.RawMessage `json:"payload"` // null when empty
	}
	execResetRequest struct {
		Type string `json:"type"`
		ID   string `json:"id"`
	}
)

// execProc is one running agent process.
type execProc struct {
	x      *Exec
	cmd    *exec.Cmd
	cancel context.CancelFunc // kills the process group
	stdin  io.WriteCloser
	stderr *stderrTail
	writes chan []byte // lines for the writer goroutine

	answered atomic.Bool // the process has answered a request
	killed   atomic.Bool // Gavel killed the process

	mu      sync.Mutex
	pending map[string]chan []byte // by request id
	err     error                  // why the process can serve no more; set once, before done closes
	done    chan struct{}
	exited  chan struct{} // closed once the process has exited and been waited for
}

// call sends a request and waits for its answer, which must be of type
// want (or "error", which becomes an error). what describes the request
// in errors.
func (p *execProc) call(ctx context.Context, id, what, want string, req any) ([]byte, error) {
	fail := func(err error) ([]byte, error) {
		return nil, fmt.Errorf("%s: request %s (%s): %w", p.x.name, id, what, err)
	}
	line, err := json.Marshal(req)
	if err != nil {
		return fail(err)
	}
	line = append(line, '\n')
	timeout := p.x.timeout
	if !p.answered.Load() {
		timeout = p.x.startTimeout
	}
	ch := make(chan []byte, 1)
	p.mu.Lock()
	if p.err != nil {
		p.mu.Unlock()
		return fail(p.err)
	}
	p.pending[id] = ch
	p.mu.Unlock()
	defer func() {
		p.mu.Lock()
		delete(p.pending, id)
		p.mu.Unlock()
	}()

	timer := time.NewTimer(timeout)
	defer timer.Stop()
	var answer []byte
	for sent := false; answer == nil; {
		var writes chan []byte
		if !sent {
			writes = p.writes
		}
		select {
		case writes <- line:
			sent = true
		case answer = <-ch:
		case <-p.done:
			select {
			case answer = <-ch: // answered just before the end
			default:
				return fail(p.err)
			}
		case <-ctx.Done():
			return fail(fmt.Errorf("interrupted: %w", context.Cause(ctx)))
		case <-timer.C:
			if p.x.perSession {
				p.kill(fmt.Errorf("the agent process was killed after request %s (%s) got no answer within %v", id, what, timeout))
				return fail(fmt.Errorf("no answer within the timeout of %v, so the agent process was killed: %w", timeout, context.DeadlineExceeded))
			}
			return fail(fmt.Errorf("no answer within the timeout of %v (the shared process keeps running for the other sessions): %w", timeout, context.DeadlineExceeded))
		}
	}

	var head struct {
		Type    string `json:"type"`
		Message string `json:"message"`
	}
	if err := json.Unmarshal(answer, &head); err != nil {
		return fail(fmt.Errorf("the answer's type or message is not a string: %q", llm.BodyExcerpt(answer)))
	}
	switch head.Type {
	case want:
		return answer, nil
	case "error":
		if head.Message == "" {
			head.Message = "(no message)"
		}
		return fail(fmt.Errorf("the agent answered an error: %s", head.Message))
	default:
		return fail(fmt.Errorf("the agent answered type %q, want %q: %q", head.Type, want, llm.BodyExcerpt(answer)))
	}
}

// reply sends a message or an event and reads the reply.
func (p *execProc) reply(ctx context.Context, id, what string, req any) (*Reply, error) {
	start := time.Now()
	answer, err := p.call(ctx, id, what, "reply", req)
	if err != nil {
		return nil, err
	}
	reply, err := p.x.reply.read(answer)
	if err != nil {
		return nil, fmt.Errorf("%s: request %s (%s): %w: %q", p.x.name, id, what, err, llm.BodyExcerpt(answer))
	}
	return finish(reply, nil, start)
}

// write writes the requests' lines to the process's stdin, one at a time.
// A write fails only when the process is gone or closed its stdin; the
// process's exit, or the request's timeout, then says so.
func (p *execProc) write() {
	for {
		select {
		case line := <-p.writes:
			_, _ = p.stdin.Write(line)
		case <-p.done:
			return
		}
	}
}

// read reads the process's stdout, a line at a time, and hands each
// answer to the request waiting for it. Once stdout ends and the process
// has exited, the requests still waiting fail with the exit status.
func (p *execProc) read(stdout *io.PipeReader) {
	sc := bufio.NewScanner(stdout)
	sc.Buffer(make([]byte, 0, 64<<10), maxExecLine)
	for n := 1; sc.Scan(); n++ {
		if err := p.dispatch(sc.Bytes()); err != nil {
			p.kill(fmt.Errorf("protocol error: line %d of the agent's stdout %w (stdout is for answers only; write logs to stderr)%s", n, err, p.stderr.tail()))
			break
		}
	}
	switch err := sc.Err(); {
	case errors.Is(err, bufio.ErrTooLong):
		p.kill(fmt.Errorf("protocol error: a line of the agent's stdout is longer than %d MiB, the most an answer may be: it was read no further%s", maxExecLine>>20, p.stderr.tail()))
	case err != nil:
		p.kill(fmt.Errorf("protocol error: reading the agent's stdout: %w", err))
	}
	_, _ = io.Copy(io.Discard, stdout) // keep the output flowing until the process is gone
	<-p.exited
	p.fail(p.exitError())
}

// dispatch hands an answer line to the request it answers. A line for no
// waiting request (a request that timed out) is dropped; blank lines are
// skipped.
func (p *execProc) dispatch(line []byte) error {
	line = bytes.TrimSpace(line)
	if len(line) == 0 {
		return nil
	}
	if line[0] != '{' || !json.Valid(line) {
		return fmt.Errorf("is not a JSON object: %q", llm.BodyExcerpt(line))
	}
	var head struct {
		ID json.RawMessage `json:"id"`
	}
	var id string
	if json.Unmarshal(line, &head) != nil || json.Unmarshal(head.ID, &id) != nil || id == "" {
		return fmt.Errorf("has no \"id\" string: %q", llm.BodyExcerpt(line))
	}
	p.answered.Store(true)
	p.mu.Lock()
	ch, ok := p.pending[id]
	delete(p.pending, id)
	p.mu.Unlock()
	if ok {
		ch <- bytes.Clone(line) // buffered, and each id is answered once
	}
	return nil
}

// wait waits for the process to exit, kills what is left of its process
// group and ends its stdout.
func (p *execProc) wait(stdout *io.PipeWriter) {
	_ = p.cmd.Wait() // the state is in cmd.ProcessState
	procgroup.Kill(p.cmd)
	p.cancel()
	close(p.exited)
	_ = stdout.Close()
	p.x.forget(p)
}

// exitError says how the process ended, with the end of its stderr.
func (p *execProc) exitError() error {
	state := "it could not be waited for"
	if ps := p.cmd.ProcessState; ps != nil {
		state = ps.String()
	}
	return fmt.Errorf("the agent process exited unexpectedly (%s)%s", state, p.stderr.tail())
}

// fail marks the process as unable to serve, for reason. Requests waiting
// and requests to come fail with it. Only the first reason counts.
func (p *execProc) fail(reason error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.err != nil {
		return
	}
	p.err = reason
	close(p.done)
}

// kill fails the process for reason and kills its process group.
func (p *execProc) kill(reason error) {
	p.fail(reason)
	p.killed.Store(true)
	p.cancel()
}

// broken reports whether the process can serve no more.
func (p *execProc) broken() bool {
	select {
	case <-p.done:
		return true
	default:
		return false
	}
}

// stop ends the process: requests still waiting fail with reason, its
// stdin is closed, upon which it should exit, and its process group is
// killed if it has not exited within execStopGrace. Stopping a stopped
// process does nothing. It returns an error when the process exited with
// a failure status once its stdin was closed.
func (p *execProc) stop(reason error) error {
	select {
	case <-p.exited:
		p.fail(reason)
		return nil // exited before: its requests said why
	default:
	}
	p.fail(reason)
	_ = p.stdin.Close()
	timer := time.NewTimer(execStopGrace)
	defer timer.Stop()
	select {
	case <-p.exited:
	case <-timer.C:
		p.killed.Store(true)
		p.cancel()
		<-p.exited
		return nil
	}
	if ps := p.cmd.ProcessState; ps != nil && !ps.Success() && !p.killed.Load() {
		return fmt.Errorf("%s: the agent process failed once its stdin was closed (%s)%s", p.x.name, ps, p.stderr.tail())
	}
	return nil
}

// stderrTail keeps the end of a process's stderr for errors, passing it on
// to user when set.
type stderrTail struct {
	user io.Writer
	// stream names what is kept in errors. Defaults to "stderr".
	stream string

	mu      sync.Mutex
	buf     []byte // the last stderrKeep bytes
	dropped bool
}

// Write keeps the end of b. It never fails, whatever user does.
func (t *stderrTail) Write(b []byte) (int, error) {
	if t.user != nil {
		_, _ = t.user.Write(b)
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	t.buf = append(t.buf, b...)
	if len(t.buf) > stderrKeep {
		t.buf = append([]byte(nil), t.buf[len(t.buf)-stderrKeep:]...)
		t.dropped = true
	}
	return len(b), nil
}

// tail formats the last lines of stderr for an error, on lines of their
// own after a header.
func (t *stderrTail) tail() string {
	t.mu.Lock()
	text := string(t.buf)
	dropped := t.dropped
	t.mu.Unlock()
	if dropped {
		// The first line kept may be the end of a longer one.
		if _, rest, ok := strings.Cut(text, "\n"); ok {
			text = rest
		}
	}
	text = strings.TrimRight(text, "\n")
	stream := cmp.Or(t.stream, "stderr")
	if strings.TrimSpace(text) == "" {
		return " (nothing on " + stream + ")"
	}
	lines := strings.Split(text, "\n")
	header := "\n--- " + stream + ":\n"
	if len(lines) > stderrTailLines || dropped {
		lines = lines[max(0, len(lines)-stderrTailLines):]
		header = fmt.Sprintf("\n--- %s (last %d lines):\n", stream, len(lines))
	}
	return header + strings.Join(lines, "\n")
}

// plainArg is a command-line argument a shell reads as it is.
var plainArg = regexp.MustCompile(`^[A-Za-z0-9_./:=,+@%^-]+$`)

// maxCommandName bounds the command line shown in errors.
const maxCommandName = 80

// quoteCommand writes args as a shell would read them, cut to
// maxCommandName bytes, and quotes the whole.
func quoteCommand(args []string) string {
	quoted := make([]string, len(args))
	for i, a := range args {
		if plainArg.MatchString(a) {
			quoted[i] = a
		} else {
			quoted[i] = "'" + strings.ReplaceAll(a, "'", `'\''`) + "'"
		}
	}
	s := strings.Join(quoted, " ")
	if len(s) > maxCommandName {
		s = cutUTF8(s, maxCommandName) + "…"
	}
	return strconv.Quote(s)
}
