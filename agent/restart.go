package agent

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/gavelhq/gavel/internal/procgroup"
	"github.com/gavelhq/gavel/secret"
)

const (
	defaultRestartTimeout = time.Minute
	// readyPause is how long the readiness check waits between two tries.
	readyPause = 100 * time.Millisecond
)

// RestartConfig configures WithRestart.
type RestartConfig struct {
	// Command restarts the agent's process or server and exits 0 once the
	// old one has stopped. It runs directly, not through a shell, in Dir,
	// with Env (KEY=VALUE entries) added to the environment, stdin empty,
	// in a process group of its own: a server it starts in the background
	// keeps running after it exits (and should send its output to a file
	// of its own), but the whole group is killed when the command outlives
	// Timeout.
	Command []string
	Dir     string
	Env     []string
	// Ready, if set, is a URL asked with GET once the command has exited,
	// again and again, until it answers with a status below 500: the agent
	// is up.
	Ready string
	// Timeout bounds the command and the wait for Ready together.
	// Defaults to 1 minute.
	Timeout time.Duration
	// Stderr, if set, receives the command's output (stdout and stderr)
	// once it has exited. Its last lines are in errors either way.
	Stderr io.Writer
	// Client asks Ready. Defaults to http.DefaultClient.
	Client *http.Client
}

// WithRestart returns a, revived by restarting its process or server: to
// revive a session (Revive), the session is closed, c.Command runs, Gavel
// waits for c.Ready, and the session is opened again, so that what the
// agent kept only in memory is gone, as after a deploy or a crash.
//
// A restart disturbs every session of the agent, so it happens alone: it
// waits until no other session of the agent is open, and sessions opened
// meanwhile wait until it is done. Trials that revive by restart therefore
// run one at a time, whatever the concurrency; the wait counts against
// their timeout.
//
// The agent returned is a Reviver and a Restarter; its sessions are
// Dispatchers when a's are.
func WithRestart(a Agent, c RestartConfig) (Agent, error) {
	if len(c.Command) == 0 || c.Command[0] == "" {
		return nil, errors.New("restart: no program given in Command")
	}
	r := &restarting{agent: a, c: c, name: "restart command " + quoteCommand(c.Command)}
	r.c.Command, r.c.Env = slices.Clone(c.Command), slices.Clone(c.Env)
	for _, e := range c.Env {
		if k, _, ok := strings.Cut(e, "="); !ok || k == "" {
			return nil, fmt.Errorf("%s: env entry %q is not KEY=VALUE", r.name, e)
		}
	}
	switch {
	case c.Timeout < 0:
		return nil, fmt.Errorf("%s: negative timeout %v", r.name, c.Timeout)
	case c.Timeout == 0:
		r.c.Timeout = defaultRestartTimeout
	}
	if c.Ready != "" {
		if err := checkHTTPURL(c.Ready); err != nil {
			return nil, fmt.Errorf("%s: Ready: %w", r.name, err)
		}
	}
	if r.c.Client == nil {
		r.c.Client = http.DefaultClient
	}
	if filepath.Base(c.Command[0]) == c.Command[0] {
		if _, err := exec.LookPath(c.Command[0]); err != nil {
			return nil, fmt.Errorf("%s: %w", r.name, err)
		}
	}
	return r, nil
}

// restarting is an agent that WithRestart revives by restarting it.
type restarting struct {
	agent Agent
	c     RestartConfig
	name  string // for errors
	gate  gate
}

// Open opens a session once no restart is running or waiting.
func (r *restarting) Open(ctx context.Context, sessionID string) (Session, error) {
	if err := r.gate.enter(ctx); err != nil {
		return nil, fmt.Errorf("open session %q: waiting for the agent to restart: %w", sessionID, err)
	}
	s, err := r.agent.Open(ctx, sessionID)
	if err != nil {
		r.gate.leave()
		return nil, err
	}
	rs := &restartingSession{Session: s, gate: &r.gate}
	if d, ok := s.(Dispatcher); ok {
		return &restartingDispatcher{rs, d}, nil
	}
	return rs, nil
}

// Revival says that the agent is restarted.
func (r *restarting) Revival() (string, error) {
	return "agent restarted by command between closing and reopening the session", nil
}

// Restart runs the command and waits for the agent to be ready, once no
// other session is open.
func (r *restarting) Restart(ctx context.Context) error {
	if err := r.gate.alone(ctx, func() error { return r.restart(ctx) }); err != nil {
		return fmt.Errorf("%s: %w", r.name, err)
	}
	return nil
}

// restart runs the command, then waits for Ready.
func (r *restarting) restart(ctx context.Context) error {
	ctx, cancel := context.WithTimeout(ctx, r.c.Timeout)
	defer cancel()
	if err := r.run(ctx); err != nil {
		return err
	}
	if r.c.Ready == "" {
		return nil
	}
	return r.waitReady(ctx)
}

