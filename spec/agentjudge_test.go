package spec

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gavelhq/gavel/judge"
	"github.com/gavelhq/gavel/llm"
	"github.com/gavelhq/gavel/llm/llmtest"
	"github.com/gavelhq/gavel/mcp/mcptest"
)

// TestAgentJudgeFromASuiteFile names an agent judge in a suite file, with
// the official filesystem server on the suite's workspace as its tool: the
// verdict follows the file the agent wrote, not what the agent said.
func TestAgentJudgeFromASuiteFile(t *testing.T) {
	fs := mcptest.ServerBin(t, "mcp-server-filesystem")
	dir, err := filepath.EvalSymlinks(t.TempDir()) // the server compares real paths
	if err != nil {
		t.Fatal(err)
	}
	ws := filepath.Join(dir, "ws")
	os.Mkdir(ws, 0o755)
	suite := fmt.Sprintf(`agent: {exec: {command: [cat]}}
models: {judge: 'fake:judge'}
workspace: ws
cases:
  - id: notes
    input: write the action items to notes.md
    judges:
      - agent_judge:
          criteria: notes.md lists the action item "call the bank".
          mcp: [{name: files, command: [%q, ws]}]
          allowed_tools: [read_text_file]
`, fs)
	os.WriteFile(filepath.Join(dir, "gavel.yaml"), []byte(suite), 0o644)
	model := &llmtest.Scripted{Rules: []llmtest.Rule{{Respond: func(req *llm.Request) (llmtest.Rule, bool) {
		last := req.Messages[len(req.Messages)-1]
		switch {
		case last.Role == llm.RoleUser:
			return llmtest.Rule{ToolCalls: []llm.ToolCall{{Name: "read_text_file", Arguments: json.RawMessage(fmt.Sprintf(`{"path":%q}`, filepath.Join(ws, "notes.md")))}}}, true
		case last.Role == llm.RoleTool && strings.Contains(last.Content, "call the bank"):
			return llmtest.Rule{Text: `{"reasoning": "notes.md has it.", "score": 0.9}`}, true
		default:
			return llmtest.Rule{Text: `{"reasoning": "notes.md lacks it.", "score": 0.2}`}, true
		}
	}}}}
	b, err := Open(dir, registryEnv(model))
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	c := b.Suite.Cases[0]
	if c.Script.Workspace != ws {
		t.Fatalf("the case's workspace is %q, want %q", c.Script.Workspace, ws)
	}
	for _, tc := range []struct {
		notes string
		want  judge.Status
	}{{"- call the bank\n", judge.StatusPass}, {"- buy milk\n", judge.StatusFail}} {
		os.WriteFile(filepath.Join(ws, "notes.md"), []byte(tc.notes), 0o644)
		tr := &judge.Transcript{Workspace: c.Script.Workspace, Turns: []judge.Turn{{Role: judge.RoleUser, Content: "write the action items"}, {Role: judge.RoleAgent, Content: "Done: notes.md has every action item."}}}
		got := judge.Run(context.Background(), c.Judge, tr)
		if got.Status != tc.want {
			t.Errorf("notes %q: got %s: %s", tc.notes, got.Status, got.Reasoning)
		}
		if calls := got.ToolCalls; len(calls) != 1 || calls[0].Name != "read_text_file" {
			t.Errorf("the judgment keeps the judge's calls: %+v", calls)
		}
	}
}
