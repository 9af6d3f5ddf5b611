package main

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/gavelhq/gavel/agent"
	"github.com/gavelhq/gavel/judge"
)

// An echo agent that remembers each session's messages.
func rememberingAgent() agent.Agent {
	seen := map[string][]string{}
	return agent.Func(func(_ context.Context, id string, msg agent.Message) (*agent.Reply, error) {
		seen[id] = append(seen[id], msg.Text)
		return &agent.Reply{Text: strings.Join(seen[id], " / "), Usage: judge.Usage{InputTokens: 3},
			ToolCalls: []judge.ToolCall{{Name: "hidden"}}}, nil
	})
}

func TestChat(t *testing.T) {
	srv := httptest.NewServer(newServer(rememberingAgent()))
	defer srv.Close()
	post := func(body string) (int, string) {
		resp, err := http.Post(srv.URL+"/chat", "application/json", strings.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, string(b)
	}

	for _, tc := range []struct {
		name, body string
		status     int
		reply      string
	}{
		{"first message", `{"session_id": "a", "message": "hi"}`, 200, "hi"},
		{"the session continues", `{"session_id": "a", "message": "again"}`, 200, "hi / again"},
		{"another session", `{"session_id": "b", "message": "hello"}`, 200, "hello"},
		{"no session id", `{"message": "hello"}`, 400, ""},
		{"not JSON", `hello`, 400, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			status, body := post(tc.body)
			if status != tc.status {
				t.Fatalf("status %d, want %d: %s", status, tc.status, body)
			}
			if status != 200 {
				return
			}
			var got map[string]any
			if err := json.Unmarshal([]byte(body), &got); err != nil {
				t.Fatal(err)
			}
			if got["reply"] != tc.reply {
				t.Errorf("reply %q, want %q", got["reply"], tc.reply)
			}
			if _, ok := got["tool_calls"]; ok {
				t.Errorf("the reply reports tool calls: %s", body)
			}
		})
	}
}

// checkpointing is an agent whose sessions remember what they heard only
// across a close: a closed session is saved, and an open one not yet.
type checkpointing struct {
	saved map[string][]string
}

func (c *checkpointing) Open(_ context.Context, id string) (agent.Session, error) {
	return &checkpointSession{c: c, id: id, heard: c.saved[id]}, nil
}

type checkpointSession struct {
	c     *checkpointing
	id    string
	heard []string
}

func (s *checkpointSession) Send(_ context.Context, msg agent.Message) (*agent.Reply, error) {
	s.heard = append(s.heard, msg.Text)
	return &agent.Reply{Text: strings.Join(s.heard, " / ")}, nil
}

func (s *checkpointSession) Close(context.Context) error {
	s.c.saved[s.id] = s.heard
	return nil
}

// Closing a session saves it and lets it go; opening it again resumes it.
func TestOpenAndClose(t *testing.T) {
	srv := httptest.NewServer(newServer(&checkpointing{saved: map[string][]string{}}))
	defer srv.Close()
	post := func(path, body string) (int, string) {
		t.Helper()
		resp, err := http.Post(srv.URL+path, "application/json", strings.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, string(b)
	}
	for _, step := range []struct {
		path, body string
		status     int
		contains   string
	}{
		{"/open", `{"session_id": "a"}`, 204, ""},
		{"/chat", `{"session_id": "a", "message": "hi"}`, 200, `"hi"`},
		{"/close", `{"session_id": "a"}`, 204, ""},
		{"/open", `{"session_id": "a"}`, 204, ""},
		{"/chat", `{"session_id": "a", "message": "again"}`, 200, `"hi / again"`},
		{"/close", `{"session_id": "unknown"}`, 204, ""},
		{"/close", `{}`, 400, ""},
	} {
		status, body := post(step.path, step.body)
		if status != step.status || !strings.Contains(body, step.contains) {
			t.Errorf("POST %s %s: %d %s, want %d with %s", step.path, step.body, status, body, step.status, step.contains)
		}
	}
}
