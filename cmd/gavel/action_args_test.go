package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"
)

// actionScript returns the script of the action's step id.
func actionScript(t *testing.T, id string) string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("..", "..", "action.yml"))
	if err != nil {
		t.Fatal(err)
	}
	var action struct {
		Runs struct {
			Steps []struct {
				ID  string `yaml:"id"`
				Run string `yaml:"run"`
			} `yaml:"steps"`
		} `yaml:"runs"`
	}
	if err := yaml.Unmarshal(data, &action); err != nil {
		t.Fatal(err)
	}
	for _, s := range action.Runs.Steps {
		if s.ID == id {
			return s.Run
		}
	}
	t.Fatalf("action.yml has no step with id %s", id)
	return ""
}

// The action's args input is split as a shell splits words, quotes and
// all (--tag "stage one" is two arguments, not three with quotes in them),
// and nothing in it runs: a command substitution is text.
func TestActionSplitsArgsAsAShell(t *testing.T) {
	if _, err := exec.LookPath("bash"); err != nil {
		t.Skip("needs bash")
	}
	bin := t.TempDir()
	// A gavel that prints its arguments, one a line, in brackets.
	os.WriteFile(filepath.Join(bin, "gavel"), []byte("#!/bin/sh\nfor a in \"$@\"; do printf '[%s]\\n' \"$a\"; done\n"), 0o755)
	pwned := filepath.Join(t.TempDir(), "pwned")
	for _, tc := range []struct {
		args string
		want []string
	}{
		{`--tag "stage one" --id 'a b' --max-cost-usd 2`, []string{"--tag", "stage one", "--id", "a b", "--max-cost-usd", "2"}},
		{`--tag stage $(touch ` + pwned + `) ` + "`touch " + pwned + "`", []string{"--tag", "stage", "$(touch", pwned + ")", "`touch", pwned + "`"}},
		{``, nil},
	} {
		cmd := exec.Command("bash", "-c", actionScript(t, "run"))
		cmd.Dir = t.TempDir()
		cmd.Env = append(os.Environ(), "PATH="+bin+string(os.PathListSeparator)+os.Getenv("PATH"),
			"GAVEL_SUITES=suite.yaml", "GAVEL_CHANGED_SINCE=none", "GAVEL_BASE=", "GAVEL_JUNIT=j.xml", "GAVEL_ARGS="+tc.args)
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("args %s: %v\n%s", tc.args, err, out)
		}
		want := append(append([]string{"run", "--out", "junit=j.xml"}, tc.want...), "suite.yaml")
		var got []string
		for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
			got = append(got, strings.TrimSuffix(strings.TrimPrefix(line, "["), "]"))
		}
		if strings.Join(got, "|") != strings.Join(want, "|") {
			t.Errorf("args %s:\n got %q\nwant %q", tc.args, got, want)
		}
	}
	if _, err := os.Stat(pwned); err == nil {
		t.Error("the args input ran a command")
	}
	// An unmatched quote stops the step, saying so, before gavel runs.
	cmd := exec.Command("bash", "-c", actionScript(t, "run"))
	cmd.Dir = t.TempDir()
	cmd.Env = append(os.Environ(), "PATH="+bin+string(os.PathListSeparator)+os.Getenv("PATH"),
		"GAVEL_SUITES=suite.yaml", "GAVEL_CHANGED_SINCE=none", "GAVEL_BASE=", "GAVEL_JUNIT=j.xml", `GAVEL_ARGS=--tag "stage one`)
	if out, err := cmd.CombinedOutput(); err == nil || strings.Contains(string(out), "[run]") || !strings.Contains(string(out), "quote") {
		t.Errorf("an unmatched quote: %v\n%s", err, out)
	}
}
