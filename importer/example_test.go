package importer_test

import (
	"fmt"
	"os"

	"github.com/gavelhq/gavel/importer"
)

// Read an OpenAI chat log: one case per conversation, each with its
// transcript, not judged yet; then write its user turns as suite cases.
func ExampleRead() {
	batch, err := importer.Read([]string{"testdata/chats.jsonl"}, "")
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, c := range batch.Cases {
		t := c.Trials[0].Transcript
		fmt.Printf("%s: %q, %d tool calls, %d tokens, %s\n", c.ID, t.Goal, len(t.ToolCalls()), t.Usage.Tokens(), c.Trials[0].Verdict.Status)
	}
	n, _, _ := importer.WriteCases(os.Stdout, batch.Cases[2:])
	fmt.Println(n, "case written")
	// Output:
	// lookup-12345: "where's my order #12345?", 1 tool calls, 469 tokens, ABSTAIN
	// chats-2: "cancel order 99999", 3 tool calls, 0 tokens, ABSTAIN
	// weather-1: "what's the weather?", 0 tool calls, 0 tokens, ABSTAIN
	// # Cases imported by gavel import from conversations recorded elsewhere:
	// # each case's script is the conversation's user turns (input: for one,
	// # rounds: for several). Their judges are only what the recorded agent did
	// # (expected_tools: the tools it called successfully; expected_tool_calls: []
	// # when it called none), so that the file is a valid suite file: review
	// # each case and write the judges it deserves before it gates anything.
	// - id: weather-1
	//   input: what's the weather?
	//   expected_tool_calls: []
	//   tags: [imported]
	//   metadata:
	//     id: weather-1
	//     source: testdata/chats.jsonl:4
	// 1 case written
}
