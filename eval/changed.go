package eval

import (
	"bytes"
	"fmt"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
)

// changedFiles lists the files changed since the git commit ref (committed
// since, staged, modified or untracked, as git sees them) as slash paths
// relative to dir, the directory of a suite, as its paths globs are
// written. Files outside dir start with "../". Gavel's own outputs are
// left out: its .gavel directories (the results database, the cache) and
// the files for which own, given their absolute path, is true (reports).
func changedFiles(dir, ref string, own func(path string) bool) ([]string, error) {
	top, err := git(dir, "rev-parse", "--show-toplevel")
	if err != nil {
		return nil, err
	}
	root := strings.TrimSpace(string(top))
	if _, err := git(dir, "rev-parse", "--verify", "--quiet", ref+"^{commit}"); err != nil {
		return nil, fmt.Errorf("--changed-since %s: git knows no such commit (fetch it first: in CI, a shallow clone may lack it)", ref)
	}
	diff, err := git(root, "diff", "--name-only", "-z", ref, "--")
	if err != nil {
		return nil, err
	}
	untracked, err := git(root, "ls-files", "--others", "--exclude-standard", "-z")
	if err != nil {
		return nil, err
	}
	abs, err := filepath.Abs(dir)
	if err == nil {
		abs, err = filepath.EvalSymlinks(abs) // as git resolves the top level
	}
	if err != nil {
		return nil, err
	}
	var files []string
	for _, name := range bytes.Split(append(diff, untracked...), []byte{0}) {
		if len(name) == 0 {
			continue
		}
		path := filepath.Join(root, string(name))
		if slices.Contains(strings.Split(filepath.ToSlash(string(name)), "/"), ".gavel") || own(path) {
			continue
		}
		rel, err := filepath.Rel(abs, path)
		if err != nil {
			return nil, err
		}
		files = append(files, filepath.ToSlash(rel))
	}
	return files, nil
}

// git runs a git command in dir and returns its output.
func git(dir string, args ...string) ([]byte, error) {
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("git %s in %s: %v: %s", strings.Join(args, " "), dir, err, strings.TrimSpace(stderr.String()))
	}
	return out, nil
}
