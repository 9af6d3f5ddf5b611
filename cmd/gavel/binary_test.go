package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/gavelhq/gavel/eval"
)

// binDir holds the gavel that builtGavel builds; TestMain removes it.
var binDir string

func TestMain(m *testing.M) {
	code := m.Run()
	if binDir != "" {
		os.RemoveAll(binDir)
	}
	os.Exit(code)
}

// builtGavel builds the gavel command from this checkout once for the
// tests that run the real binary, as people do.
var builtGavel = sync.OnceValues(func() (string, error) {
	dir, err := os.MkdirTemp("", "gavel-bin-")
	if err != nil {
		return "", err
	}
	binDir = dir
	bin := filepath.Join(dir, "gavel")
	if out, err := exec.Command("go", "build", "-buildvcs=true", "-o", bin, ".").CombinedOutput(); err != nil {
		return "", &exec.ExitError{Stderr: out}
	}
	return bin, nil
})

// gavelBinary returns the built command, or skips t in -short mode.
func gavelBinary(t *testing.T) string {
	t.Helper()
	if testing.Short() {
		t.Skip("builds gavel")
	}
	bin, err := builtGavel()
	if err != nil {
		t.Fatalf("go build: %v", err)
	}
	return bin
}

// Flags go anywhere on the line, as in go test and every popular CLI:
// after the suite too.
func TestFlagsAnywhere(t *testing.T) {
	bin := gavelBinary(t)
	suite, err := filepath.Abs(filepath.Join("..", "..", "examples", "support-desk"))
	if err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{
		{"run", suite, "--tag", "policy", "--no-cache"},
		{"run", "--tag", "policy", suite, "--no-cache"},
		{"validate", suite},
	} {
		cmd := exec.Command(bin, args...)
		cmd.Dir = t.TempDir()
		out, err := cmd.CombinedOutput()
		code := 0
		if err != nil {
			code = err.(*exec.ExitError).ExitCode()
		}
		if args[0] == "validate" {
			if code != 0 {
				t.Errorf("%v: exit %d\n%s", args, code, out)
			}
			continue
		}
		// The policy case fails on purpose: exit 1, with only its tag's cases.
		if code != eval.ExitFailed || !strings.Contains(string(out), "case_005") || strings.Contains(string(out), "case_001 ") {
			t.Errorf("%v: exit %d\n%s", args, code, out)
		}
	}
	out, _ := exec.Command(bin, "runs", "--help").CombinedOutput()
	if !strings.Contains(string(out), "--db") {
		t.Errorf("runs --help shows no flags:\n%s", out)
	}
}
