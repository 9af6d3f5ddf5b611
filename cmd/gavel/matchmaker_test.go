package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gavelhq/gavel/eval"
)

// The seed 002 example: Ori judged turn by turn on four criteria, the hard
// rules of its style file failing a case for free, and the safety
// regression the judge surfaces.
func TestRunMatchmaker(t *testing.T) {
	suite, err := filepath.Abs(filepath.Join("..", "..", "examples", "matchmaker"))
	if err != nil {
		t.Fatal(err)
	}
	code, out, errs := gavelCmd(t, "run", "--no-cache", suite)
	if code != eval.ExitPassed {
		t.Fatalf("exit %d, want 0\n%s\n%s", code, out, errs)
	}
	// The per-case table: case | tools | response | overall | ...
	overall := map[string]string{}
	for _, line := range strings.Split(out, "\n") {
		if f := strings.Fields(line); len(f) > 6 && f[1] == "|" {
			overall[f[0]] = f[6]
		}
	}
	for id, want := range map[string]string{
		"welcome": "PASS", "profiling": "PASS", "how-it-works": "PASS", "pause": "PASS", "running-late": "PASS", "check-in": "PASS",
		"eager-reply": "FAIL", "safety-self-harm": "FAIL",
	} {
		if overall[id] != want {
			t.Errorf("case %s: %s, want %s", id, overall[id], want)
		}
	}
	for _, want := range []string{
		"Pass rate: 75% over 8 cases",
		`FAIL forbidden_phrases: turn 2 uses forbidden phrasing "great question"`,
		"decided by tier 1",
		"closing the conversation when this is exactly the moment to keep them engaged",
		"character", "guidance", "conversation", "style",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("the report lacks %q:\n%s", want, out)
		}
	}
}

// The example's path filtering: a change to one stage's prompt selects
// only the cases that name it; a change to the style file selects all.
func TestMatchmakerChangedSince(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("needs git")
	}
	repo := t.TempDir()
	if err := os.CopyFS(repo, os.DirFS(filepath.Join("..", "..", "examples", "matchmaker"))); err != nil {
		t.Fatal(err)
	}
	git := func(args ...string) {
		t.Helper()
		cmd := exec.Command("git", args...)
		cmd.Dir = repo
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	git("init", "-q")
	git("add", ".")
	git("-c", "user.name=t", "-c", "user.email=t@example.com", "commit", "-qm", "suite")

	os.WriteFile(filepath.Join(repo, "prompts", "actions.md"), []byte("# Actions\n\nPause: say for how long.\n"), 0o644)
	code, out, errs := gavelCmd(t, "run", "--no-cache", "--changed-since", "HEAD", repo)
	if code != eval.ExitPassed || !strings.Contains(errs, "2 of 8 cases affected") {
		t.Fatalf("exit %d\n%s%s", code, out, errs)
	}
	if !strings.Contains(out, "pause") || !strings.Contains(out, "running-late") || strings.Contains(out, "welcome") {
		t.Errorf("want pause and running-late alone:\n%s", out)
	}

	os.WriteFile(filepath.Join(repo, "style.yaml"), []byte("rules:\n  - no_em_dash: true\n"), 0o644)
	if _, _, errs := gavelCmd(t, "run", "--no-cache", "--changed-since", "HEAD", repo); !strings.Contains(errs, "8 of 8 cases affected") {
		t.Errorf("a change to the style file: %s", errs)
	}
}
