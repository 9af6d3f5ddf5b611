package agent

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/gavelhq/gavel/internal/procgroup"
)

// The modes of an exec agent (ExecConfig.Mode).
const (
	// ExecShared runs one long-lived process that serves every session.
	ExecShared = "shared"
	// ExecPerSession runs a process for each session, from Open to Close.
	ExecPerSession = "per-session"
)

const (
	defaultExecTimeout = 2 * time.Minute

	// execStopGrace is how long a process has to exit once its stdin is
	// closed before its process group is killed.
	execStopGrace = 5 * time.Second
	// execWaitDelay is how long the output of an exited process may stay
	// open (a child holding it) before Gavel stops reading it.
	execWaitDelay = 2 * time.Second

	// maxExecLine bounds a line of the agent's stdout.
	maxExecLine = 16 << 20
	// An error about a process shows at most the last stderrTailLines
	// lines of its stderr, out of the last stderrKeep bytes kept.
	stderrTailLines = 20
	stderrKeep      = 16 << 10
)

// ExecConfig configures NewExec.
type ExecConfig struct {
	// Command is the program and its arguments. The program runs
	// directly, not through a shell. A name without a slash is looked up
	// in PATH; a relative path with one is relative to Dir.
	Command []string
	// Dir is the directory the program runs in. Defaults to Gavel's.
	Dir string
	// Env holds KEY=VALUE entries added to the environment the program
	// inherits; they win over inherited ones.
	Env []string
	// Mode is ExecShared (one long-lived process multiplexing every
	// session, answering requests by id, in any order) or ExecPerSession
	// (a process per session, started by Open and stopped after Close).
	// Defaults to ExecShared.
	Mode string
	// Timeout bounds each request, from sending it to its answer.
	// Defaults to 2 minutes.
	Timeout time.Duration
	// StartTimeout replaces Timeout for the requests sent to a process
	// before it first answers, for an agent slow to start (loading a
	// model). Defaults to Timeout.
	StartTimeout time.Duration
	// Stderr, if set, receives the agent's stderr as it is written. The
	// last lines are kept for errors either way.
	Stderr io.Writer
}

// Exec is an agent run as a subprocess that speaks JSON Lines on its
// stdin and stdout (docs/exec-protocol.md has the protocol, and an agent
// in Python): Gavel writes one request per line, the agent answers one
// object per line, echoing the request's id. Stderr is free for the
// agent's logs.
//
// In shared mode (the default) one process serves every session, several
// at once, and answers in any order; it starts at the first Open or Reset
// and runs until Close. If it dies, the sessions it served fail, and the
// next Open starts a new process. In per-session mode, Open starts a
// process for the session and the session's Close stops it; reviving the
// session starts a new process, which must find the conversation in
// whatever storage the agent keeps.
//
// A process is stopped by closing its stdin, upon which it should exit;
// if it has not within 5 seconds, it is killed. On Unix it runs in a
// process group of its own, which is killed as a whole once it exits or
// is killed, so that no child it started outlives it.
//
// A request fails when the agent answers an error; when the process
// exits, or cannot start, with the exit status and the last lines of its
// stderr; when the agent prints on stdout a line that is not a JSON object
// (quoted in the error), which also ends the process; and when no answer
// comes within the timeout, an error wrapping context.DeadlineExceeded. At
// a timeout, a per-session process is killed; a shared process is kept
// for the other sessions, and the error names the request that timed out.
//
// Exec is a Resetter, and its sessions are Dispatchers.
type Exec struct {
	command      []string
	dir          string
	env          []string
	perSession   bool
	timeout      time.Duration
	startTimeout time.Duration
	stderr       io.Writer
	name         string // for errors: exec agent "command line"
	reply        replyReader

	ids atomic.Uint64

	mu     sync.Mutex
	closed bool
	shared *execProc              // in shared mode, once started
	procs  map[*execProc]struct{} // every process not yet exited
}

