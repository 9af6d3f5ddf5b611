//go:build unix

package main

import (
	"bytes"
	"io/fs"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/gavelhq/gavel/eval"
)

// The support-desk example, copied out of the repository, runs as docs/examples.md
// says: its helpers (the orders MCP server, the agent behind HTTP) are
// named by import path and built from the Gavel checkout its go.work
// names, on ports the environment picks (free ones here), and what a run
// writes in it (.gavel/, reports/) is ignored by git.
func TestExampleTravels(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs the example's agent and MCP server")
	}
	for _, tool := range []string{"go", "git"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("needs %s", tool)
		}
	}
	repo, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(t.TempDir(), "support-desk")
	copyExample(t, example(t), dir)
	in := func(name string, args ...string) string {
		t.Helper()
		cmd := exec.Command(name, args...)
		cmd.Dir = dir
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("%s %v: %v\n%s", name, args, err, out)
		}
		return string(out)
	}
	in("go", "work", "init", repo) // docs/examples.md: go work init /path/to/gavel
	t.Chdir(dir)
	gavelHere := func(args ...string) (int, string, string) {
		t.Helper()
		var stdout, stderr bytes.Buffer
		code := run(args, stdio{strings.NewReader(""), &stdout, &stderr})
		return code, stdout.String(), stderr.String()
	}

	// The builtin suite: gavel run .
	code, out, errs := gavelHere("run", "--quiet", "--no-cache", ".")
	if code != eval.ExitPassed || !strings.Contains(out, "FAIL: case_005") {
		t.Fatalf("gavel run . in a copy: exit %d, want 0 with case_005 failing\n%s%s", code, out, errs)
	}

	// The suite over HTTP: the agent first, on the ports the environment says.
	agentAddr, toolsAddr := freeAddr(t), freeAddr(t)
	t.Setenv("DESK_AGENT_URL", "http://"+agentAddr)
	t.Setenv("DESK_TOOLS_ADDR", toolsAddr)
	agentLine, gavelLine := docHTTPCommands(t, repo)
	agent := exec.Command(agentLine[0], agentLine[1:]...)
	agent.Dir = dir
	var agentErr bytes.Buffer
	agent.Stderr = &agentErr
	agent.SysProcAttr = &syscall.SysProcAttr{Setpgid: true} // go run's child too
	if err := agent.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		syscall.Kill(-agent.Process.Pid, syscall.SIGTERM)
		agent.Wait()
	})
	waitListening(t, agentAddr, func() string { return agentErr.String() })
	args := append(slices.Clone(gavelLine[1:]), "--quiet", "--no-cache") // flags after the suite, as anywhere
	// Twice against the same agent: the second run's recording proxy is a
	// new MCP server at the same address, which the agent reaches again
	// (it kept its session to the first, and its tool calls failed).
	var first string
	for i := range 2 {
		gavel := exec.Command(gavelLine[0], args...)
		gavel.Dir = dir
		var stdout, stderr bytes.Buffer
		gavel.Stdout, gavel.Stderr = &stdout, &stderr
		if err := gavel.Run(); err != nil || !strings.Contains(stdout.String(), "FAIL: case_005") {
			t.Fatalf("%s in a copy, run %d: %v, want exit 0 with case_005 failing\n%s%s", strings.Join(gavelLine, " "), i+1, err, stdout.String(), stderr.String())
		}
		rate := regexp.MustCompile(`Pass rate: \S+`).FindString(stdout.String())
		if i == 0 {
			first = rate
		} else if rate != first {
			t.Errorf("the second run against the same agent: %s, the first: %s\n%s", rate, first, stdout.String())
		}
	}

	// What the runs wrote is ignored, as in a repository of the user's own.
	for _, p := range []string{"reports/latest.json", ".gavel/gavel.db"} {
		if _, err := os.Stat(p); err != nil {
			t.Fatalf("the runs wrote no %s: %v", p, err)
		}
	}
	in("git", "init", "-q")
	if status := in("git", "status", "--porcelain", "--untracked-files=all"); strings.Contains(status, "reports/") || strings.Contains(status, ".gavel/") {
		t.Errorf("git sees Gavel's outputs in the example:\n%s", status)
	}
}

// docHTTPCommands returns docs/examples.md's commands that run http.yaml, after
// its cd examples/support-desk: the agent's (without its &) and gavel's.
func docHTTPCommands(t *testing.T, repo string) (agent, gavel []string) {
	t.Helper()
	page, err := os.ReadFile(filepath.Join(repo, "docs", "examples.md"))
	if err != nil {
		t.Fatal(err)
	}
	_, block, ok := strings.Cut(string(page), "```sh\ncd examples/support-desk\n")
	block, _, _ = strings.Cut(block, "```")
	var lines [][]string
	for _, line := range strings.Split(block, "\n") {
		line, _, _ = strings.Cut(line, "#")
		if f := strings.Fields(strings.TrimSuffix(strings.TrimSpace(line), "&")); len(f) > 0 {
			lines = append(lines, f)
		}
	}
	if !ok || len(lines) != 2 || !strings.HasSuffix(lines[1][len(lines[1])-1], "http.yaml") {
		t.Fatalf("docs/examples.md has no block cd examples/support-desk, the agent's command, gavel run http.yaml:\n%s", block)
	}
	return lines[0], lines[1]
}

// copyExample copies an example's files, not what runs wrote in it.
func copyExample(t *testing.T, from, to string) {
	t.Helper()
	err := filepath.WalkDir(from, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(from, path)
		if d.IsDir() && (d.Name() == ".gavel" || d.Name() == "reports") {
			return filepath.SkipDir
		}
		if d.IsDir() {
			return os.MkdirAll(filepath.Join(to, rel), 0o755)
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(to, rel), data, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
}

// waitListening waits until something listens at addr (a program go run
// compiles first), for at most 3 minutes.
func waitListening(t *testing.T, addr string, output func() string) {
	t.Helper()
	deadline := time.Now().Add(3 * time.Minute)
	for {
		conn, err := net.DialTimeout("tcp", addr, time.Second)
		if err == nil {
			conn.Close()
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("nothing listens at %s: %v\n%s", addr, err, output())
		}
		time.Sleep(100 * time.Millisecond)
	}
}
