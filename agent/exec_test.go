//go:build unix

package agent

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gavelhq/gavel/judge"
	"github.com/google/go-cmp/cmp"
)

// echoAgent is the path of testdata/echoagent, built by TestMain.
var echoAgent string

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "gavel-agent-test-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	echoAgent = filepath.Join(dir, "echoagent")
	out, err := exec.Command("go", "build", "-o", echoAgent, "./testdata/echoagent").CombinedOutput()
	if err != nil {
		fmt.Fprintf(os.Stderr, "building testdata/echoagent: %v\n%s", err, out)
		os.RemoveAll(dir)
		os.Exit(1)
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// newEcho returns an exec agent running the echo agent, closed when the
// test ends.
func newEcho(t *testing.T, c ExecConfig) *Exec {
	t.Helper()
	c.Command = []string{echoAgent}
	x, err := NewExec(c)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = x.Close() })
	return x
}

// pidOf asks the agent behind s for its process id.
func pidOf(t *testing.T, s Session) int {
	t.Helper()
	pid, err := strconv.Atoi(mustSend(t, s, "pid").Text)
	if err != nil {
		t.Fatal(err)
	}
	return pid
}

func TestExecConversation(t *testing.T) {
	x := newEcho(t, ExecConfig{})
	s := mustOpen(t, x, "s1")
	wantText(t, s, "hello", "echo: hello")
	wantText(t, s, "how are you?", "echo: how are you?")
	wantText(t, s, "history", "hello | how are you?")

	r, err := s.Send(testContext(t), Message{Text: "hi", Metadata: map[string]string{"locale": "en-GB"}})
	if err != nil {
		t.Fatal(err)
	}
	if want := `echo: hi {"locale":"en-GB"}`; r.Text != want {
		t.Errorf("reply with metadata = %q, want %q", r.Text, want)
	}
	if r.Latency <= 0 {
		t.Errorf("latency = %v, want it measured", r.Latency)
	}

	r = mustSend(t, s, "tool")
	want := &Reply{
		Text: "it is sunny in Paris",
		ToolCalls: []judge.ToolCall{{
			ID: "call-1", Name: "weather", Arguments: json.RawMessage(`{"city":"Paris"}`), Result: "sunny",
		}},
		Usage: judge.Usage{InputTokens: 12, OutputTokens: 5, Unpriced: true}, // no cost reported
	}
	r.Latency = 0
	if diff := cmp.Diff(want, r); diff != "" {
		t.Errorf("tool reply (-want +got):\n%s", diff)
	}

	_, err = s.Send(testContext(t), Message{Text: "fail"})
	if err == nil || !strings.Contains(err.Error(), "the agent answered an error: failing as asked") {
		t.Errorf("error = %v, want the agent's error", err)
	}
	wantText(t, s, "still there?", "echo: still there?")

	if err := s.Close(testContext(t)); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Send(testContext(t), Message{Text: "after close"}); err == nil || !strings.Contains(err.Error(), "closed") {
		t.Errorf("Send after Close: error = %v, want one saying the session is closed", err)
	}
	if err := s.Close(testContext(t)); err != nil {
		t.Errorf("second Close: %v, want nil", err)
	}
}

func TestExecSharedServesSessionsAtOnce(t *testing.T) {
	x := newEcho(t, ExecConfig{})
	a, b := mustOpen(t, x, "a"), mustOpen(t, x, "b")
	if pa, pb := pidOf(t, a), pidOf(t, b); pa != pb {
		t.Errorf("shared mode: sessions run in processes %d and %d, want one", pa, pb)
	}

	// Each "pair" waits for the other, and the agent answers the second
	// first: the requests must be in flight together, and their answers
	// come back out of order.
	var wg sync.WaitGroup
	replies := make([]string, 2)
	for i, s := range []Session{a, b} {
		wg.Go(func() {
			r, err := s.Send(testContext(t), Message{Text: "pair p"})
			if err != nil {
				t.Error(err)
				return
			}
			replies[i] = r.Text
		})
	}
	wg.Wait()
	slices.Sort(replies)
	if want := []string{"pair p: arrived first", "pair p: arrived second"}; !slices.Equal(replies, want) {
		t.Errorf("replies = %q, want %q", replies, want)
	}

	// Many messages at once, each answered to its own request.
	for i := range 20 {
		s := []Session{a, b}[i%2]
		wg.Go(func() {
			text := fmt.Sprintf("message %d", i)
			r, err := s.Send(testContext(t), Message{Text: text})
			if err != nil {
				t.Error(err)
				return
			}
			if r.Text != "echo: "+text {
				t.Errorf("reply = %q, want %q", r.Text, "echo: "+text)
			}
		})
	}
	wg.Wait()
}

