package main

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gavelhq/gavel/eval"
	"github.com/gavelhq/gavel/mcp/mcptest"
)

// replaySuite writes a suite whose builtin agent, to "remember NAME",
// creates the entity NAME in the memory reference server (a real MCP
// server, whose file shows every entity created), and returns the
// directory, the memory file and a results database beside them.
func replaySuite(t *testing.T, replay string) (dir, memory, db string) {
	t.Helper()
	bin := mcptest.ServerBin(t, "mcp-server-memory")
	dir = t.TempDir()
	memory, db = filepath.Join(dir, "memory.jsonl"), filepath.Join(dir, "results.db")
	writeReplaySuite(t, dir, memory, bin, replay)
	return dir, memory, db
}

func writeReplaySuite(t *testing.T, dir, memory, bin, replay string) {
	t.Helper()
	suite := fmt.Sprintf("name: remember\nconcurrency: 1 # the memory server loses one of two writes at once\nagent:\n  builtin: {model: script:agent.yaml, mcp: [{command: [%q], env: [%q]}]}\n", bin, "MEMORY_FILE_PATH="+memory)
	if replay != "" {
		suite += "  replay_tools: " + replay + "\n"
	}
	suite += "cases:\n" +
		"  - {id: ada, input: remember Ada, expected_tools: [create_entities]}\n" +
		"  - {id: grace, input: remember Grace, expected_tools: [create_entities]}\n"
	script := `name: remember-agent
rules:
  - when: {last: user, user: 'remember (?P<who>\w+)'}
    tool_calls: [{name: create_entities, arguments: {entities: [{name: '${who}', entityType: person, observations: [met at the test]}]}}]
  - when: {last: tool, text: '(?s)(?P<result>.*)'}
    text: 'The tool said: ${result}'
`
	for name, content := range map[string]string{"gavel.yaml": suite, "agent.yaml": script} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// remembered is what the memory server keeps, "" before anything.
func remembered(t *testing.T, memory string) string {
	t.Helper()
	data, err := os.ReadFile(memory)
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		t.Fatal(err)
	}
	return string(data)
}

// Record once against the live server, then replay: gavel run
// --replay-tools RUN, and a suite's replay_tools: {run: latest}, make no
// call to the server (its file stays empty) and mark every call replayed,
// from a SQLite results database; a run that is not there is a usage
// error naming the flag.
func TestReplayTools(t *testing.T) {
	dir, memory, db := replaySuite(t, "")
	recorded := savedRun(t, eval.ExitPassed, "--db", db, dir)
	if got := remembered(t, memory); !strings.Contains(got, "Ada") || !strings.Contains(got, "Grace") {
		t.Fatalf("the live run left the memory %q", got)
	}
	if err := os.Remove(memory); err != nil {
		t.Fatal(err)
	}

	code, out, errs := gavelCmd(t, "run", "--no-cache", "--verbose", "--db", db, "--replay-tools", recorded, dir)
	if code != eval.ExitPassed {
		t.Fatalf("replaying: exit %d\n%s%s", code, out, errs)
	}
	for _, want := range []string{"Tool calls replayed from the recorded run: 2 of 2\n", "[replayed]"} {
		if !strings.Contains(out, want) {
			t.Errorf("the report of the replayed run lacks %q:\n%s", want, out)
		}
	}
	if got := remembered(t, memory); got != "" {
		t.Errorf("the replayed run called the server: memory %q", got)
	}
	replayed := runID.FindStringSubmatch(errs)[1]
	code, out, _ = gavelCmd(t, "show", "--db", db, replayed, "ada")
	if code != eval.ExitPassed || !strings.Contains(out, "[replayed]") || !strings.Contains(out, "Replays the tool results of run "+recorded+":") {
		t.Errorf("gavel show of a replayed case: exit %d, want its call marked replayed and the run replayed named:\n%s", code, out)
	}

	// The suite says it: the newest finished run, itself a replay, is
	// replayed as well.
	writeReplaySuite(t, dir, memory, mcptest.ServerBin(t, "mcp-server-memory"), "{run: latest}")
	savedRun(t, eval.ExitPassed, "--db", db, dir)
	if got := remembered(t, memory); got != "" {
		t.Errorf("replaying the latest run called the server: memory %q", got)
	}

	code, _, errs = gavelCmd(t, "run", "--no-cache", "--db", db, "--replay-tools", "no-such-run", dir)
	if code != eval.ExitUsage || !strings.Contains(errs, `--replay-tools "no-such-run": no run has id or label "no-such-run"`) {
		t.Errorf("replaying a run that is not there: exit %d, want %d and an error naming the flag:\n%s", code, eval.ExitUsage, errs)
	}
	// Workers build the suite from its file, which must say it.
	code, _, errs = gavelCmd(t, "run", "--queue", "--db", db, "--replay-tools", recorded, dir)
	if code != eval.ExitUsage || !strings.Contains(errs, "--replay-tools does not go with --queue") {
		t.Errorf("--replay-tools with --queue: exit %d, want %d:\n%s", code, eval.ExitUsage, errs)
	}
}
