package agent_test

import (
	"context"
	"errors"
	"testing"

	"github.com/gavelhq/gavel/agent"
	"github.com/gavelhq/gavel/judge"
)

func TestFuncKeepsAPartialReply(t *testing.T) {
	crash := errors.New("the model is down")
	s, _ := agent.Func(func(context.Context, string, agent.Message) (*agent.Reply, error) {
		return &agent.Reply{ToolCalls: []judge.ToolCall{{Name: "lookup"}}}, crash
	}).Open(t.Context(), "s")
	reply, err := s.Send(t.Context(), agent.Message{Text: "hi"})
	if !errors.Is(err, crash) || reply == nil || len(reply.ToolCalls) != 1 {
		t.Errorf("reply %+v, %v: want the partial reply with the error", reply, err)
	}
}