func TestExecPerSession(t *testing.T) {
	x := newEcho(t, ExecConfig{Mode: ExecPerSession})
	a, b := mustOpen(t, x, "a"), mustOpen(t, x, "b")
	wantText(t, a, "hello", "echo: hello")
	wantText(t, b, "bonjour", "echo: bonjour")
	pa, pb := pidOf(t, a), pidOf(t, b)
	if pa == pb {
		t.Fatalf("per-session mode: both sessions run in process %d, want one each", pa)
	}
	if err := a.Close(testContext(t)); err != nil {
		t.Fatal(err)
	}
	waitGone(t, "the closed session's process", pa)
	wantText(t, b, "history", "bonjour")

	// A revived session runs in a new process, which has only what the
	// agent stored (the echo agent stores nothing).
	a = mustOpen(t, x, "a")
	if p := pidOf(t, a); p == pa {
		t.Errorf("revived session runs in the old process %d", p)
	}
	wantText(t, a, "history", "")
	if err := x.Reset(testContext(t)); err != nil {
		t.Errorf("Reset: %v", err)
	}
}

func TestExecSharedRevival(t *testing.T) {
	x := newEcho(t, ExecConfig{})
	s := mustOpen(t, x, "s1")
	wantText(t, s, "remember the milk", "echo: remember the milk")
	if err := s.Close(testContext(t)); err != nil {
		t.Fatal(err)
	}
	s = mustOpen(t, x, "s1")
	wantText(t, s, "history", "remember the milk")
}

func TestExecEvents(t *testing.T) {
	for _, mode := range []string{ExecShared, ExecPerSession} {
		t.Run(mode, func(t *testing.T) {
			x := newEcho(t, ExecConfig{Mode: mode})
			s := mustOpen(t, x, "s1")
			d, ok := s.(Dispatcher)
			if !ok {
				t.Fatalf("%T is not a Dispatcher", s)
			}
			r, err := d.Dispatch(testContext(t), Event{Name: "reminder_due", Payload: json.RawMessage(`{"id":7}`)})
			if err != nil {
				t.Fatal(err)
			}
			if want := `event reminder_due {"id":7}`; r.Text != want {
				t.Errorf("reply = %q, want %q", r.Text, want)
			}
			r, err = d.Dispatch(testContext(t), Event{Name: "tick"})
			if err != nil {
				t.Fatal(err)
			}
			if want := "event tick null"; r.Text != want {
				t.Errorf("reply = %q, want %q", r.Text, want)
			}
			if _, err := d.Dispatch(testContext(t), Event{Name: "bad", Payload: json.RawMessage(`{`)}); err == nil {
				t.Error("an invalid payload was sent")
			}
		})
	}
}

func TestExecReset(t *testing.T) {
	x := newEcho(t, ExecConfig{})
	var _ Resetter = x
	s := mustOpen(t, x, "s1")
	wantText(t, s, "a secret", "echo: a secret")
	if err := x.Reset(testContext(t)); err != nil {
		t.Fatal(err)
	}
	s = mustOpen(t, x, "s1")
	wantText(t, s, "history", "")
}

