package spec_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gavelhq/gavel"
	"github.com/gavelhq/gavel/judge"
	"github.com/gavelhq/gavel/mcp/mcptest"
	"github.com/gavelhq/gavel/mock"
	"github.com/gavelhq/gavel/runner"
	"github.com/gavelhq/gavel/spec"
)

// rememberAgentScript is the builtin agent's model: to "remember NAME" it
// creates the entity NAME in the memory server, and repeats the result.
const rememberAgentScript = `name: remember-agent
rules:
  - when: {last: user, user: 'remember (?P<who>\w+)'}
    tool_calls: [{name: create_entities, arguments: {entities: [{name: '${who}', entityType: person, observations: [met at the test]}]}}]
  - when: {last: tool, text: '(?s)(?P<result>.*)'}
    text: 'The tool said: ${result}'
`

// recordingOf is what a stored run's tool calls are to a replay.
func recordingOf(run *gavel.Run) mock.Recording {
	rec := mock.Recording{}
	for _, c := range run.Cases {
		for _, tr := range c.Trials {
			for len(rec[c.Case.ID]) < tr.N {
				rec[c.Case.ID] = append(rec[c.Case.ID], nil)
			}
			rec[c.Case.ID][tr.N-1] = tr.Transcript.ToolCalls()
		}
	}
	return rec
}

// TestReplayTools records a run against the memory reference server (a
// real, stateful MCP server, whose file shows every entity created), and
// replays it: a replayed run leaves the server's file untouched and gives
// the agent the recorded result, marked replayed; a call with other
// arguments is refused with an error result, or, unmatched: live, made
// for real. So for a builtin agent's MCP server and for an http agent's,
// through the recording proxy.
func TestReplayTools(t *testing.T) {
	bin := mcptest.ServerBin(t, "mcp-server-memory")
	for _, kind := range []string{"builtin", "http"} {
		t.Run(kind, func(t *testing.T) {
			dir := t.TempDir()
			memory := filepath.Join(dir, "memory.jsonl")
			server := fmt.Sprintf(`{command: [%q], env: [%q]}`, bin, "MEMORY_FILE_PATH="+memory)
			input := func(who string) string { return "remember " + who }
			agentYAML := "agent:\n  builtin: {model: script:agent.yaml, mcp: [" + server + "]}\n"
			if kind == "http" {
				listen := fmt.Sprintf("127.0.0.1:%d", mcptest.FreePort(t))
				input = func(who string) string {
					return `call create_entities {"entities":[{"name":"` + who + `","entityType":"person","observations":["met at the test"]}]}`
				}
				agentYAML = "agent:\n  http: {url: '" + toolAgent(t, "http://"+listen+"/mcp") + "'}\n" +
					"  mcp_proxy: [{command: [" + fmt.Sprintf("%q", bin) + "], env: [" + fmt.Sprintf("%q", "MEMORY_FILE_PATH="+memory) + "], listen: '" + listen + "'}]\n"
			}
			var recorded *gavel.Run
			env := testEnv()
			env.ToolRecording = func(suite, ref string) (string, mock.Recording, error) {
				if ref != "first" || recorded == nil {
					return "", nil, errors.New("no run has id or label " + ref)
				}
				return "run-1", recordingOf(recorded), nil
			}
			// run runs the suite, its case's input made of who, its agent
			// replaying as replay says, and returns its one call.
			run := func(t *testing.T, who, replay string) (*gavel.Run, judge.ToolCall) {
				t.Helper()
				suite := agentYAML
				if replay != "" {
					suite += "  replay_tools: " + replay + "\n"
				}
				suite += "cases:\n  - {id: remember, input: " + fmt.Sprintf("%q", input(who)) + ", expected_tools: [create_entities]}\n"
				d := suiteDir(t, map[string]string{"gavel.yaml": suite, "agent.yaml": rememberAgentScript})
				b, err := spec.Open(d, env)
				if err != nil {
					t.Fatal(err)
				}
				defer b.Close()
				if replay != "" && b.ReplayedRun != "run-1" {
					t.Errorf("ReplayedRun %q, want run-1", b.ReplayedRun)
				}
				ctx, cancel := context.WithTimeout(t.Context(), time.Minute)
				defer cancel()
				r := runner.Run(ctx, b.Suite, runner.Config{Concurrency: 1, Timeout: 30 * time.Second})
				calls := r.Cases[0].Trials[0].Transcript.ToolCalls()
				if len(calls) != 1 {
					t.Fatalf("%d calls: %+v (%s)", len(calls), calls, r.Cases[0].Trials[0].Verdict.Reasoning)
				}
				return r, calls[0]
			}
			remembered := func() string {
				data, err := os.ReadFile(memory)
				if err != nil && !errors.Is(err, os.ErrNotExist) {
					t.Fatal(err)
				}
				return string(data)
			}

			var live judge.ToolCall
			recorded, live = run(t, "Ada", "")
			if live.IsError || live.Replayed != "" || !strings.Contains(live.Result, "Ada") || !strings.Contains(remembered(), "Ada") {
				t.Fatalf("the live run: %+v; memory %q", live, remembered())
			}
			if err := os.Remove(memory); err != nil {
				t.Fatal(err)
			}

			_, replayed := run(t, "Ada", "{run: first}")
			if replayed.Result != live.Result || replayed.IsError || replayed.Replayed != judge.ReplayRecorded {
				t.Errorf("replayed: %+v\nwant the live run's result, marked replayed: %q", replayed, live.Result)
			}
			if got := remembered(); got != "" {
				t.Errorf("a replayed run called the server: memory %q", got)
			}

			_, refused := run(t, "Grace", "{run: first, unmatched: error}")
			if !refused.IsError || refused.Replayed != judge.ReplayUnmatched || !strings.Contains(refused.Result, "not in the recorded run run-1") {
				t.Errorf("a call with other arguments: %+v, want it refused, marked unmatched", refused)
			}
			if got := remembered(); got != "" {
				t.Errorf("a refused call reached the server: memory %q", got)
			}

			_, passed := run(t, "Grace", "{run: first, unmatched: live}")
			if passed.IsError || passed.Replayed != "" || !strings.Contains(passed.Result, "Grace") || !strings.Contains(remembered(), "Grace") {
				t.Errorf("a call with other arguments, unmatched live: %+v; memory %q", passed, remembered())
			}
		})
	}
}

