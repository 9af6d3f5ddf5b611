//go:build unix

package agent

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"
)

// journal is an agent that notes its sessions' opens and closes, each
// with whether the file marker exists at that moment.
type journal struct {
	marker string

	mu     sync.Mutex
	events []string
}

func (j *journal) note(event string) {
	j.mu.Lock()
	defer j.mu.Unlock()
	if _, err := os.Stat(j.marker); err == nil {
		event += " after the restart"
	}
	j.events = append(j.events, event)
}

func (j *journal) Open(_ context.Context, id string) (Session, error) {
	j.note("open " + id)
	return &journalSession{j: j, id: id}, nil
}

type journalSession struct {
	j  *journal
	id string
}

func (s *journalSession) Send(context.Context, Message) (*Reply, error) {
	return &Reply{Text: "ok"}, nil
}
func (s *journalSession) Dispatch(context.Context, Event) (*Reply, error) {
	return &Reply{Text: "event"}, nil
}
func (s *journalSession) Close(context.Context) error { s.j.note("close " + s.id); return nil }

// sh is a restart command: a shell script run in dir.
func sh(script string) []string { return []string{"sh", "-c", script} }

func mustRestart(t *testing.T, a Agent, c RestartConfig) Agent {
	t.Helper()
	r, err := WithRestart(a, c)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// A revival closes the session, restarts the agent, and opens the session
// again, in that order; the transcript is told the agent was restarted.
func TestRestartRevival(t *testing.T) {
	dir := t.TempDir()
	j := &journal{marker: filepath.Join(dir, "restarted")}
	a := mustRestart(t, j, RestartConfig{Command: sh(`echo "$GREETING" > restarted`), Dir: dir, Env: []string{"GREETING=hello"}})
	s := mustOpen(t, a, "s-1")
	if _, ok := s.(Dispatcher); !ok {
		t.Error("the session of a restarted agent is no Dispatcher, though the agent's is")
	}
	s, how, err := Revive(testContext(t), a, s, "s-1")
	if err != nil {
		t.Fatal(err)
	}
	if how != "agent restarted by command between closing and reopening the session" {
		t.Errorf("how = %q", how)
	}
	if err := s.Close(testContext(t)); err != nil {
		t.Fatal(err)
	}
	want := []string{"open s-1", "close s-1", "open s-1 after the restart", "close s-1 after the restart"}
	if strings.Join(j.events, "\n") != strings.Join(want, "\n") {
		t.Errorf("events:\n%s\nwant:\n%s", strings.Join(j.events, "\n"), strings.Join(want, "\n"))
	}
	if data, _ := os.ReadFile(j.marker); string(data) != "hello\n" {
		t.Errorf("the command wrote %q, want its Env's greeting", data)
	}
}

// A server the restart command leaves running in the background keeps
// running, and the command is not waited on beyond its own exit.
func TestRestartLeavesItsServerRunning(t *testing.T) {
	dir := t.TempDir()
	a := mustRestart(t, &journal{marker: filepath.Join(dir, "none")}, RestartConfig{
		Command: sh(`sleep 60 & echo $! > server.pid`), Dir: dir,
	})
	if err := a.(Restarter).Restart(testContext(t)); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(filepath.Join(dir, "server.pid"))
	if err != nil {
		t.Fatal(err)
	}
	pid, err := strconv.Atoi(strings.TrimSpace(string(data)))
	if err != nil {
		t.Fatal(err)
	}
	defer syscall.Kill(pid, syscall.SIGKILL)
	if err := syscall.Kill(pid, 0); err != nil {
		t.Errorf("the server the command started is gone: %v", err)
	}
}

func TestRestartFailures(t *testing.T) {
	unavailable := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		http.Error(w, "starting", http.StatusServiceUnavailable)
	}))
	defer unavailable.Close()
	for _, tc := range []struct {
		name    string
		c       RestartConfig
		wantErr []string
	}{
		{"exit status", RestartConfig{Command: sh("echo stopping the agent; echo no such service >&2; exit 3")},
			[]string{`restart command "sh -c`, "exit status 3", "--- output:\nstopping the agent\nno such service"}},
		{"timeout", RestartConfig{Command: sh("sleep 10"), Timeout: 200 * time.Millisecond},
			[]string{"did not finish within the timeout of 200ms", "(nothing on output)"}},
		{"never ready", RestartConfig{Command: []string{"true"}, Ready: unavailable.URL, Timeout: 300 * time.Millisecond},
			[]string{"the agent was not ready at " + unavailable.URL + " within the timeout of 300ms (it answered 503 Service Unavailable)"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			a := mustRestart(t, &journal{}, tc.c)
			err := a.(Restarter).Restart(testContext(t))
			for _, want := range tc.wantErr {
				if err == nil || !strings.Contains(err.Error(), want) {
					t.Errorf("error = %v, want one containing %q", err, want)
				}
			}
		})
	}
}

