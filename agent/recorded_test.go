package agent_test

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/gavelhq/gavel/agent"
	"github.com/gavelhq/gavel/judge"
	"github.com/gavelhq/gavel/mcp"
)

// A proxy's log, written by the agent's tool calls as they happen.
func TestRecordedGivesEachReplyItsCalls(t *testing.T) {
	log := &mcp.Log{}
	a := agent.Recorded(agent.Func(func(_ context.Context, id string, msg agent.Message) (*agent.Reply, error) {
		log.Record(judge.ToolCall{Name: "lookup", Result: id + ": " + msg.Text})
		time.Sleep(time.Millisecond) // let another session try to interleave
		log.Record(judge.ToolCall{Name: "lookup", Result: id + ": again"})
		return &agent.Reply{Text: "done"}, nil
	}), log)

	log.Record(judge.ToolCall{Name: "made_before_any_message"})
	var wg sync.WaitGroup
	for i := range 8 {
		wg.Go(func() {
			id := fmt.Sprintf("s-%d", i)
			s, err := a.Open(context.Background(), id)
			if err != nil {
				t.Error(err)
				return
			}
			reply, err := s.Send(context.Background(), agent.Message{Text: "order 12345"})
			if err != nil {
				t.Error(err)
				return
			}
			want := []string{id + ": order 12345", id + ": again"}
			if len(reply.ToolCalls) != 2 || reply.ToolCalls[0].Result != want[0] || reply.ToolCalls[1].Result != want[1] {
				t.Errorf("session %s got calls %+v, want its own two", id, reply.ToolCalls)
			}
		})
	}
	wg.Wait()
}

func TestRecordedKeepsReportedCalls(t *testing.T) {
	log := &mcp.Log{}
	a := agent.Recorded(agent.Func(func(context.Context, string, agent.Message) (*agent.Reply, error) {
		log.Record(judge.ToolCall{Name: "seen_by_proxy"})
		return &agent.Reply{Text: "ok", ToolCalls: []judge.ToolCall{{Name: "reported"}}}, nil
	}), log)
	s, _ := a.Open(context.Background(), "s")
	reply, err := s.Send(context.Background(), agent.Message{Text: "hi"})
	if err != nil || len(reply.ToolCalls) != 1 || reply.ToolCalls[0].Name != "reported" {
		t.Errorf("reply %+v, %v: want the agent's own report", reply, err)
	}
	if left := log.Take(); len(left) != 0 {
		t.Errorf("the log kept %+v after the turn", left)
	}
}

func TestRecordedWaitEndsWithContext(t *testing.T) {
	started, release := make(chan struct{}), make(chan struct{})
	a := agent.Recorded(agent.Func(func(context.Context, string, agent.Message) (*agent.Reply, error) {
		close(started)
		<-release
		return &agent.Reply{Text: "late"}, nil
	}), &mcp.Log{})
	busy, _ := a.Open(context.Background(), "busy")
	go busy.Send(context.Background(), agent.Message{Text: "hang"})
	defer close(release)
	<-started

	waiting, _ := a.Open(context.Background(), "waiting")
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Millisecond)
	defer cancel()
	if _, err := waiting.Send(ctx, agent.Message{Text: "hi"}); !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("got %v, want the wait to end with the context", err)
	}
}

// An agent that fails after calling tools (it crashed, it timed out) made
// those calls all the same: the proxy saw them, and they are kept in a
// partial reply returned with the error.
func TestRecordedKeepsTheCallsOfAFailedTurn(t *testing.T) {
	log := &mcp.Log{}
	crash := errors.New("exit status 2")
	a := agent.Recorded(agent.Func(func(context.Context, string, agent.Message) (*agent.Reply, error) {
		log.Record(judge.ToolCall{Name: "cancel_order"})
		return nil, crash
	}), log)
	s, _ := a.Open(context.Background(), "s")
	reply, err := s.Send(context.Background(), agent.Message{Text: "hi"})
	if !errors.Is(err, crash) || reply == nil || len(reply.ToolCalls) != 1 || reply.ToolCalls[0].Name != "cancel_order" {
		t.Errorf("reply %+v, %v: want the call the proxy saw, with the error", reply, err)
	}
}

// While a turn runs, the proxy's log knows it (for a replay that matches
// calls by their trial's case); between turns it knows none.
func TestRecordedTellsTheLogItsTurn(t *testing.T) {
	log := &mcp.Log{}
	var during *agent.Scope
	a := agent.Recorded(agent.Func(func(context.Context, string, agent.Message) (*agent.Reply, error) {
		if turn := log.Turn(); turn != nil {
			during = agent.CaseScope(turn)
		}
		return &agent.Reply{Text: "ok"}, nil
	}), log)
	ofCase := agent.NewScope("refund")
	ctx := agent.WithScopes(context.Background(), agent.NewScope("refund#1"), ofCase)
	s, _ := a.Open(ctx, "s")
	if _, err := s.Send(ctx, agent.Message{Text: "hi"}); err != nil {
		t.Fatal(err)
	}
	if during != ofCase {
		t.Errorf("during the turn, the log's turn was of case %v, want refund", during)
	}
	if log.Turn() != nil {
		t.Error("after the turn, the log still has one")
	}
}
