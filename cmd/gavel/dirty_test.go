package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/gavelhq/gavel/eval"
)

// A run made from a tree with uncommitted changes (an edited suite) is
// marked dirty where its git commit is shown (gavel runs, gavel show):
// "main@539a404a+dirty". Gavel's own outputs (.gavel/, reports/) make no
// tree dirty, even where no .gitignore keeps them out of git.
func TestDirtyTreeMark(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("needs git")
	}
	repo := starterRepo(t)
	gitIn := func(args ...string) {
		t.Helper()
		cmd := exec.Command("git", args...)
		cmd.Dir = repo
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	gitIn("rm", "-q", ".gitignore")
	gitIn("-c", "user.name=t", "-c", "user.email=t@example.com", "commit", "-qm", "no .gitignore")
	t.Chdir(repo) // the database and the reports land in the repository
	gavelHere := func(args ...string) (int, string, string) {
		t.Helper()
		var stdout, stderr bytes.Buffer
		code := run(args, stdio{strings.NewReader(""), &stdout, &stderr})
		return code, stdout.String(), stderr.String()
	}
	saved := func() string {
		t.Helper()
		code, out, errs := gavelHere("run", "--quiet", "--no-cache", "--out", "reports/junit.xml", ".")
		m := runID.FindStringSubmatch(errs)
		if code != eval.ExitPassed || m == nil {
			t.Fatalf("gavel run: exit %d, want 0 and a run saved\n%s%s", code, out, errs)
		}
		return m[1]
	}
	first := saved()
	clean := saved() // .gavel/ and reports/ are there now, untracked
	if _, err := os.Stat(filepath.Join(repo, ".gavel")); err != nil {
		t.Fatalf("the run wrote no .gavel/ in the repository: %v", err)
	}
	suite := filepath.Join(repo, "gavel.yaml")
	data, _ := os.ReadFile(suite)
	os.WriteFile(suite, append(data, "# an edit not committed\n"...), 0o644)
	dirty := saved()

	code, out, errs := gavelHere("runs")
	if code != eval.ExitPassed {
		t.Fatalf("gavel runs: exit %d\n%s", code, errs)
	}
	for _, tc := range []struct {
		id    string
		dirty bool
	}{{first, false}, {clean, false}, {dirty, true}} {
		mark := regexp.MustCompile(regexp.QuoteMeta(tc.id) + `.*@[0-9a-f]{8}(\+dirty)?\s`).FindStringSubmatch(out)
		if mark == nil || (mark[1] != "") != tc.dirty {
			t.Errorf("gavel runs: run %s dirty %v, want %v:\n%s", tc.id, mark != nil && mark[1] != "", tc.dirty, out)
		}
	}
	code, out, _ = gavelHere("show", dirty)
	if code != eval.ExitPassed || !regexp.MustCompile(`on \S+@[0-9a-f]{8}\+dirty`).MatchString(out) {
		t.Errorf("gavel show of the dirty run: exit %d, want its git marked dirty:\n%.400s", code, out)
	}
}
