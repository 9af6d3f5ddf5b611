package rule

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/gavelhq/gavel/internal/procgroup"
	"github.com/gavelhq/gavel/llm"
)

// Persistent mode: one process judges every trial, a JSON object per line
// each way, as the exec agents speak (docs/exec-protocol.md): each request
// has an "id" its answer echoes, answers come in any order, stderr is
// kept for the messages of a crash, and a line that breaks the protocol
// kills the process.

// programServer runs the process of a persistent program: one at a time,
// started at the first judgment and again after it died.
type programServer struct {
	name    string
	args    []string
	dir     string
	env     []string
	timeout time.Duration

	mu     sync.Mutex
	closed bool
	proc   *programProc // once started
}

// programProc is one running persistent program.
type programProc struct {
	p      *programServer
	cmd    *exec.Cmd
	cancel context.CancelFunc // kills the process group
	stdin  io.WriteCloser
	stderr *lockedTail
	ids    atomic.Uint64

	writeMu sync.Mutex // one line at a time on stdin

	mu      sync.Mutex
	pending map[string]chan []byte // by id; a request given up on stays until answered
	err     error                  // why the process serves no more; set once, before done closes
	done    chan struct{}
	exited  chan struct{} // closed once the process has exited and been waited for
	killed  atomic.Bool
}

// ask sends in to the persistent process, started if need be, and
// returns its answer line.
func (p *programServer) ask(ctx context.Context, in programInput) ([]byte, error) {
	proc, err := p.process()
	if err != nil {
		return nil, err
	}
	return proc.call(ctx, in)
}

// process returns the running process, starting one when there is none
// or the last one died.
func (p *programServer) process() (*programProc, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.closed {
		return nil, errors.New("the judge was closed")
	}
	if p.proc != nil && !p.proc.broken() {
		return p.proc, nil
	}
	proc, err := p.start()
	if err != nil {
		return nil, err
	}
	p.proc = proc
	return proc, nil
}

// start starts a process and the goroutines that read it and wait for it.
func (p *programServer) start() (*programProc, error) {
	ctx, cancel := context.WithCancel(context.Background())
	cmd := exec.CommandContext(ctx, p.args[0], p.args[1:]...)
	cmd.Dir = p.dir
	if len(p.env) > 0 {
		cmd.Env = append(os.Environ(), p.env...)
	}
	procgroup.Set(cmd)
	procgroup.KillOnCancel(cmd)
	cmd.WaitDelay = commandWaitDelay
	proc := &programProc{
		p: p, cmd: cmd, cancel: cancel,
		stderr:  &lockedTail{buf: tailBuffer{max: defaultOutputCap}},
		pending: map[string]chan []byte{},
		done:    make(chan struct{}),
		exited:  make(chan struct{}),
	}
	stdin, err := cmd.StdinPipe()
	if err != nil {
		cancel()
		return nil, fmt.Errorf("start: %w", err)
	}
	proc.stdin = stdin
	pr, pw := io.Pipe()
	cmd.Stdout, cmd.Stderr = pw, proc.stderr
	if err := cmd.Start(); err != nil {
		cancel()
		return nil, fmt.Errorf("cannot run %q: %w", p.args[0], err)
	}
	go proc.wait(pw)
	go proc.read(pr)
	return proc, nil
}

// call sends a request and waits for its answer.
func (q *programProc) call(ctx context.Context, in programInput) ([]byte, error) {
	in.ID = strconv.FormatUint(q.ids.Add(1), 10)
	line, err := in.marshal()
	if err != nil {
		return nil, err
	}
	fail := func(err error) ([]byte, error) { return nil, fmt.Errorf("request %s: %w", in.ID, err) }
	ch := make(chan []byte, 1)
	q.mu.Lock()
	if q.err != nil {
		q.mu.Unlock()
		return fail(q.err)
	}
	q.pending[in.ID] = ch
	q.mu.Unlock()
	go func() { // a process that reads no more blocks the write until it is killed
		q.writeMu.Lock()
		defer q.writeMu.Unlock()
		_, _ = q.stdin.Write(line)
	}()

	timer := time.NewTimer(q.p.timeout)
	defer timer.Stop()
	select {
	case answer := <-ch:
		return answer, nil
	case <-q.done:
		select {
		case answer := <-ch: // answered just before the end
			return answer, nil
		default:
			return fail(q.reason())
		}
	case <-ctx.Done():
		// The id stays pending: its answer, when it comes, is dropped.
		return fail(fmt.Errorf("interrupted: %w", context.Cause(ctx)))
	case <-timer.C:
		q.kill(fmt.Errorf("the program was killed: request %s got no answer within %v", in.ID, q.p.timeout))
		return fail(fmt.Errorf("no answer within the timeout of %v, so the program was killed (the next judgment starts it again): %w%s", q.p.timeout, context.DeadlineExceeded, q.stderr.tail()))
	}
}

