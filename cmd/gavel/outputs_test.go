package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gavelhq/gavel/report"
)

// --out takes a format explicitly, for a file whose name says none, such
// as GitHub's step summary.
func TestOutputFormats(t *testing.T) {
	for _, tc := range []struct {
		arg, path string
		format    report.Format
		wantErr   string
	}{
		{arg: "report.xml", path: "report.xml", format: report.JUnit},
		{arg: "markdown=/home/runner/_temp/step_summary_1a2b", path: "/home/runner/_temp/step_summary_1a2b", format: report.Markdown},
		{arg: "junit=out/results", path: "out/results", format: report.JUnit},
		{arg: "md=x", path: "x", format: report.Markdown},
		{arg: "a=b.json", path: "a=b.json", format: report.JSON}, // "a" is no format: a path
		{arg: "/tmp/step_summary", wantErr: "--out /tmp/step_summary: the name says no format: give it as FORMAT=FILE (markdown=/tmp/step_summary)"},
		{arg: "pdf=x.pdf", wantErr: `unknown report format "pdf"`},
	} {
		got, err := outputs([]string{tc.arg})
		switch {
		case tc.wantErr != "":
			if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
				t.Errorf("%s: got %v, want %q", tc.arg, err, tc.wantErr)
			}
		case err != nil || len(got) != 1 || got[0].path != tc.path || got[0].format != tc.format:
			t.Errorf("%s: got %+v, %v; want %s as %s", tc.arg, got, err, tc.path, tc.format)
		}
	}
}

// In GitHub Actions, the run's Markdown summary is added to the step
// summary by itself, after what earlier steps wrote there.
func TestGitHubStepSummary(t *testing.T) {
	summary := filepath.Join(t.TempDir(), "step_summary")
	os.WriteFile(summary, []byte("## Unit tests\nall green\n"), 0o644)
	t.Setenv("GITHUB_ACTIONS", "true")
	t.Setenv("GITHUB_STEP_SUMMARY", summary)
	suite := filepath.Join(t.TempDir(), "evals")
	if code, _, errs := gavelCmd(t, "init", suite); code != exitPassed {
		t.Fatal(errs)
	}
	if code, out, errs := gavelCmd(t, "run", "--quiet", "--no-cache", suite); code != exitPassed {
		t.Fatalf("exit %d\n%s%s", code, out, errs)
	}
	data, _ := os.ReadFile(summary)
	if !strings.HasPrefix(string(data), "## Unit tests\nall green\n") || !strings.Contains(string(data), "Pass rate") {
		t.Errorf("the step summary:\n%s", data)
	}
	// Naming it with --out as well writes it once.
	os.WriteFile(summary, nil, 0o644)
	if code, _, errs := gavelCmd(t, "run", "--quiet", "--no-cache", "--out", "markdown="+summary, suite); code != exitPassed {
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
	if code != exitFailed {
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
