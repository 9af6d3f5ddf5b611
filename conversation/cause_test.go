package conversation_test

import (
	"context"
	"errors"
	"net"
	"testing"
	"time"

	"github.com/gavelhq/gavel/agent"
	"github.com/gavelhq/gavel/conversation"
	"github.com/gavelhq/gavel/judge"
)

// A conversation that failed says whether the agent could not be reached
// (refused, or out of time) or the run was stopped, apart from an agent
// that was reached and failed.
func TestFailureCause(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	closed := "http://" + l.Addr().String() + "/chat"
	l.Close()
	refused, err := agent.NewHTTP(agent.HTTPConfig{URL: closed})
	if err != nil {
		t.Fatal(err)
	}
	missing, err := agent.NewExec(agent.ExecConfig{Command: []string{"/nonexistent/gavel-agent"}})
	if err != nil {
		t.Fatal(err)
	}
	crash := agent.Func(func(context.Context, string, agent.Message) (*agent.Reply, error) {
		return nil, errors.New("exit status 2: panic: nil map")
	})
	hang := agent.Func(func(ctx context.Context, _ string, _ agent.Message) (*agent.Reply, error) {
		<-ctx.Done()
		return nil, ctx.Err()
	})
	tests := []struct {
		name   string
		agent  agent.Agent
		ctx    func() (context.Context, context.CancelFunc)
		status judge.ExecStatus
		want   judge.Cause
	}{
		{"an HTTP agent that refuses connections", refused, nil, judge.ExecFailed, judge.CauseUnreachable},
		{"an exec agent whose program is missing", missing, nil, judge.ExecFailed, judge.CauseUnreachable},
		{"an agent that crashes", crash, nil, judge.ExecFailed, ""},
		{"an agent that never answers", hang, func() (context.Context, context.CancelFunc) {
			return context.WithTimeout(context.Background(), 50*time.Millisecond)
		}, judge.ExecTimeout, judge.CauseUnreachable},
		{"a run stopped at once", hang, func() (context.Context, context.CancelFunc) {
			ctx, cancel := context.WithCancel(context.Background())
			time.AfterFunc(50*time.Millisecond, cancel)
			return ctx, cancel
		}, judge.ExecCancelled, judge.CauseCancelled},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
			if tc.ctx != nil {
				ctx, cancel = tc.ctx()
			}
			defer cancel()
			tr := conversation.Run(ctx, tc.agent, conversation.Script{Rounds: []conversation.Round{{Prompt: "hello"}}}, conversation.Config{}).Transcript
			if tr.Status != tc.status || tr.Cause != tc.want {
				t.Errorf("%s cause %q (%s), want %s cause %q", tr.Status, tr.Cause, tr.Error, tc.status, tc.want)
			}
		})
	}
}