func TestExecCrash(t *testing.T) {
	x := newEcho(t, ExecConfig{})
	s := mustOpen(t, x, "s1")
	other := mustOpen(t, x, "s2")
	pid := pidOf(t, s)

	_, err := s.Send(testContext(t), Message{Text: "crash"})
	if err == nil {
		t.Fatal("a crash gave a reply")
	}
	for _, want := range []string{`message to session "s1"`, "exited unexpectedly (exit status 3)", "crash log line 11\n", "crash log line 29\nfatal: crashing as asked"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error = %v\nwant it to contain %q", err, want)
		}
	}
	if strings.Contains(err.Error(), "crash log line 10\n") {
		t.Errorf("error = %v\nwant only the last 20 lines of stderr", err)
	}
	if _, err := other.Send(testContext(t), Message{Text: "hello"}); err == nil || !strings.Contains(err.Error(), "exit status 3") {
		t.Errorf("the other session of the crashed process: error = %v, want the crash", err)
	}

	// The next session gets a new process.
	s = mustOpen(t, x, "s3")
	if p := pidOf(t, s); p == pid {
		t.Errorf("new session runs in the crashed process %d", p)
	}
}

func TestExecHang(t *testing.T) {
	const timeout = 300 * time.Millisecond
	t.Run("shared", func(t *testing.T) {
		x := newEcho(t, ExecConfig{Timeout: timeout})
		s := mustOpen(t, x, "s1")
		pid := pidOf(t, s)
		start := time.Now()
		_, err := s.Send(testContext(t), Message{Text: "hang"})
		checkTimeout(t, err, start)
		if err != nil && !strings.Contains(err.Error(), `(message to session "s1")`) {
			t.Errorf("error = %v, want it to name the request", err)
		}
		// The process keeps serving.
		wantText(t, s, "hello", "echo: hello")
		if p := pidOf(t, s); p != pid {
			t.Errorf("after a timeout the session runs in process %d, want %d", p, pid)
		}
	})
	t.Run("per-session", func(t *testing.T) {
		x := newEcho(t, ExecConfig{Mode: ExecPerSession, Timeout: timeout})
		s := mustOpen(t, x, "s1")
		pid := pidOf(t, s)
		start := time.Now()
		_, err := s.Send(testContext(t), Message{Text: "hang"})
		checkTimeout(t, err, start)
		if err != nil && !strings.Contains(err.Error(), "killed") {
			t.Errorf("error = %v, want it to say the process was killed", err)
		}
		waitGone(t, "the hung process", pid)
		if _, err := s.Send(testContext(t), Message{Text: "hello"}); err == nil || !strings.Contains(err.Error(), "killed") {
			t.Errorf("Send after the kill: error = %v, want one saying the process was killed", err)
		}
	})
}

func TestExecStartTimeout(t *testing.T) {
	x, err := NewExec(ExecConfig{
		Command:      []string{echoAgent},
		Env:          []string{"ECHOAGENT_START_DELAY=500ms"},
		Timeout:      100 * time.Millisecond,
		StartTimeout: time.Minute,
	})
	if err != nil {
		t.Fatal(err)
	}
	defer x.Close()
	s := mustOpen(t, x, "s1")
	wantText(t, s, "hello", "echo: hello")
}

func TestExecGarbage(t *testing.T) {
	x := newEcho(t, ExecConfig{})
	s := mustOpen(t, x, "s1")
	pid := pidOf(t, s)
	_, err := s.Send(testContext(t), Message{Text: "garbage"})
	if err == nil || !strings.Contains(err.Error(), `is not a JSON object: "this is not JSON"`) {
		t.Fatalf("error = %v, want one quoting the line", err)
	}
	waitGone(t, "the process that broke the protocol", pid)
	s = mustOpen(t, x, "s2")
	wantText(t, s, "hello", "echo: hello")
}

func TestExecMissingCommand(t *testing.T) {
	_, err := NewExec(ExecConfig{Command: []string{"gavel-no-such-agent"}})
	if err == nil || !strings.Contains(err.Error(), "gavel-no-such-agent") {
		t.Errorf("NewExec: error = %v, want one naming the program", err)
	}

	for _, mode := range []string{ExecShared, ExecPerSession} {
		x, err := NewExec(ExecConfig{Command: []string{"./no-such-agent", "--flag"}, Dir: t.TempDir(), Mode: mode})
		if err != nil {
			t.Fatal(err)
		}
		_, err = x.Open(testContext(t), "s1")
		if err == nil || !strings.Contains(err.Error(), "./no-such-agent") {
			t.Errorf("%s: Open: error = %v, want one naming the program", mode, err)
		}
		if err := x.Reset(testContext(t)); err == nil || !strings.Contains(err.Error(), "./no-such-agent") {
			t.Errorf("%s: Reset: error = %v, want one naming the program", mode, err)
		}
		if err := x.Close(); err != nil {
			t.Errorf("%s: Close: %v", mode, err)
		}
	}
}

