package main

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/gavelhq/gavel/eval"
	"github.com/gavelhq/gavel/llm"
	"github.com/gavelhq/gavel/llm/llmtest"
	"github.com/gavelhq/gavel/store"
)

// gavel flaky lists the cases that flipped over a suite's recent runs,
// the most unstable first; gavel quarantine takes one out of the gate by
// hand, and a suite's flaky: quarantine_after by itself: it still runs
// and is reported, but its failure fails nothing.
func TestFlakyAndQuarantine(t *testing.T) {
	// q00 passes in the first and third runs and fails in the second
	// (agent "flip" leaves it out); q01 fails in every run after the
	// first; the others pass every time.
	dir, agents := flipsSuite(t, map[string][]int{
		"all":  span(0, 39),
		"flip": span(1, 39),
		"drop": append([]int{0}, span(2, 39)...),
	})
	db := filepath.Join(t.TempDir(), "results.db")
	run := func(agent string, want int) string {
		t.Helper()
		t.Setenv("FLIPS_AGENT", agents[agent])
		code, out, errs := gavelCmd(t, "run", "--no-cache", "--db", db, "--out", filepath.Join(t.TempDir(), "r.json"), dir)
		if code != want {
			t.Fatalf("gavel run (%s): exit %d, want %d\n%s%s", agent, code, want, out, errs)
		}
		return out
	}
	run("all", eval.ExitPassed)
	run("flip", eval.ExitPassed)
	run("drop", eval.ExitPassed)

	code, out, errs := gavelCmd(t, "flaky", "--db", db)
	if code != eval.ExitPassed || !strings.Contains(out, "flips  q00   67%        3     PASS FAIL PASS") ||
		!strings.Contains(out, "flips  q01   33%        3     PASS PASS FAIL") || strings.Contains(out, "q02") {
		t.Errorf("flaky: exit %d\n%s%s", code, out, errs)
	}
	code, out, _ = gavelCmd(t, "flaky", "--db", db, "--format", "json")
	var list []store.FlakyCase
	if err := json.Unmarshal([]byte(out), &list); code != eval.ExitPassed || err != nil || len(list) != 2 || list[0].CaseID != "q00" {
		t.Errorf("flaky --format json: exit %d, %v\n%s", code, err, out)
	}

	// q01 keeps failing: a threshold of 100% fails the run, until q01 is
	// quarantined.
	suite := filepath.Join(dir, "gavel.yaml")
	data, _ := os.ReadFile(suite)
	os.WriteFile(suite, []byte(strings.Replace(string(data), "threshold: 0.3", "threshold: 1", 1)), 0o644)
	run("drop", eval.ExitFailed)
	if code, out, errs := gavelCmd(t, "quarantine", "add", "--db", db, "--reason", "the date in its answer", "--by", "ada", "flips", "q01"); code != eval.ExitPassed || !strings.Contains(out, "Quarantined q01 of flips") {
		t.Fatalf("quarantine add: exit %d\n%s%s", code, out, errs)
	}
	out = run("drop", eval.ExitPassed)
	if !strings.Contains(out, "Pass rate: 100% over 39 cases (1 quarantined, left out)") ||
		!strings.Contains(out, "Quarantined: q01 (quarantined by ada: the date in its answer): FAIL, left out of the gate") {
		t.Errorf("the run with q01 quarantined:\n%s", out)
	}
	if code, out, _ := gavelCmd(t, "quarantine", "list", "--db", db); code != eval.ExitPassed || !strings.Contains(out, "flips  q01   ada  the date in its answer") {
		t.Errorf("quarantine list: exit %d\n%s", code, out)
	}
	if code, out, _ := gavelCmd(t, "quarantine", "remove", "--db", db, "flips", "q01"); code != eval.ExitPassed || !strings.Contains(out, "Released q01 of flips") {
		t.Errorf("quarantine remove: exit %d\n%s", code, out)
	}
	run("drop", eval.ExitFailed)
	if code, _, errs := gavelCmd(t, "quarantine", "remove", "--db", db, "flips", "q01"); code != eval.ExitUsage || !strings.Contains(errs, "q01 of flips is not quarantined") {
		t.Errorf("quarantine remove again: exit %d, %q", code, errs)
	}

	// The suite quarantines q00 by itself once it was unstable in each of
	// its last 2 runs: flip, then all (q00 back to passing), is 2.
	data, _ = os.ReadFile(suite)
	os.WriteFile(suite, []byte(strings.Replace(string(data), "threshold: 1", "threshold: 1\nflaky: {quarantine_after: 2}", 1)), 0o644)
	run("flip", eval.ExitFailed) // q00: PASS FAIL PASS FAIL FAIL FAIL: the last two stable
	run("all", eval.ExitPassed)
	out = run("flip", eval.ExitPassed) // q00 flipped twice running: quarantined
	if !strings.Contains(out, "Quarantined: q00 (unstable in each of its last 2 runs (flaky: quarantine_after: 2)): FAIL") {
		t.Errorf("the suite's own quarantine:\n%s", out)
	}
}

// gavel run --repeat K runs the unchanged suite K times and says how far
// the runs differ: the A/A noise floor. The agent's model answers q00
// "ok" only at its odd calls, so q00 passes, fails and passes again.
func TestRepeatGivesTheNoiseFloor(t *testing.T) {
	var calls atomic.Int32
	srv := llmtest.NewOpenAIServer(llm.Func(func(_ context.Context, req *llm.Request) (*llm.Response, error) {
		last := req.Messages[len(req.Messages)-1].Content
		if last != "q00" || calls.Add(1)%2 == 1 {
			return &llm.Response{Text: "ok"}, nil
		}
		return &llm.Response{Text: "no"}, nil
	}))
	defer srv.Close()
	t.Setenv("OPENAI_BASE_URL", srv.URL)
	t.Setenv("OPENAI_API_KEY", "sk-test")
	t.Setenv("FLIPS_AGENT", "openai:agent-model")
	dir, _ := flipsSuite(t, nil)
	code, out, errs := gavelCmd(t, "run", "--no-cache", "--quiet", "--repeat", "3", "--db", filepath.Join(t.TempDir(), "r.db"),
		"--out", filepath.Join(t.TempDir(), "r.json"), dir)
	want := "Noise floor of flips over 3 runs of it, nothing changed between them:\n" +
		"Pass rates: 100%, 97.5%, 100% (from 97.5% to 100%, standard deviation 1.4 points)\n" +
		"1 case flipped (a difference between two runs this large, or cases flipping like these, is noise):\n" +
		"  q00: PASS FAIL PASS (flip rate 66.7%)\n"
	if code != eval.ExitPassed || strings.Count(errs, "saved (gavel show") != 3 || !strings.Contains(out, want) {
		t.Errorf("--repeat 3: exit %d, want 0 and\n%s\ngot:\n%s%s", code, want, out, errs)
	}
	if code, _, errs := gavelCmd(t, "run", "--repeat", "2", "--shard", "1/2", dir); code != eval.ExitUsage || !strings.Contains(errs, "--repeat runs whole suites") {
		t.Errorf("--repeat with --shard: exit %d, %q", code, errs)
	}
}
