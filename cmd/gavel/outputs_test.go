package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gavelhq/gavel/eval"
)

// In GitHub Actions, the run's Markdown summary is added to the step
// summary by itself, after what earlier steps wrote there.
func TestGitHubStepSummary(t *testing.T) {
	summary := filepath.Join(t.TempDir(), "step_summary")
	os.WriteFile(summary, []byte("## Unit tests\nall green\n"), 0o644)
	t.Setenv("GITHUB_ACTIONS", "true")
	t.Setenv("GITHUB_STEP_SUMMARY", summary)
	suite := filepath.Join(t.TempDir(), "evals")
	if code, _, errs := gavelCmd(t, "init", suite); code != eval.ExitPassed {
		t.Fatal(errs)
	}
	if code, out, errs := gavelCmd(t, "run", "--quiet", "--no-cache", suite); code != eval.ExitPassed {
		t.Fatalf("exit %d\n%s%s", code, out, errs)
	}
	data, _ := os.ReadFile(summary)
	if !strings.HasPrefix(string(data), "## Unit tests\nall green\n") || !strings.Contains(string(data), "Pass rate") {
		t.Errorf("the step summary:\n%s", data)
	}
	// Naming it with --out as well writes it once.
	os.WriteFile(summary, nil, 0o644)
	if code, _, errs := gavelCmd(t, "run", "--quiet", "--no-cache", "--out", "markdown="+summary, suite); code != eval.ExitPassed {
		t.Fatal(errs)
	}
	if data, _ := os.ReadFile(summary); strings.Count(string(data), "Pass rate") != 1 {
		t.Errorf("the summary written %d times:\n%s", strings.Count(string(data), "Pass rate"), data)
	}
}

// --quiet prints the summary alone: no table of cases, no failure detail,
// no progress, nothing an exec agent writes to its stderr; the report
// files are whole.
func TestQuiet(t *testing.T) {
	dir := t.TempDir()
	// An exec agent (docs/exec-protocol.md) that says hi, and writes noise
	// to its stderr.
	os.WriteFile(filepath.Join(dir, "agent.py"), []byte(`import json, sys
for line in sys.stdin:
    req = json.loads(line)
    print("agent noise", file=sys.stderr, flush=True)
    answer = {"type": "reply", "id": req["id"], "text": "hi"} if req["type"] == "message" else {"type": "ok", "id": req["id"]}
    print(json.dumps(answer), flush=True)
`), 0o644)
	os.WriteFile(filepath.Join(dir, "gavel.yaml"), []byte(`agent: {exec: {command: [python3, agent.py]}}
cases:
  - {id: greets, input: hello, rules: [{contains: hi}]}
  - {id: refunds, input: 'refund?', rules: [{contains: refund}]}
`), 0o644)
	code, out, errs := gavelCmd(t, "run", "--quiet", "--no-cache", "--out", "full.txt", dir)
	if code != eval.ExitFailed {
		t.Fatalf("exit %d\n%s%s", code, out, errs)
	}
	for _, unwanted := range []string{"| PASS", "Failure detail", "[1/2]", "agent noise"} {
		if strings.Contains(out+errs, unwanted) {
			t.Errorf("--quiet printed %q:\n%s\n%s", unwanted, out, errs)
		}
	}
	if !strings.Contains(out, "Pass rate: 50% over 2 cases") || !strings.Contains(out, "FAIL: refunds") {
		t.Errorf("--quiet's summary:\n%s", out)
	}
	if full, _ := os.ReadFile("full.txt"); !strings.Contains(string(full), "Failure detail (refunds") {
		t.Errorf("the text report file is not whole:\n%s", full)
	}
}