func TestExecCloseLeavesNoProcess(t *testing.T) {
	for _, mode := range []string{ExecShared, ExecPerSession} {
		t.Run(mode, func(t *testing.T) {
			x, err := NewExec(ExecConfig{Command: []string{echoAgent}, Mode: mode})
			if err != nil {
				t.Fatal(err)
			}
			s := mustOpen(t, x, "s1")
			pid := pidOf(t, s)
			child, err := strconv.Atoi(mustSend(t, s, "spawn").Text)
			if err != nil {
				t.Fatal(err)
			}
			if err := x.Close(); err != nil {
				t.Errorf("Close: %v", err)
			}
			waitGone(t, "the agent", pid)
			waitGone(t, "the agent's child", child)
			if _, err := x.Open(testContext(t), "s2"); err == nil || !strings.Contains(err.Error(), "closed") {
				t.Errorf("Open after Close: error = %v, want one saying the agent is closed", err)
			}
			if _, err := s.Send(testContext(t), Message{Text: "hello"}); err == nil {
				t.Error("Send after the agent's Close gave a reply")
			}
		})
	}
}

func TestExecSessionCloseKillsChildren(t *testing.T) {
	x := newEcho(t, ExecConfig{Mode: ExecPerSession})
	s := mustOpen(t, x, "s1")
	child, err := strconv.Atoi(mustSend(t, s, "spawn").Text)
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Close(testContext(t)); err != nil {
		t.Fatal(err)
	}
	waitGone(t, "the agent's child", child)
}

func TestNewExecErrors(t *testing.T) {
	for _, tc := range []struct {
		name    string
		config  ExecConfig
		wantErr string
	}{
		{"no command", ExecConfig{}, "no program"},
		{"bad env", ExecConfig{Command: []string{"true"}, Env: []string{"NOVALUE"}}, `"NOVALUE" is not KEY=VALUE`},
		{"bad mode", ExecConfig{Command: []string{"true"}, Mode: "pooled"}, `unknown mode "pooled"`},
		{"negative timeout", ExecConfig{Command: []string{"true"}, Timeout: -time.Second}, "negative timeout"},
		{"negative start timeout", ExecConfig{Command: []string{"true"}, StartTimeout: -time.Second}, "negative start timeout"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			x, err := NewExec(tc.config)
			if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
				t.Errorf("error = %v, want one containing %q", err, tc.wantErr)
			}
			if x != nil {
				t.Error("got an agent with the error")
			}
		})
	}
}

// An answer line is read up to 16 MiB: a longer one is a protocol error
// that says so, and what is past the cap is never held in memory.
func TestExecOversizedLine(t *testing.T) {
	s := mustOpen(t, newEcho(t, ExecConfig{}), "s")
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	_, err := s.Send(testContext(t), Message{Text: "flood 256"})
	runtime.ReadMemStats(&after)
	if err == nil || !strings.Contains(err.Error(), "longer than 16 MiB") {
		t.Errorf("error = %v, want one saying the line is longer than 16 MiB", err)
	}
	if allocated := after.TotalAlloc - before.TotalAlloc; allocated >= 128<<20 {
		t.Errorf("reading it allocated %d MiB, want well under the line's 256 MiB", allocated>>20)
	}
}

func TestExecNumericText(t *testing.T) {
	_, err := mustOpen(t, newEcho(t, ExecConfig{}), "s").Send(testContext(t), Message{Text: "number"})
	if err == nil || !strings.Contains(err.Error(), "/text is a number, want a string") {
		t.Errorf("error = %v, want one naming the text field", err)
	}
}