// NewExec returns the agent c describes. It starts nothing. It is an
// error for Command to be empty or name a program that is not in PATH, for
// an Env entry not to be KEY=VALUE, for Mode to be unknown, or for a
// timeout to be negative.
func NewExec(c ExecConfig) (*Exec, error) {
	if len(c.Command) == 0 || c.Command[0] == "" {
		return nil, errors.New("exec agent: no program given in Command")
	}
	x := &Exec{
		command:      slices.Clone(c.Command),
		dir:          c.Dir,
		env:          slices.Clone(c.Env),
		timeout:      c.Timeout,
		startTimeout: c.StartTimeout,
		stderr:       c.Stderr,
		name:         "exec agent " + quoteCommand(c.Command),
		procs:        map[*execProc]struct{}{},
	}
	for _, e := range c.Env {
		if k, _, ok := strings.Cut(e, "="); !ok || k == "" {
			return nil, fmt.Errorf("%s: env entry %q is not KEY=VALUE", x.name, e)
		}
	}
	switch c.Mode {
	case "", ExecShared:
	case ExecPerSession:
		x.perSession = true
	default:
		return nil, fmt.Errorf("%s: unknown mode %q, want %q or %q", x.name, c.Mode, ExecShared, ExecPerSession)
	}
	switch {
	case c.Timeout < 0:
		return nil, fmt.Errorf("%s: negative timeout %v", x.name, c.Timeout)
	case c.StartTimeout < 0:
		return nil, fmt.Errorf("%s: negative start timeout %v", x.name, c.StartTimeout)
	}
	if x.timeout == 0 {
		x.timeout = defaultExecTimeout
	}
	if x.startTimeout == 0 {
		x.startTimeout = x.timeout
	}
	if filepath.Base(c.Command[0]) == c.Command[0] {
		if _, err := exec.LookPath(c.Command[0]); err != nil {
			return nil, fmt.Errorf("%s: %w", x.name, err)
		}
	}
	var err error
	if x.reply, err = (ReplyMapping{}).compile("/text"); err != nil {
		return nil, err // the default mapping always compiles
	}
	return x, nil
}

// String describes the agent by its command line.
func (x *Exec) String() string { return x.name }

// errExecClosed is why requests fail once the agent is closed.
var errExecClosed = errors.New("the exec agent was closed")

// Open opens the session id: in shared mode on the shared process,
// started if need be, and in per-session mode on a process of its own.
func (x *Exec) Open(ctx context.Context, sessionID string) (Session, error) {
	p, err := x.process()
	if err != nil {
		return nil, err
	}
	id := x.newID()
	_, err = p.call(ctx, id, fmt.Sprintf("open of session %q", sessionID), "ok",
		execSessionRequest{Type: "open", ID: id, Session: sessionID})
	if err != nil {
		if x.perSession {
			_ = p.stop(errors.New("its session could not be opened"))
		}
		return nil, err
	}
	return &execSession{x: x, p: p, id: sessionID}, nil
}

// process returns the process a new session or a reset talks to: the
// shared one, started if need be, or in per-session mode a new one.
func (x *Exec) process() (*execProc, error) {
	if x.perSession {
		return x.start()
	}
	return x.sharedProc()
}

// Reset asks the agent to forget everything. In per-session mode a
// process is started for the request and stopped after it.
func (x *Exec) Reset(ctx context.Context) error {
	p, err := x.process()
	if err != nil {
		return err
	}
	id := x.newID()
	_, err = p.call(ctx, id, "reset", "ok", execResetRequest{Type: "reset", ID: id})
	if x.perSession {
		err = errors.Join(err, p.stop(errors.New("the reset is done")))
	}
	return err
}

// Close stops every process of the agent: the shared one, and those of
// per-session sessions still open. Requests still waiting fail. It
// returns an error when a process exited with a failure status once its
// stdin was closed.
func (x *Exec) Close() error {
	x.mu.Lock()
	x.closed = true
	x.shared = nil
	procs := make([]*execProc, 0, len(x.procs))
	for p := range x.procs {
		procs = append(procs, p)
	}
	x.mu.Unlock()

	errs := make([]error, len(procs))
	var wg sync.WaitGroup
	for i, p := range procs {
		wg.Go(func() { errs[i] = p.stop(errExecClosed) })
	}
	wg.Wait()
	return errors.Join(errs...)
}

func (x *Exec) newID() string { return strconv.FormatUint(x.ids.Add(1), 10) }

// sharedProc returns the shared process, starting it when there is none
// or the last one can no longer serve.
func (x *Exec) sharedProc() (*execProc, error) {
	x.mu.Lock()
	defer x.mu.Unlock()
	if x.closed {
		return nil, fmt.Errorf("%s: %w", x.name, errExecClosed)
	}
	if x.shared != nil && !x.shared.broken() {
		return x.shared, nil
	}
	p, err := x.startLocked()
	if err != nil {
		return nil, err
	}
	x.shared = p
	return p, nil
}

