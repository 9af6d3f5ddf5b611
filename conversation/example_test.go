package conversation_test

import (
	"context"
	"fmt"

	"github.com/gavelhq/gavel/agent"
	"github.com/gavelhq/gavel/conversation"
)

// A thread of two rounds with a revival between them. The agent keeps its
// memory by session id, so it still knows the order after it is reopened;
// the second round's judges would check exactly that.
func ExampleRun() {
	memory := map[string]string{}
	support := agent.Func(func(_ context.Context, session string, msg agent.Message) (*agent.Reply, error) {
		if msg.Text == "which order was I asking about?" {
			return &agent.Reply{Text: "Order " + memory[session] + "."}, nil
		}
		memory[session] = "12345"
		return &agent.Reply{Text: "Order 12345 has shipped."}, nil
	})

	out := conversation.Run(context.Background(), support, conversation.Script{Rounds: []conversation.Round{
		{Prompt: "where's my order #12345?"},
		{Prompt: "which order was I asking about?", Revive: true},
	}}, conversation.Config{CaseID: "revival"})

	t := out.Transcript
	fmt.Println(t.Status, "revived before turn", t.Revivals[0].BeforeTurn)
	for _, turn := range t.Turns {
		fmt.Printf("round %d %s: %s\n", turn.Round, turn.Role, turn.Content)
	}
	fmt.Println("round 2 is judged on:", t.Round(2).Response())
	// Output:
	// SUCCESS revived before turn 2
	// round 1 user: where's my order #12345?
	// round 1 agent: Order 12345 has shipped.
	// round 2 user: which order was I asking about?
	// round 2 agent: Order 12345.
	// round 2 is judged on: Order 12345.
}