// A replay's problems are the suite's, at the field (or the flag) that
// names the run: a run that is not there, an unmatched mode that is not
// one, a program without a results database.
func TestReplayToolsProblems(t *testing.T) {
	const cases = "models: {judge: 'fake:judge'}\ncases:\n  - {id: a, input: hi, expected_tools: [x]}\n"
	agent := "agent:\n  builtin: {model: 'fake:agent'}\n"
	noRun := func(suite, ref string) (string, mock.Recording, error) {
		return "", nil, fmt.Errorf("no run has id or label %q, and no finished run of suite %q is on a branch of that name", ref, suite)
	}
	for _, tc := range []struct {
		name, replay, flag string
		recording          func(string, string) (string, mock.Recording, error)
		want               string
	}{
		{"no such run", "{run: nope}", "", noRun, `gavel.yaml:4:18: agent.replay_tools.run "nope": no run has id or label "nope", and no finished run of suite "s" is on a branch of that name`},
		{"no such run, by flag", "", "nope", noRun, `gavel.yaml: --replay-tools "nope": no run has id or label "nope"`},
		{"no run named", "{unmatched: live}", "", noRun, "gavel.yaml:4:3: agent.replay_tools.run: say which stored run's tool results to replay"},
		{"unmatched", "{run: r1, unmatched: sometimes}", "", noRun, `gavel.yaml:4:27: agent.replay_tools.unmatched "sometimes": want error`},
		{"no database", "{run: r1}", "", nil, "gavel.yaml:4:18: agent.replay_tools.run: replaying tool results needs the results database the run is kept in, and none was given"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			suite := "name: s\n" + agent
			if tc.replay != "" {
				suite += "  replay_tools: " + tc.replay + "\n"
			}
			dir := suiteDir(t, map[string]string{"gavel.yaml": suite + cases})
			env := testEnv()
			env.ToolRecording, env.ReplayTools = tc.recording, tc.flag
			_, err := spec.Open(dir, env)
			hasProblems(t, dir, err, tc.want)
		})
	}
}

// A replay asked of an agent whose tools Gavel neither calls nor records
// replays nothing, and is warned of.
func TestReplayToolsNothingToReplay(t *testing.T) {
	const suite = "agent:\n  http: {url: 'http://127.0.0.1:1/chat'}\n  replay_tools: {run: r1}\nmodels: {judge: 'fake:judge'}\ncases:\n  - {id: a, input: hi, expected_tools: [x]}\n"
	dir := suiteDir(t, map[string]string{"gavel.yaml": suite})
	env := testEnv()
	env.ToolRecording = func(string, string) (string, mock.Recording, error) { return "r1", mock.Recording{}, nil }
	b, err := spec.Open(dir, env)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	if len(b.Warnings) != 1 || !strings.Contains(b.Warnings[0].String(), "gavel.yaml:3:3: warning: agent.replay_tools: the agent has no MCP server that Gavel calls") {
		t.Errorf("warnings %v, want one that nothing is replayed", b.Warnings)
	}
}
