package agentjudge_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/gavelhq/gavel/agent"
	"github.com/gavelhq/gavel/agentjudge"
	"github.com/gavelhq/gavel/judge"
	"github.com/gavelhq/gavel/judge/judgetest"
	"github.com/gavelhq/gavel/llm"
	"github.com/gavelhq/gavel/llm/llmtest"
	"github.com/gavelhq/gavel/mcp"
	"github.com/gavelhq/gavel/mcp/mcptest"
)

// filesystemServer starts the official MCP filesystem server
// (@modelcontextprotocol/server-filesystem, installed by
// mcp/testdata/install-servers.sh) with dir as its one allowed directory,
// until t ends.
func filesystemServer(t *testing.T, dir string) *mcp.Client {
	t.Helper()
	bin := mcptest.ServerBin(t, "mcp-server-filesystem")
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	c, err := mcp.Connect(ctx, mcp.Server{Name: "filesystem", Command: []string{bin, dir}, Timeout: 30 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return c
}

// workspace returns a fresh directory holding files (name → content),
// with symlinks resolved: the filesystem server compares real paths.
func workspace(t *testing.T, files map[string]string) string {
	t.Helper()
	dir, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	for name, content := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// notesTranscript is a trial whose agent says it wrote the meeting's
// action items to notes.md in dir.
func notesTranscript(dir string) *judge.Transcript {
	return &judge.Transcript{
		Goal:      "write the action items of today's meeting to notes.md",
		Workspace: dir,
		Turns: []judge.Turn{
			{Role: judge.RoleUser, Content: "write the action items of today's meeting to notes.md"},
			{Role: judge.RoleAgent, Content: "Done: notes.md lists the three action items."},
		},
		Status: judge.ExecSuccess,
	}
}

const notesCriteria = "notes.md in the workspace lists three action items: ship the release, call the bank, book the venue."

// inspector is the judge's scripted model: asked to judge, it reads
// notes.md of the workspace the message names through the filesystem
// server; given the file, it scores it by what it holds: 0.9 when the
// three items are there, 0.3 when some are missing, 0.1 when the read
// failed.
func inspector() *llmtest.Scripted {
	return &llmtest.Scripted{Rules: []llmtest.Rule{{Respond: func(req *llm.Request) (llmtest.Rule, bool) {
		last := req.Messages[len(req.Messages)-1]
		switch {
		case last.Role == llm.RoleUser:
			dir := fencedIn(last.Content, "workspace")
			return llmtest.Rule{ToolCalls: []llm.ToolCall{{Name: "read_text_file", Arguments: json.RawMessage(fmt.Sprintf(`{"path":%q}`, filepath.Join(dir, "notes.md")))}}}, true
		case last.Role == llm.RoleTool && last.IsError:
			return llmtest.Rule{Text: `{"reasoning": "notes.md could not be read: ` + jsonText(last.Content) + `", "score": 0.1}`}, true
		case last.Role == llm.RoleTool && strings.Contains(last.Content, "call the bank") && strings.Contains(last.Content, "book the venue"):
			return llmtest.Rule{Text: `{"reasoning": "notes.md lists the three action items.", "score": 0.9}`}, true
		case last.Role == llm.RoleTool:
			return llmtest.Rule{Text: `{"reasoning": "notes.md lacks some action items.", "score": 0.3}`}, true
		}
		return llmtest.Rule{}, false
	}}}}
}

// fencedIn returns the text of the first fence named name in s.
func fencedIn(s, name string) string {
	_, rest, ok := strings.Cut(s, "<"+name+"_")
	if !ok {
		return ""
	}
	_, rest, _ = strings.Cut(rest, ">\n")
	text, _, _ := strings.Cut(rest, "\n</"+name+"_")
	return text
}

// jsonText escapes s for a JSON string, without the quotes.
func jsonText(s string) string {
	b, _ := json.Marshal(s)
	return string(b[1 : len(b)-1])
}

// The judge reads a file of the trial's workspace through the official
// MCP filesystem server before it decides: the verdict follows what the
// file holds, not what the agent said, and the call is kept in the
// judgment with its result; the usage of both model calls is counted,
// in the judgment and in the context's llm.Tally.
func TestJudgeInspectsTheWorkspaceThroughTheFilesystemServer(t *testing.T) {
	tests := []struct {
		name       string
		notes      map[string]string
		wantStatus judge.Status
		wantScore  float64
		wantIn     string
		wantError  bool // the judge's read of notes.md failed
	}{
		{"the file holds what the agent said", map[string]string{"notes.md": "- ship the release\n- call the bank\n- book the venue\n"}, judge.StatusPass, 0.9, "score 0.9 ≥ 0.7: notes.md lists the three action items.", false},
		{"the file lacks what the agent said", map[string]string{"notes.md": "- ship the release\n"}, judge.StatusFail, 0.3, "score 0.3 < 0.7: notes.md lacks some action items.", false},
		// A tool that reports a failure (MCP isError) is a failed call the
		// judge reasons about, not an error of the judge.
		{"the file was never written", nil, judge.StatusFail, 0.1, "score 0.1 < 0.7: notes.md could not be read: ENOENT", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := workspace(t, tt.notes)
			fs := filesystemServer(t, dir)
			meter := llm.NewMeter(nil)
			model := inspector()
			j, err := agentjudge.New(llm.Chain(model, meter.Meter()), []agent.Toolbox{fs}, agentjudge.Config{Criteria: notesCriteria})
			if err != nil {
				t.Fatal(err)
			}
			var tally llm.Tally
			ctx, cancel := context.WithTimeout(llm.WithTally(context.Background(), &tally), judgetest.HangGuard)
			defer cancel()
			got := judge.Run(ctx, j, notesTranscript(dir))

			judgetest.Check(t, got, tt.wantStatus, []string{tt.wantIn}, nil)
			if got.Name != "agent_judge" {
				t.Errorf("name = %q, want agent_judge", got.Name)
			}
			if want, _ := judge.Number(tt.wantScore, 0, 1); !cmp.Equal(got.Score, want) {
				t.Errorf("score = %+v, want %+v", got.Score, want)
			}
			if len(got.ToolCalls) != 1 {
				t.Fatalf("tool calls = %+v, want the one read of notes.md", got.ToolCalls)
			}
			call := got.ToolCalls[0]
			wantArgs := fmt.Sprintf(`{"path":%q}`, filepath.Join(dir, "notes.md"))
			if call.Name != "read_text_file" || string(call.Arguments) != wantArgs || call.ID == "" || call.IsError != tt.wantError {
				t.Errorf("tool call = %+v, want read_text_file %s with an id, is_error %v", call, wantArgs, tt.wantError)
			}
			if content := tt.notes["notes.md"]; content != "" && !strings.Contains(call.Result, content) {
				t.Errorf("tool call result = %q, want the file's content %q", call.Result, content)
			}

			calls := model.Calls()
			if len(calls) != 2 {
				t.Fatalf("%d model calls, want 2 (read the file, then answer)", len(calls))
			}
			if got.Usage.Calls != 2 || got.Usage.InputTokens == 0 || got.Usage.OutputTokens == 0 {
				t.Errorf("usage = %+v, want 2 calls with their tokens", got.Usage)
			}
			var tallied llm.Usage
			for _, u := range tally.ByModel() {
				tallied = tallied.Add(u)
			}
			if judge.Usage(tallied) != got.Usage {
				t.Errorf("the context's tally counted %+v, the judgment %+v: want the same", tallied, got.Usage)
			}
			var tools []string
			for _, tool := range calls[0].Tools {
				tools = append(tools, tool.Name)
			}
			if !slices.Contains(tools, "read_text_file") {
				t.Errorf("the judge's model was offered %v, want the filesystem server's tools", tools)
			}
		})
	}
}

// The filesystem server offers tools that write: allowed_tools keeps the
// judge to the ones that read, so it cannot change the outcome it judges
// (nor what later judges see). A name no server offers is an ERROR that
// lists the tools there are.
func TestAllowedToolsKeepTheJudgeToReading(t *testing.T) {
	dir := workspace(t, goodNotes)
	fs := filesystemServer(t, dir)
	model := inspector()
	j := newJudge(t, model, []agent.Toolbox{fs}, agentjudge.Config{AllowedTools: []string{"read_text_file", "list_directory"}})
	got := judgetest.Run(t, j, notesTranscript(dir))
	judgetest.Check(t, got, judge.StatusPass, []string{"score 0.9 ≥ 0.7"}, nil)
	var offered []string
	for _, tool := range model.Calls()[0].Tools {
		offered = append(offered, tool.Name)
	}
	if !slices.Equal(offered, []string{"read_text_file", "list_directory"}) {
		t.Errorf("the judge was offered %v, want only the allowed tools, in the server's order", offered)
	}

	// A tool that is not allowed is unknown to the judge, even when it
	// asks for it by name.
	writer := &llmtest.Scripted{Rules: []llmtest.Rule{{Respond: func(req *llm.Request) (llmtest.Rule, bool) {
		if !sawTool(req) {
			return llmtest.Rule{ToolCalls: []llm.ToolCall{{Name: "write_file", Arguments: json.RawMessage(fmt.Sprintf(`{"path":%q,"content":"forged"}`, filepath.Join(dir, "notes.md")))}}}, true
		}
		return llmtest.Rule{Text: `{"reasoning": "could not write", "score": 0.5}`}, true
	}}}}
	got = judgetest.Run(t, newJudge(t, writer, []agent.Toolbox{fs}, agentjudge.Config{AllowedTools: []string{"read_text_file"}}), notesTranscript(dir))
	if len(got.ToolCalls) != 1 || !got.ToolCalls[0].IsError || !strings.Contains(got.ToolCalls[0].Result, `unknown tool "write_file"`) {
		t.Errorf("tool calls = %+v, want write_file refused", got.ToolCalls)
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "notes.md")); string(b) != goodNotes["notes.md"] {
		t.Errorf("notes.md = %q: the judge changed the workspace", b)
	}

	got = judgetest.Run(t, newJudge(t, inspector(), []agent.Toolbox{fs}, agentjudge.Config{AllowedTools: []string{"read_text_file", "read_fil"}}), notesTranscript(dir))
	judgetest.Check(t, got, judge.StatusError, []string{`allowed_tools names "read_fil", which no tool source offers`, "read_file", "read_text_file"}, nil)
}