// start starts a process.
func (x *Exec) start() (*execProc, error) {
	x.mu.Lock()
	defer x.mu.Unlock()
	if x.closed {
		return nil, fmt.Errorf("%s: %w", x.name, errExecClosed)
	}
	return x.startLocked()
}

// startLocked starts a process and the goroutines that feed it, read it
// and wait for it. x.mu is held.
func (x *Exec) startLocked() (*execProc, error) {
	ctx, cancel := context.WithCancel(context.Background())
	cmd := exec.CommandContext(ctx, x.command[0], x.command[1:]...)
	cmd.Dir = x.dir
	if len(x.env) > 0 {
		cmd.Env = append(os.Environ(), x.env...)
	}
	procgroup.Set(cmd)
	procgroup.KillOnCancel(cmd)
	cmd.WaitDelay = execWaitDelay
	p := &execProc{
		x:       x,
		cmd:     cmd,
		cancel:  cancel,
		stderr:  &stderrTail{user: x.stderr},
		writes:  make(chan []byte),
		pending: map[string]chan []byte{},
		done:    make(chan struct{}),
		exited:  make(chan struct{}),
	}
	stdin, err := cmd.StdinPipe()
	if err != nil {
		cancel()
		return nil, fmt.Errorf("%s: start: %w", x.name, err)
	}
	p.stdin = stdin
	pr, pw := io.Pipe()
	cmd.Stdout = pw
	cmd.Stderr = p.stderr
	if err := cmd.Start(); err != nil {
		cancel()
		return nil, notStarted{fmt.Errorf("%s: start: %w", x.name, err)}
	}
	x.procs[p] = struct{}{}
	go p.wait(pw)
	go p.read(pr)
	go p.write()
	return p, nil
}

// forget drops a process that has exited.
func (x *Exec) forget(p *execProc) {
	x.mu.Lock()
	defer x.mu.Unlock()
	delete(x.procs, p)
	if x.shared == p {
		x.shared = nil
	}
}

// execSession is a session of an exec agent.
type execSession struct {
	x      *Exec
	p      *execProc
	id     string
	closed atomic.Bool
}

// Send sends msg to the agent.
func (s *execSession) Send(ctx context.Context, msg Message) (*Reply, error) {
	if s.closed.Load() {
		return nil, fmt.Errorf("%s: session %q is closed", s.x.name, s.id)
	}
	metadata := msg.Metadata
	if metadata == nil {
		metadata = map[string]string{}
	}
	id := s.x.newID()
	return s.p.reply(ctx, id, fmt.Sprintf("message to session %q", s.id),
		execMessageRequest{Type: "message", ID: id, Session: s.id, Text: msg.Text, Metadata: metadata})
}

// Dispatch sends e to the agent.
func (s *execSession) Dispatch(ctx context.Context, e Event) (*Reply, error) {
	if s.closed.Load() {
		return nil, fmt.Errorf("%s: session %q is closed", s.x.name, s.id)
	}
	what := fmt.Sprintf("event %q to session %q", e.Name, s.id)
	if len(e.Payload) > 0 && !json.Valid(e.Payload) {
		return nil, fmt.Errorf("%s: %s: the payload is not valid JSON", s.x.name, what)
	}
	id := s.x.newID()
	return s.p.reply(ctx, id, what,
		execEventRequest{Type: "event", ID: id, Session: s.id, Name: e.Name, Payload: e.Payload})
}

// Close tells the agent the session is closed and, in per-session mode,
// stops its process. Closing a closed session does nothing.
func (s *execSession) Close(ctx context.Context) error {
	if s.closed.Swap(true) {
		return nil
	}
	id := s.x.newID()
	_, err := s.p.call(ctx, id, fmt.Sprintf("close of session %q", s.id), "ok",
		execSessionRequest{Type: "close", ID: id, Session: s.id})
	if s.x.perSession {
		err = errors.Join(err, s.p.stop(errors.New("its session was closed")))
	}
	return err
}

// notStarted is the error of an agent process that could not be started
// (no such program, not executable): the agent could not be reached, as
// judge.CauseOf reads it.
type notStarted struct{ error }

func (e notStarted) Unwrap() error { return e.error }

// Unreachable says that the agent could not be reached (see
// judge.CauseOf).
func (notStarted) Unreachable() bool { return true }
