package agentjudge_test

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/gavelhq/gavel/agent"
	"github.com/gavelhq/gavel/agentjudge"
	"github.com/gavelhq/gavel/judge"
	"github.com/gavelhq/gavel/llm"
	"github.com/gavelhq/gavel/llm/llmtest"
)

// orderDB is a Go tool source with one tool: a lookup in the orders
// database the agent under test worked on. An MCP client
// (mcp.Connect) is one too.
type orderDB map[string]string

func (db orderDB) Tools(context.Context) ([]llm.Tool, error) {
	return []llm.Tool{{
		Name:        "order_status",
		Description: "The status of an order, by id.",
		Parameters:  json.RawMessage(`{"type":"object","properties":{"id":{"type":"string"}},"required":["id"]}`),
	}}, nil
}

func (db orderDB) Call(_ context.Context, name string, args json.RawMessage) (judge.ToolCall, error) {
	var a struct{ ID string }
	if err := json.Unmarshal(args, &a); err != nil {
		return judge.ToolCall{Name: name, Arguments: args, Result: err.Error(), IsError: true}, nil
	}
	status, ok := db[a.ID]
	if !ok {
		return judge.ToolCall{Name: name, Arguments: args, Result: "no order " + a.ID, IsError: true}, nil
	}
	return judge.ToolCall{Name: name, Arguments: args, Result: status}, nil
}

// The agent says it cancelled order 12345; the judge looks the order up
// before it believes it. The scripted model plays the judge: it calls the
// tool, then answers from what the tool returned.
func Example() {
	model := &llmtest.Scripted{Rules: []llmtest.Rule{
		{Match: "Judge whether", ToolCalls: []llm.ToolCall{{Name: "order_status", Arguments: json.RawMessage(`{"id":"12345"}`)}}},
		{Match: "shipped", Text: `{"reasoning": "order 12345 is still shipped, not cancelled", "score": 0.1}`},
		{Match: "cancelled", Text: `{"reasoning": "order 12345 is cancelled", "score": 1}`},
	}}
	j, err := agentjudge.New(model, []agent.Toolbox{orderDB{"12345": "shipped"}}, agentjudge.Config{
		Criteria: "Order 12345 is cancelled in the orders database.",
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	got := judge.Run(context.Background(), j, &judge.Transcript{
		Turns: []judge.Turn{
			{Role: judge.RoleUser, Content: "cancel my order 12345"},
			{Role: judge.RoleAgent, Content: "Done: order 12345 is cancelled."},
		},
	})
	fmt.Println(got.Status, got.Reasoning)
	for _, c := range got.ToolCalls {
		fmt.Printf("the judge called %s %s: %s\n", c.Name, c.Arguments, c.Result)
	}
	// Output:
	// FAIL score 0.1 < 0.7: order 12345 is still shipped, not cancelled
	// the judge called order_status {"id":"12345"}: shipped
}
