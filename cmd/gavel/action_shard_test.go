package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// The action's shard and merge inputs: two shards, each writing its JSON
// report, then a merge of them, gated on the whole run, with the JUnit
// report and the step summary.
func TestActionShards(t *testing.T) {
	gavel := gavelBinary(t)
	if _, err := exec.LookPath("bash"); err != nil {
		t.Skip("needs bash")
	}
	script := actionScript(t, "run")
	// Shard 1/2 (c1, c3) misses the threshold alone; the whole passes.
	suite := shardSuite(t, "action", []bool{false, true, false, true, true, true, true, true}, 1, 0.75)
	summary := filepath.Join(t.TempDir(), "summary")
	output := filepath.Join(t.TempDir(), "output")
	step := func(env ...string) (int, string) {
		cmd := exec.Command("bash", "-c", script)
		cmd.Dir = suite
		cmd.Env = append(os.Environ(),
			"PATH="+filepath.Dir(gavel)+string(os.PathListSeparator)+os.Getenv("PATH"),
			"GITHUB_ACTIONS=true", "GITHUB_STEP_SUMMARY="+summary, "GITHUB_OUTPUT="+output, "GAVEL_DB=",
			"GAVEL_SUITES=.", "GAVEL_CHANGED_SINCE=none", "GAVEL_BASE=", "GAVEL_JUNIT=reports/gavel-junit.xml",
			"GAVEL_ARGS=--no-cache --quiet")
		cmd.Env = append(cmd.Env, env...)
		out, err := cmd.CombinedOutput()
		if err != nil {
			return err.(*exec.ExitError).ExitCode(), string(out)
		}
		return 0, string(out)
	}
	for _, shard := range []string{"1/2", "2/2"} {
		if code, out := step("GAVEL_SHARD=" + shard); code != 0 {
			t.Fatalf("shard %s: exit %d\n%s", shard, code, out)
		}
	}
	if data, _ := os.ReadFile(output); !strings.Contains(string(data), "shard-report=gavel-shard-2.json") {
		t.Errorf("the step's outputs: %q", data)
	}
	os.WriteFile(summary, nil, 0o644)
	if code, out := step("GAVEL_MERGE=gavel-shard-*.json"); code != 0 {
		t.Fatalf("merge: exit %d\n%s", code, out)
	}
	if _, err := os.Stat(filepath.Join(suite, "reports", "gavel-junit.xml")); err != nil {
		t.Errorf("no JUnit report: %v", err)
	}
	// 6 of 8 at a threshold of 75%: the interval straddles it, and the
	// pass rate alone decides (gate: inconclusive: rate, the default).
	if data, _ := os.ReadFile(summary); !strings.Contains(string(data), "action: INCONCLUSIVE") || !strings.Contains(string(data), "The pass rate alone decides: it reaches the threshold") {
		t.Errorf("the step summary of the merge:\n%s", data)
	}
}
