package main

import (
	"github.com/gavelhq/gavel/eval"
	"github.com/gavelhq/gavel/llm/llmtest"

	"bytes"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// gavel runs the command in a temporary working directory (so its cache
// and reports land there) and returns its exit code and output.
func gavelCmd(t *testing.T, args ...string) (int, string, string) {
	t.Helper()
	t.Chdir(t.TempDir())
	var stdout, stderr bytes.Buffer
	code := run(args, stdio{strings.NewReader(""), &stdout, &stderr})
	return code, stdout.String(), stderr.String()
}

func example(t *testing.T) string {
	t.Helper()
	dir, err := filepath.Abs(filepath.Join("..", "..", "examples", "support-desk"))
	if err != nil {
		t.Fatal(err)
	}
	return dir
}

// The README's main job: the offline support-desk suite passes its 80%
// threshold and catches the policy edge with a hard rule.
func TestRunSupportDesk(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs the example's MCP server")
	}
	suite := example(t)
	code, out, errs := gavelCmd(t, "run", "--no-cache", "--out", "reports/junit.xml", suite)
	if code != eval.ExitPassed {
		t.Fatalf("exit %d, want 0\n%s\n%s", code, out, errs)
	}
	for _, want := range []string{
		"case_005 | FAIL",
		"Pass rate: 90.9% over 11 cases",
		"FAIL forbidden_tools cancel_order: called forbidden tool cancel_order",
		"decided by tier 1",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("the report lacks %q:\n%s", want, out)
		}
	}
	for _, f := range []string{"junit.xml", "latest.json"} {
		if _, err := os.Stat(filepath.Join("reports", f)); err != nil {
			t.Errorf("report %s: %v", f, err)
		}
	}

	// A stricter threshold fails the run: exit 1.
	if code, _, _ := gavelCmd(t, "run", "--quiet", "--no-cache", "--min-pass-rate", "1", "--id", "case_005", suite); code != eval.ExitFailed {
		t.Errorf("with case_005 alone at 100%%: exit %d, want 1", code)
	}
}

// A second run answered from the cache earns the same exit code and the
// same verdicts as the first, with output piped (not a terminal).
func TestCachedRunMatches(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs the example's MCP server")
	}
	suite := example(t)
	t.Chdir(t.TempDir()) // the cache goes to .gavel/cache here
	args := []string{"run", "--min-pass-rate", "1", "--id", "case_001", "--id", "case_005", suite}
	var first, second bytes.Buffer
	code1 := run(args, stdio{strings.NewReader(""), &first, io.Discard})
	code2 := run(args, stdio{strings.NewReader(""), &second, io.Discard})
	if code1 != eval.ExitFailed || code2 != code1 {
		t.Errorf("exit codes %d then %d, want 1 twice (case_005 fails)", code1, code2)
	}
	verdicts := func(out string) string {
		_, table, _ := strings.Cut(out, "case_001 |")
		table, _, _ = strings.Cut(table, "Pass rate")
		return table
	}
	if a, b := verdicts(first.String()), verdicts(second.String()); a != b || a == "" {
		t.Errorf("the cached run differs:\nfirst:\n%s\nsecond:\n%s", first.String(), second.String())
	}
}

// The same agent behind its HTTP API, which reports no tool calls: Gavel's
// recording proxy sees them, and the same hard rule catches the policy
// edge.
func TestRunSupportDeskOverHTTP(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs the example's agent and MCP server")
	}
	suite := example(t)
	agentAddr, toolsAddr := freeAddr(t), freeAddr(t)
	bin := filepath.Join(t.TempDir(), "desk-agent")
	build := exec.Command("go", "build", "-o", bin, "./cmd/desk-agent")
	build.Dir = suite
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build desk-agent: %v\n%s", err, out)
	}
	deskAgent := exec.Command(bin, "-addr", agentAddr, "-mcp", "http://"+toolsAddr+"/mcp")
	deskAgent.Dir = suite
	if err := deskAgent.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { deskAgent.Process.Kill(); deskAgent.Wait() })
	t.Setenv("DESK_AGENT_URL", "http://"+agentAddr)
	t.Setenv("DESK_TOOLS_ADDR", toolsAddr)

	code, out, errs := gavelCmd(t, "run", "--no-cache", filepath.Join(suite, "http.yaml"))
	if code != eval.ExitPassed {
		t.Fatalf("exit %d, want 0\n%s\n%s", code, out, errs)
	}
	for _, want := range []string{
		"case_005 | FAIL",
		"Pass rate: 90.9% over 11 cases",
		"round 1: cancel_order({\"confirmation\":true,\"order_id\":\"12345\"})",
		"FAIL forbidden_tools cancel_order: called forbidden tool cancel_order",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("the report lacks %q:\n%s", want, out)
		}
	}
}

