package conversation_test

import (
	"context"
	"fmt"

	"github.com/gavelhq/gavel/agent"
	"github.com/gavelhq/gavel/conversation"
)

// memo is an agent that remembers the order a session asked about, and
// keeps it across a proper close only: a session saves what it knows when
// it closes, as a checkpointing agent does.
type memo struct{ saved map[string]string }

func (m *memo) Open(_ context.Context, id string) (agent.Session, error) {
	return &memoSession{m: m, id: id, order: m.saved[id]}, nil
}

type memoSession struct {
	m         *memo
	id, order string
}

func (s *memoSession) Send(_ context.Context, msg agent.Message) (*agent.Reply, error) {
	if msg.Text == "which order was I asking about?" {
		return &agent.Reply{Text: "Order " + s.order + "."}, nil
	}
	s.order = "12345"
	return &agent.Reply{Text: "Order 12345 has shipped."}, nil
}

func (s *memoSession) Close(context.Context) error {
	s.m.saved[s.id] = s.order
	return nil
}

// A thread of two rounds with a revival between them: the session is
// closed and opened again with the same id, so the agent still knows the
// order only if it saved it; the second round's judges would check
// exactly that. The transcript records where and how the session was
// revived.
func ExampleRun() {
	support := &memo{saved: map[string]string{}}
	out := conversation.Run(context.Background(), support, conversation.Script{Rounds: []conversation.Round{
		{Prompt: "where's my order #12345?"},
		{Prompt: "which order was I asking about?", Revive: true},
	}}, conversation.Config{CaseID: "revival"})

	t := out.Transcript
	fmt.Printf("%s, revived before turn %d: %s\n", t.Status, t.Revivals[0].BeforeTurn, t.Revivals[0].How)
	for _, turn := range t.Turns {
		fmt.Printf("round %d %s: %s\n", turn.Round, turn.Role, turn.Content)
	}
	fmt.Println("round 2 is judged on:", t.Round(2).Response())
	// Output:
	// SUCCESS, revived before turn 2: session closed and reopened
	// round 1 user: where's my order #12345?
	// round 1 agent: Order 12345 has shipped.
	// round 2 user: which order was I asking about?
	// round 2 agent: Order 12345.
	// round 2 is judged on: Order 12345.
}