// read reads the process's stdout a line at a time and hands each answer
// to the request waiting for it. Once stdout ends and the process has
// exited, the requests still waiting fail with the exit status.
func (q *programProc) read(stdout *io.PipeReader) {
	sc := bufio.NewScanner(stdout)
	sc.Buffer(make([]byte, 0, 64<<10), maxProgramAnswer)
	for n := 1; sc.Scan(); n++ {
		if err := q.dispatch(sc.Bytes()); err != nil {
			q.kill(fmt.Errorf("protocol error: line %d of the program's stdout %w (stdout is for answers only, one JSON object per line; write logs to stderr)%s", n, err, q.stderr.tail()))
			break
		}
	}
	switch err := sc.Err(); {
	case errors.Is(err, bufio.ErrTooLong):
		q.kill(fmt.Errorf("protocol error: a line of the program's stdout is longer than %d MiB, the most an answer may be%s", maxProgramAnswer>>20, q.stderr.tail()))
	case err != nil:
		q.kill(fmt.Errorf("protocol error: reading the program's stdout: %w", err))
	}
	_, _ = io.Copy(io.Discard, stdout) // keep the output flowing until the process is gone
	<-q.exited
	state := "it could not be waited for"
	if ps := q.cmd.ProcessState; ps != nil {
		state = ps.String()
	}
	q.fail(fmt.Errorf("the program exited (%s) with judgments still to answer: a persistent judge runs until its stdin ends%s", state, q.stderr.tail()))
}

// dispatch hands an answer line to the request it answers. Blank lines
// are skipped; a line that is not a JSON object with the id of a request
// waiting for its answer breaks the protocol.
func (q *programProc) dispatch(line []byte) error {
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
	q.mu.Lock()
	ch, ok := q.pending[id]
	delete(q.pending, id)
	q.mu.Unlock()
	if !ok {
		return fmt.Errorf("answers id %q, which no judgment is waiting for (answered twice, or never asked): %q", id, llm.BodyExcerpt(line))
	}
	ch <- bytes.Clone(line) // buffered, and each id is answered once
	return nil
}

// wait waits for the process to exit, kills what is left of its process
// group and ends its stdout.
func (q *programProc) wait(stdout *io.PipeWriter) {
	_ = q.cmd.Wait() // the state is in cmd.ProcessState
	procgroup.Kill(q.cmd)
	q.cancel()
	close(q.exited)
	_ = stdout.Close()
}

// fail marks the process as unable to serve, for reason; only the first
// reason counts.
func (q *programProc) fail(reason error) {
	q.mu.Lock()
	defer q.mu.Unlock()
	if q.err != nil {
		return
	}
	q.err = reason
	close(q.done)
}

// reason says why the process serves no more.
func (q *programProc) reason() error {
	q.mu.Lock()
	defer q.mu.Unlock()
	return q.err
}

// kill fails the process for reason and kills its process group.
func (q *programProc) kill(reason error) {
	q.fail(reason)
	q.killed.Store(true)
	q.cancel()
}

// broken reports whether the process can serve no more.
func (q *programProc) broken() bool {
	select {
	case <-q.done:
		return true
	default:
		return false
	}
}

// stop closes the process's stdin, upon which it should exit, and kills
// its process group if it has not within programStopGrace. It returns an
// error when the process exited with a failure status.
func (q *programProc) stop() error {
	q.fail(errors.New("the judge was closed"))
	_ = q.stdin.Close() // a write blocked on it fails
	timer := time.NewTimer(programStopGrace)
	defer timer.Stop()
	select {
	case <-q.exited:
	case <-timer.C:
		q.killed.Store(true)
		q.cancel()
		<-q.exited
		return nil
	}
	if ps := q.cmd.ProcessState; ps != nil && !ps.Success() && !q.killed.Load() {
		return fmt.Errorf("%s: the program failed once its stdin was closed (%s)%s", q.p.name, ps, q.stderr.tail())
	}
	return nil
}

// close stops the process, if one runs, and refuses judgments after.
func (p *programServer) close() error {
	p.mu.Lock()
	p.closed = true
	proc := p.proc
	p.proc = nil
	p.mu.Unlock()
	if proc == nil {
		return nil
	}
	return proc.stop()
}

// lockedTail keeps the end of a process's stderr, written and read at
// once.
type lockedTail struct {
	mu  sync.Mutex
	buf tailBuffer
}

// Write keeps the end of b. It never fails.
func (t *lockedTail) Write(b []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.buf.Write(b)
}

// tail formats the end of stderr for an error, or says it is empty.
func (t *lockedTail) tail() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	if s := streamTail("stderr", &t.buf); s != "" {
		return s
	}
	return " (nothing on stderr)"
}
