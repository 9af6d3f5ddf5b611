package main

import (
	"bytes"
	"context"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gavelhq/gavel/agent"
	"github.com/gavelhq/gavel/llm"
	"github.com/gavelhq/gavel/llm/llmtest"
)

// A model that remembers only what its request holds: it repeats the word
// of an earlier "remember" message, if the conversation has one.
const memoryScript = `
name: memory
rules:
  - when: {user: '(?i)^what', history: 'remember (?P<w>\w+)', last: user}
    text: you said ${w}
  - when: {user: '(?i)^what', last: user}
    text: I don't know
  - when: {last: user}
    text: noted
`

// process is one run of the agent's protocol loop over its own handle on
// the database, as a process of its own would have: it answers the
// request lines and returns the answer lines.
func process(t *testing.T, dbPath, keep string, requests ...string) []map[string]any {
	t.Helper()
	model, err := llmtest.ParseScript([]byte(memoryScript))
	if err != nil {
		t.Fatal(err)
	}
	var checkpoints agent.Checkpoints = agent.MemoryCheckpoints()
	if keep == "sqlite" {
		threads, err := openThreads(t.Context(), dbPath)
		if err != nil {
			t.Fatal(err)
		}
		defer threads.Close()
		checkpoints = threads
	}
	ag, err := agent.NewBuiltin(agent.BuiltinConfig{SystemPrompt: "You help.", Model: model, Checkpoints: checkpoints})
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	if err := serve(t.Context(), ag, strings.NewReader(strings.Join(requests, "\n")+"\n"), &out); err != nil {
		t.Fatal(err)
	}
	var answers []map[string]any
	for line := range strings.Lines(out.String()) {
		var a map[string]any
		if err := json.Unmarshal([]byte(line), &a); err != nil {
			t.Fatalf("answer %q: %v", line, err)
		}
		answers = append(answers, a)
	}
	return answers
}

// A session closed in one process and opened in the next goes on where
// it was, with SQLite checkpoints; with memory ones, the next process has
// forgotten it, which is what the suite's revival case catches.
func TestRevivalAcrossProcesses(t *testing.T) {
	for _, tc := range []struct{ keep, want string }{
		{"sqlite", "you said tangerine"},
		{"memory", "I don't know"},
	} {
		t.Run(tc.keep, func(t *testing.T) {
			db := filepath.Join(t.TempDir(), "property.db")
			first := process(t, db, tc.keep,
				`{"type":"open","id":"1","session":"s"}`,
				`{"type":"message","id":"2","session":"s","text":"remember tangerine","metadata":{}}`,
				`{"type":"close","id":"3","session":"s"}`)
			if len(first) != 3 || first[1]["text"] != "noted" || first[2]["type"] != "ok" {
				t.Fatalf("first process: %v", first)
			}
			second := process(t, db, tc.keep,
				`{"type":"open","id":"1","session":"s"}`,
				`{"type":"message","id":"2","session":"s","text":"what did I say?","metadata":{}}`)
			if len(second) != 2 || second[1]["text"] != tc.want {
				t.Errorf("second process: %v, want the reply %q", second, tc.want)
			}
		})
	}
}

func TestProtocolErrors(t *testing.T) {
	answers := process(t, filepath.Join(t.TempDir(), "property.db"), "sqlite",
		`{"type":"message","id":"1","session":"never-opened","text":"hi","metadata":{}}`,
		`{"type":"dance","id":"2"}`,
		`{"type":"close","id":"3","session":"unknown"}`,
		`{"type":"reset","id":"4"}`)
	want := []struct{ typ, message string }{
		{"error", "session never-opened is not open"},
		{"error", `unknown request type "dance"`},
		{"ok", ""},
		{"ok", ""},
	}
	if len(answers) != len(want) {
		t.Fatalf("answers %v", answers)
	}
	for i, w := range want {
		if answers[i]["type"] != w.typ || !strings.Contains(stringOf(answers[i]["message"]), w.message) || answers[i]["id"] == "" {
			t.Errorf("answer %d: %v, want %s %q", i+1, answers[i], w.typ, w.message)
		}
	}
}

func stringOf(v any) string {
	s, _ := v.(string)
	return s
}

// The threads' rows are what the suite's sql check reads.
func TestThreadsRows(t *testing.T) {
	ctx := context.Background()
	threads, err := openThreads(ctx, filepath.Join(t.TempDir(), "property.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer threads.Close()
	msgs := []llm.Message{{Role: llm.RoleUser, Content: "hi"}, {Role: llm.RoleAssistant, Content: "hello"}}
	for range 2 { // saving again replaces
		if err := threads.Save(ctx, "s", msgs); err != nil {
			t.Fatal(err)
		}
	}
	var n int
	if err := threads.db.QueryRow("SELECT count(*) FROM messages WHERE session_id = 's' AND role = 'user'").Scan(&n); err != nil || n != 1 {
		t.Errorf("user messages: %d, %v; want 1", n, err)
	}
	got, ok, err := threads.Load(ctx, "s")
	if err != nil || !ok || len(got) != 2 || got[1].Content != "hello" {
		t.Errorf("Load: %v %v %v", got, ok, err)
	}
	if _, ok, err := threads.Load(ctx, "other"); ok || err != nil {
		t.Errorf("Load of an unknown session: %v %v", ok, err)
	}
}
