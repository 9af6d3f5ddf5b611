package conversation_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/gavelhq/gavel/agent"
	"github.com/gavelhq/gavel/conversation"
	"github.com/gavelhq/gavel/judge"
)

// requestLog is an HTTP agent on loopback that answers every request
// with a reply and notes each one as "METHOD /path".
type requestLog struct {
	mu       sync.Mutex
	requests []string
}

func (l *requestLog) serve(t *testing.T) string {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		l.mu.Lock()
		l.requests = append(l.requests, r.Method+" "+r.URL.Path)
		l.mu.Unlock()
		w.Header().Set("Content-Type", "application/json")
		w.Write([]byte(`{"reply": "noted"}`))
	}))
	t.Cleanup(srv.Close)
	return srv.URL
}

func (l *requestLog) seen() []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return append([]string(nil), l.requests...)
}

// rememberThenRevive is a thread of two rounds with a revival between
// them.
var rememberThenRevive = conversation.Script{Rounds: []conversation.Round{
	{Prompt: "remember 12345"},
	{Prompt: "which number did I give you?", Revive: true},
}}

// An HTTP agent without a close request cannot tell that its session was
// closed, so reopening it revives nothing: the case is an error that says
// so, before anything is sent, not a revival that did not happen.
func TestRevivalOfAnHTTPAgentThatCannotCloseIsAnError(t *testing.T) {
	var log requestLog
	a, err := agent.NewHTTP(agent.HTTPConfig{URL: log.serve(t) + "/chat"})
	if err != nil {
		t.Fatal(err)
	}
	tr := conversation.Run(context.Background(), a, rememberThenRevive, conversation.Config{SessionID: "s-1"}).Transcript
	if tr.Status != judge.ExecFailed || !strings.Contains(tr.Error, "cannot be revived") {
		t.Errorf("status %s, error %q: want FAILED saying the agent cannot be revived", tr.Status, tr.Error)
	}
	if len(tr.Revivals) > 0 {
		t.Errorf("the transcript records revivals %+v that did not happen", tr.Revivals)
	}
	if got := log.seen(); len(got) > 0 {
		t.Errorf("the agent was sent %q, want nothing: the case cannot run", got)
	}
}

// An HTTP agent with close and open requests is revived by them: the
// agent hears of every open and close, in order, and the transcript says
// how the session was revived.
func TestRevivalOfAnHTTPAgentSendsCloseAndOpen(t *testing.T) {
	var log requestLog
	a, err := agent.NewHTTP(agent.HTTPConfig{
		URL:   log.serve(t) + "/chat",
		Open:  &agent.HTTPRequest{URL: "/sessions/{{path .SessionID}}/open"},
		Close: &agent.HTTPRequest{Method: "DELETE", URL: "/sessions/{{path .SessionID}}"},
	})
	if err != nil {
		t.Fatal(err)
	}
	tr := conversation.Run(context.Background(), a, rememberThenRevive, conversation.Config{SessionID: "s 1"}).Transcript
	if tr.Status != judge.ExecSuccess {
		t.Fatalf("status %s: %s", tr.Status, tr.Error)
	}
	want := []string{
		"POST /sessions/s 1/open", "POST /chat", "DELETE /sessions/s 1",
		"POST /sessions/s 1/open", "POST /chat", "DELETE /sessions/s 1",
	}
	if got := log.seen(); !slices.Equal(got, want) {
		t.Errorf("the agent was sent\n%q\nwant\n%q", got, want)
	}
	if len(tr.Revivals) != 1 || tr.Revivals[0].How != "session closed and reopened by the close and open requests" {
		t.Errorf("revivals %+v, want one by the close and open requests", tr.Revivals)
	}
}

// A close request the agent refuses is an error of the trial, whether it
// revives the session or ends the conversation.
func TestFailedCloseRequestIsAnError(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/close" {
			http.Error(w, "no such session", http.StatusNotFound)
			return
		}
		w.Write([]byte(`{"reply": "noted"}`))
	}))
	defer srv.Close()
	a, err := agent.NewHTTP(agent.HTTPConfig{URL: srv.URL + "/chat", Close: &agent.HTTPRequest{URL: "/close"}})
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name   string
		script conversation.Script
		want   string
	}{
		{"revival", rememberThenRevive, `round 2: close the session to revive it: http agent POST ` + srv.URL + `/close (close request of session "s-1") answered 404 Not Found: "no such session"`},
		{"end of the conversation", conversation.Script{Rounds: []conversation.Round{{Prompt: "hi"}}},
			`close the session: http agent POST ` + srv.URL + `/close (close request of session "s-1") answered 404 Not Found`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tr := conversation.Run(context.Background(), a, tc.script, conversation.Config{SessionID: "s-1"}).Transcript
			if tr.Status != judge.ExecFailed || !strings.HasPrefix(tr.Error, tc.want) {
				t.Errorf("status %s, error\n%s\nwant FAILED with\n%s", tr.Status, tr.Error, tc.want)
			}
		})
	}
}

// An agent.Func keeps no session: a case that revives it is an error.
func TestRevivalOfAFuncIsAnError(t *testing.T) {
	calls := 0
	f := agent.Func(func(context.Context, string, agent.Message) (*agent.Reply, error) {
		calls++
		return &agent.Reply{Text: "ok"}, nil
	})
	tr := conversation.Run(context.Background(), f, rememberThenRevive, conversation.Config{}).Transcript
	if want := "round 2 revives the session, but an agent.Func cannot be revived"; tr.Status != judge.ExecFailed || !strings.HasPrefix(tr.Error, want) || calls != 0 {
		t.Errorf("status %s, error %q, %d calls: want FAILED with %q and no call", tr.Status, tr.Error, calls, want)
	}
}