// The readiness check asks until the agent answers with a status below
// 500.
func TestRestartWaitsUntilReady(t *testing.T) {
	var asked atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		if asked.Add(1) < 3 {
			http.Error(w, "starting", http.StatusServiceUnavailable)
			return
		}
		http.Error(w, "use POST", http.StatusMethodNotAllowed)
	}))
	defer srv.Close()
	a := mustRestart(t, &journal{}, RestartConfig{Command: []string{"true"}, Ready: srv.URL + "/chat"})
	if err := a.(Restarter).Restart(testContext(t)); err != nil {
		t.Fatal(err)
	}
	if n := asked.Load(); n != 3 {
		t.Errorf("asked %d times, want 3 (two 503s, then a 405)", n)
	}
}

// A restart waits until no other session is open, and sessions wait for
// a restart to end.
func TestRestartRunsAlone(t *testing.T) {
	dir := t.TempDir()
	a := mustRestart(t, &journal{marker: filepath.Join(dir, "none")}, RestartConfig{
		Command: sh(`touch started; while [ ! -e go ]; do sleep 0.01; done`), Dir: dir,
	})
	other := mustOpen(t, a, "other")
	short, cancel := context.WithTimeout(testContext(t), 100*time.Millisecond)
	defer cancel()
	err := a.(Restarter).Restart(short)
	if err == nil || !strings.Contains(err.Error(), "waiting for the agent's other sessions to close") {
		t.Errorf("restart with a session open: %v", err)
	}
	if _, err := os.Stat(filepath.Join(dir, "started")); err == nil {
		t.Error("the command ran while another session was open")
	}
	if err := other.Close(testContext(t)); err != nil {
		t.Fatal(err)
	}

	done := make(chan error, 1)
	go func() { done <- a.(Restarter).Restart(testContext(t)) }()
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(10 * time.Millisecond) {
		if _, err := os.Stat(filepath.Join(dir, "started")); err == nil {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the restart command did not start")
		}
	}
	short, cancel = context.WithTimeout(testContext(t), 100*time.Millisecond)
	defer cancel()
	if _, err := a.Open(short, "during"); !errors.Is(err, context.DeadlineExceeded) || !strings.Contains(err.Error(), "waiting for the agent to restart") {
		t.Errorf("open during a restart: %v", err)
	}
	if err := os.WriteFile(filepath.Join(dir, "go"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	s := mustOpen(t, a, "after")
	if err := s.Close(testContext(t)); err != nil {
		t.Fatal(err)
	}
}

func TestWithRestartErrors(t *testing.T) {
	for _, tc := range []struct {
		name    string
		c       RestartConfig
		wantErr string
	}{
		{"no command", RestartConfig{}, "no program given"},
		{"not in PATH", RestartConfig{Command: []string{"gavel-no-such-program"}}, "executable file not found"},
		{"env", RestartConfig{Command: []string{"true"}, Env: []string{"NOVALUE"}}, `env entry "NOVALUE" is not KEY=VALUE`},
		{"timeout", RestartConfig{Command: []string{"true"}, Timeout: -time.Second}, "negative timeout"},
		{"ready", RestartConfig{Command: []string{"true"}, Ready: "localhost:8080"}, "Ready:"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			a, err := WithRestart(&journal{}, tc.c)
			if err == nil || !strings.Contains(err.Error(), tc.wantErr) || a != nil {
				t.Errorf("WithRestart = %v, %v; want an error containing %q", a, err, tc.wantErr)
			}
		})
	}
}
