//go:build unix

package agent

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestExecProtocolDocAgent runs the Python agent of docs/exec-protocol.md,
// so that the example stays true to the protocol. It needs python3: it
// skips without, unless GAVEL_REQUIRE_INTEGRATION=1.
func TestExecProtocolDocAgent(t *testing.T) {
	python, err := exec.LookPath("python3")
	if err != nil {
		if os.Getenv("GAVEL_REQUIRE_INTEGRATION") == "1" {
			t.Fatalf("python3 is required: %v", err)
		}
		t.Skipf("python3 not found: %v", err)
	}
	doc, err := os.ReadFile("../docs/exec-protocol.md")
	if err != nil {
		t.Fatal(err)
	}
	_, code, ok := strings.Cut(string(doc), "```python\n")
	if ok {
		code, _, ok = strings.Cut(code, "\n```")
	}
	if !ok {
		t.Fatal("docs/exec-protocol.md has no python block")
	}
	script := filepath.Join(t.TempDir(), "agent.py")
	if err := os.WriteFile(script, []byte(code+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}

	for _, mode := range []string{ExecShared, ExecPerSession} {
		t.Run(mode, func(t *testing.T) {
			x, err := NewExec(ExecConfig{Command: []string{python, script}, Mode: mode})
			if err != nil {
				t.Fatal(err)
			}
			defer func() {
				if err := x.Close(); err != nil {
					t.Errorf("Close: %v", err)
				}
			}()
			s := mustOpen(t, x, "s1")
			r := mustSend(t, s, "hello")
			if want := "echo: hello (message 1 of this session)"; r.Text != want {
				t.Errorf("reply = %q, want %q", r.Text, want)
			}
			if len(r.ToolCalls) != 1 || r.ToolCalls[0].Name != "count_messages" || r.ToolCalls[0].Result != "1" {
				t.Errorf("tool calls = %+v, want one call of count_messages giving 1", r.ToolCalls)
			}
			if r.Usage.InputTokens != 1 || r.Usage.OutputTokens != 5 {
				t.Errorf("usage = %+v, want 1 input and 5 output tokens", r.Usage)
			}
			r, err = s.(Dispatcher).Dispatch(testContext(t), Event{Name: "reminder_due", Payload: json.RawMessage(`{"id": 7}`)})
			if err != nil {
				t.Fatal(err)
			}
			if want := `noted: reminder_due {"id": 7}`; r.Text != want {
				t.Errorf("event reply = %q, want %q", r.Text, want)
			}
			if err := s.Close(testContext(t)); err != nil {
				t.Fatal(err)
			}
			s = mustOpen(t, x, "s1")
			want := "echo: again (message 2 of this session)" // revived
			if mode == ExecPerSession {
				want = "echo: again (message 1 of this session)" // a new process, and the example stores nothing
			}
			wantText(t, s, "again", want)
			if err := x.Reset(testContext(t)); err != nil {
				t.Fatal(err)
			}
		})
	}
}
