package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// The repository's GitHub Action (action.yml) runs suites with the flags
// gavel has: its run step's script is run here with a gavel built from
// this checkout, in a pull request's repository, as GitHub would.
func TestAction(t *testing.T) {
	gavel := gavelBinary(t)
	for _, tool := range []string{"git", "bash"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skip("needs " + tool)
		}
	}
	script := actionScript(t, "run")
	bin := filepath.Dir(gavel)
	repo := starterRepo(t) // two cases, of greet/ and returns/
	base, _ := exec.Command("git", "-C", repo, "rev-parse", "HEAD").Output()
	os.MkdirAll(filepath.Join(repo, "returns"), 0o755)
	os.WriteFile(filepath.Join(repo, "returns", "policy.md"), []byte("30 days"), 0o644)
	summary := filepath.Join(t.TempDir(), "summary")

	cmd := exec.Command("bash", "-c", script)
	cmd.Dir = repo
	cmd.Env = append(os.Environ(),
		"PATH="+bin+string(os.PathListSeparator)+os.Getenv("PATH"),
		"GITHUB_ACTIONS=true", "GITHUB_STEP_SUMMARY="+summary,
		"GAVEL_SUITES=.", "GAVEL_CHANGED_SINCE=", "GAVEL_BASE="+strings.TrimSpace(string(base)),
		"GAVEL_JUNIT=reports/gavel-junit.xml", "GAVEL_ARGS=--no-cache --trials 1",
	)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("the action's script: %v\n%s", err, out)
	}
	if !strings.Contains(string(out), "1 of 2 cases affected by the 1 files changed since") {
		t.Errorf("the action did not select by the pull request's base:\n%s", out)
	}
	if _, err := os.Stat(filepath.Join(repo, "reports", "gavel-junit.xml")); err != nil {
		t.Errorf("no JUnit report: %v", err)
	}
	if data, _ := os.ReadFile(summary); !strings.Contains(string(data), "Pass rate") {
		t.Errorf("the step summary:\n%s", data)
	}
}
