package runner_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/gavelhq/gavel"
	"github.com/gavelhq/gavel/agent"
	"github.com/gavelhq/gavel/conversation"
	"github.com/gavelhq/gavel/judge"
	"github.com/gavelhq/gavel/runner"
)

// A revival case on an HTTP agent that is never told a session closed
// (no close request) tests nothing, whatever the agent answers: it is an
// ERROR that says why, not a PASS, and the agent is sent nothing.
func TestRevivalThatCannotHappenIsAnError(t *testing.T) {
	var requests atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		requests.Add(1)
		w.Write([]byte(`{"reply": "You asked about order 12345."}`))
	}))
	defer srv.Close()
	a, err := agent.NewHTTP(agent.HTTPConfig{URL: srv.URL + "/chat"})
	if err != nil {
		t.Fatal(err)
	}
	s := &gavel.Suite{Agent: a, Cases: []*gavel.Case{{
		ID: "revival",
		Script: conversation.Script{Rounds: []conversation.Round{
			{Prompt: "where is order 12345?"},
			{Prompt: "which order was I asking about?", Revive: true},
		}},
		Judge: says("12345", nil),
	}}}
	run := runner.Run(context.Background(), s, runner.Config{})
	if got := outcomes(run); got != "revival:ERROR" {
		t.Errorf("outcome %s, want revival:ERROR", got)
	}
	v := run.Cases[0].Trials[0].Verdict
	if v.Status != judge.StatusError || !strings.Contains(v.Reasoning, "round 2 revives the session, but http agent "+srv.URL+"/chat cannot be revived") {
		t.Errorf("verdict %s: %s", v.Status, v.Reasoning)
	}
	if n := requests.Load(); n != 0 {
		t.Errorf("the agent was sent %d requests, want none", n)
	}
}