// run runs the command. Its output goes to a file rather than a pipe, so
// that a server left in the background holds no pipe Gavel waits on.
func (r *restarting) run(ctx context.Context) error {
	out, err := os.CreateTemp("", "gavel-restart-*.log")
	if err != nil {
		return err
	}
	defer os.Remove(out.Name())
	defer out.Close()
	cmd := exec.CommandContext(ctx, r.c.Command[0], r.c.Command[1:]...)
	cmd.Dir = r.c.Dir
	if len(r.c.Env) > 0 {
		cmd.Env = append(os.Environ(), r.c.Env...)
	}
	cmd.Stdout, cmd.Stderr = out, out
	procgroup.Set(cmd)
	procgroup.KillOnCancel(cmd)
	runErr := cmd.Run()

	tail := &stderrTail{user: r.c.Stderr, stream: "output"}
	if _, err := out.Seek(0, io.SeekStart); err == nil {
		_, _ = io.Copy(tail, out)
	}
	switch {
	case runErr == nil:
		return nil
	case errors.Is(ctx.Err(), context.DeadlineExceeded):
		return fmt.Errorf("did not finish within the timeout of %v: %w%s", r.c.Timeout, context.DeadlineExceeded, tail.tail())
	case ctx.Err() != nil:
		return fmt.Errorf("interrupted: %w", context.Cause(ctx))
	}
	return fmt.Errorf("%w%s", runErr, tail.tail())
}

// waitReady asks Ready until it answers with a status below 500.
func (r *restarting) waitReady(ctx context.Context) error {
	last := errors.New("no answer yet")
	for {
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, r.c.Ready, nil)
		if err != nil {
			return err
		}
		resp, err := r.c.Client.Do(req)
		if err == nil {
			resp.Body.Close()
			if resp.StatusCode < 500 {
				return nil
			}
			last = fmt.Errorf("it answered %s", resp.Status)
		} else if ctx.Err() == nil {
			last = err
		}
		select {
		case <-ctx.Done():
			if errors.Is(ctx.Err(), context.DeadlineExceeded) {
				return fmt.Errorf("the agent was not ready at %s within the timeout of %v (%v): %w",
					secret.Address(r.c.Ready), r.c.Timeout, last, context.DeadlineExceeded)
			}
			return fmt.Errorf("interrupted while waiting for %s: %w", secret.Address(r.c.Ready), context.Cause(ctx))
		case <-time.After(readyPause):
		}
	}
}

// restartingSession lets the restart gate know when it closes.
type restartingSession struct {
	Session
	gate *gate
	once sync.Once
}

func (s *restartingSession) Close(ctx context.Context) error {
	err := s.Session.Close(ctx)
	s.once.Do(s.gate.leave)
	return err
}

type restartingDispatcher struct {
	*restartingSession
	d Dispatcher
}

func (s *restartingDispatcher) Dispatch(ctx context.Context, e Event) (*Reply, error) {
	return s.d.Dispatch(ctx, e)
}

// A gate lets sessions be open together and a restart run alone: a
// restart waits until no session is open, and sessions wait while a
// restart runs or waits to run. The zero gate is open.
type gate struct {
	mu         sync.Mutex
	open       int           // sessions open
	waiting    int           // restarts waiting for the sessions to close
	restarting bool          // a restart runs
	changed    chan struct{} // closed, and replaced, when any of the above changes
}

// wait returns a channel closed at the next change. g.mu is held.
func (g *gate) wait() <-chan struct{} {
	if g.changed == nil {
		g.changed = make(chan struct{})
	}
	return g.changed
}

// broadcast wakes everyone waiting. g.mu is held.
func (g *gate) broadcast() {
	if g.changed != nil {
		close(g.changed)
		g.changed = nil
	}
}

// enter lets a session in once no restart runs or waits.
func (g *gate) enter(ctx context.Context) error {
	g.mu.Lock()
	for g.restarting || g.waiting > 0 {
		changed := g.wait()
		g.mu.Unlock()
		select {
		case <-changed:
		case <-ctx.Done():
			return context.Cause(ctx)
		}
		g.mu.Lock()
	}
	g.open++
	g.mu.Unlock()
	return nil
}

// leave lets a session out.
func (g *gate) leave() {
	g.mu.Lock()
	g.open--
	g.broadcast()
	g.mu.Unlock()
}

// alone runs restart once no session is open and no other restart runs.
func (g *gate) alone(ctx context.Context, restart func() error) error {
	g.mu.Lock()
	g.waiting++
	for g.open > 0 || g.restarting {
		changed := g.wait()
		g.mu.Unlock()
		select {
		case <-changed:
		case <-ctx.Done():
			g.mu.Lock()
			g.waiting--
			g.broadcast()
			g.mu.Unlock()
			return fmt.Errorf("waiting for the agent's other sessions to close: %w", context.Cause(ctx))
		}
		g.mu.Lock()
	}
	g.waiting--
	g.restarting = true
	g.mu.Unlock()

	defer func() {
		g.mu.Lock()
		g.restarting = false
		g.broadcast()
		g.mu.Unlock()
	}()
	return restart()
}