// freeAddr returns a loopback address no one listens on, for a program
// the test starts.
func freeAddr(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().String()
}

func TestSuiteErrorsExit2(t *testing.T) {
	dir := t.TempDir()
	suite := filepath.Join(dir, "gavel.yaml")
	os.WriteFile(suite, []byte(`name: broken
agent:
  exec: {command: [cat]}
models: {judge: script:judge.yaml}
cases:
  - id: a
    input: hi
    judge_treshold: 0.7
    judge_prompt: be nice
  - id: a
    input: hello
    expected_tools: [x]
  - id: b
    input: hi
  - missing/*.jsonl
`), 0o644)
	code, _, errs := gavelCmd(t, "validate", suite)
	if code != eval.ExitUsage {
		t.Fatalf("exit %d, want 2:\n%s", code, errs)
	}
	for _, want := range []string{
		`gavel.yaml:8:5: unknown field "judge_treshold" in a case: did you mean "judge_threshold"?`,
		`case id "a" is used twice`,
		"case b: nothing to judge",
		`cases "missing/*.jsonl" match no file`,
		"judge.yaml: no such file",
	} {
		if !strings.Contains(errs, want) {
			t.Errorf("the problems lack %q:\n%s", want, errs)
		}
	}
	if code, _, _ := gavelCmd(t, "run", suite); code != eval.ExitUsage {
		t.Errorf("run of a broken suite: exit %d, want 2", code)
	}
}

func TestVersionAndUsage(t *testing.T) {
	if code, out, _ := gavelCmd(t, "version"); code != 0 || !strings.HasPrefix(out, "gavel ") {
		t.Errorf("version: %d %q", code, out)
	}
	if code, _, errs := gavelCmd(t, "frobnicate"); code != eval.ExitUsage || !strings.Contains(errs, `unknown command "frobnicate"`) {
		t.Errorf("unknown command: %d %q", code, errs)
	}
}

// A judge of the agent's own family is worth a warning, not a failure:
// validate and run print it (run before anything runs) and go on.
func TestJudgeHierarchyWarning(t *testing.T) {
	dir := t.TempDir()
	suite := filepath.Join(dir, "gavel.yaml")
	os.WriteFile(suite, []byte(`name: same-family
agent:
  exec: {command: [cat]}
models: {agent: 'openai:gpt-5-mini', judge: 'openai:gpt-5'}
max_followups: -1
cases:
  - {id: a, input: hi, judge_prompt: be nice}
`), 0o644)
	const want = "gavel.yaml:7: warning: judge model openai:gpt-5 and agent model openai:gpt-5-mini are both gpt models"
	code, out, errs := gavelCmd(t, "validate", suite)
	if code != eval.ExitPassed || !strings.Contains(out, "1 cases, valid") || !strings.Contains(errs, want) {
		t.Errorf("validate: exit %d\n%s%s", code, out, errs)
	}
	judgeServer := llmtest.NewOpenAIServer(&llmtest.Scripted{Rules: []llmtest.Rule{{Text: `{"reasoning": "fine", "score": 0.9}`}}})
	defer judgeServer.Close()
	t.Setenv("OPENAI_BASE_URL", judgeServer.URL)
	t.Setenv("OPENAI_API_KEY", "sk-test")
	code, _, errs = gavelCmd(t, "run", "--no-cache", "--db", filepath.Join(dir, "runs.db"), suite)
	if !strings.Contains(errs, want) { // the run's outcome does not matter here
		t.Errorf("run (exit %d) does not warn:\n%s", code, errs)
	}
}
