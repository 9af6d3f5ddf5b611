package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gavelhq/gavel/eval"
)

// A repository with the starter suite, whose two cases cover greet/ and
// returns/, committed.
func starterRepo(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	if code, _, errs := gavelCmd(t, "init", dir); code != eval.ExitPassed {
		t.Fatalf("init: %s", errs)
	}
	suite := filepath.Join(dir, "gavel.yaml")
	data, _ := os.ReadFile(suite)
	text := strings.Replace(string(data), "    tags: [smoke]", "    tags: [smoke]\n    paths: [greet/**]", 1)
	text = strings.Replace(text, "    tags: [policy]", "    tags: [policy]\n    paths: [returns/**]", 1)
	os.WriteFile(suite, []byte(text), 0o644)
	for _, args := range [][]string{
		{"init", "-q"},
		{"add", "."},
		{"-c", "user.name=t", "-c", "user.email=t@example.com", "commit", "-qm", "suite"},
	} {
		cmd := exec.Command("git", args...)
		cmd.Dir = dir
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	return dir
}

func TestChangedSince(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("needs git")
	}
	repo := starterRepo(t)
	os.MkdirAll(filepath.Join(repo, "returns"), 0o755)
	os.WriteFile(filepath.Join(repo, "returns", "policy.md"), []byte("30 days"), 0o644)

	code, out, errs := gavelCmd(t, "run", "--no-cache", "--changed-since", "HEAD", repo)
	if code != eval.ExitPassed {
		t.Fatalf("exit %d\n%s%s", code, out, errs)
	}
	if !strings.Contains(errs, "1 of 2 cases affected by the 1 files changed since HEAD") {
		t.Errorf("stderr lacks the selection:\n%s", errs)
	}
	if !strings.Contains(out, "returns_policy") || strings.Contains(out, "greeting") {
		t.Errorf("want returns_policy alone to run:\n%s", out)
	}

	if code, _, errs := gavelCmd(t, "run", "--changed-since", "no-such-ref", repo); code != eval.ExitUsage || !strings.Contains(errs, "git knows no such commit") {
		t.Errorf("unknown ref: exit %d, %q; want 2", code, errs)
	}
}

func TestGate(t *testing.T) {
	dir := t.TempDir()
	if code, _, errs := gavelCmd(t, "init", dir); code != eval.ExitPassed {
		t.Fatalf("init: %s", errs)
	}
	code, out, errs := gavelCmd(t, "run", "--no-cache", "--gate", "echo unit tests failed; exit 3", dir)
	if code != eval.ExitFailed || !strings.Contains(errs, "unit tests failed") || !strings.Contains(errs, "no case ran") {
		t.Errorf("failing gate: exit %d, stderr %q; want 1 and the gate's output", code, errs)
	}
	if out != "" {
		t.Errorf("a run behind a failing gate printed a report:\n%s", out)
	}
	if code, _, errs := gavelCmd(t, "run", "--no-cache", "--gate", "true", dir); code != eval.ExitPassed {
		t.Errorf("passing gate: exit %d\n%s", code, errs)
	}
}

// Gavel's own outputs are not changes: a run writes .gavel/ and
// reports/latest.json (and its --out files) in the repository, and the
// next --changed-since must not count them, even without a .gitignore.
func TestOwnOutputsAreNoChanges(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("needs git")
	}
	repo := starterRepo(t)
	os.Remove(filepath.Join(repo, ".gitignore"))
	t.Chdir(repo)
	var out, errs strings.Builder
	if code := run([]string{"run", "--no-cache", "--out", "junit=ci/results", "."}, stdio{strings.NewReader(""), &out, &errs}); code != eval.ExitPassed {
		t.Fatalf("first run: %d\n%s", code, errs.String())
	}
	out.Reset()
	errs.Reset()
	if code := run([]string{"run", "--no-cache", "--out", "junit=ci/results", "--changed-since", "HEAD", "."}, stdio{strings.NewReader(""), &out, &errs}); code != eval.ExitPassed {
		t.Fatalf("second run: %d\n%s", code, errs.String())
	}
	if !strings.Contains(errs.String(), "0 of 2 cases affected by the 1 files changed since HEAD") {
		t.Errorf("want only the removed .gitignore counted:\n%s", errs.String())
	}
}

// gavel init keeps Gavel's outputs out of git: a .gitignore, written or
// added to.
func TestInitIgnoresOutputs(t *testing.T) {
	dir := t.TempDir()
	if code, _, errs := gavelCmd(t, "init", dir); code != eval.ExitPassed {
		t.Fatal(errs)
	}
	if data, _ := os.ReadFile(filepath.Join(dir, ".gitignore")); !strings.Contains(string(data), ".gavel/\nreports/\n") {
		t.Errorf("the .gitignore written:\n%s", data)
	}
	mine := t.TempDir()
	os.WriteFile(filepath.Join(mine, ".gitignore"), []byte("node_modules\n.gavel"), 0o644)
	if code, _, errs := gavelCmd(t, "init", mine); code != eval.ExitPassed {
		t.Fatal(errs)
	}
	if data, _ := os.ReadFile(filepath.Join(mine, ".gitignore")); string(data) != "node_modules\n.gavel\nreports/\n" {
		t.Errorf("a .gitignore added to:\n%q", data)
	}
}
