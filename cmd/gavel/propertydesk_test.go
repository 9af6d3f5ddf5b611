package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/gavelhq/gavel/eval"
)

// propertyDesk copies the property-desk suite, its cases and its model
// scripts to a temporary directory, with the example's agent and tools
// server built there and named in the suite instead of go run, and returns
// the suite file. Its database is then the copy's own.
func propertyDesk(t *testing.T) string {
	t.Helper()
	example, err := filepath.Abs(filepath.Join("..", "..", "examples", "property-desk"))
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	data, err := os.ReadFile(filepath.Join(example, "gavel.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	for _, prog := range []string{"property-agent", "listings-mcp"} {
		bin := filepath.Join(dir, prog)
		build := exec.CommandContext(t.Context(), "go", "build", "-o", bin, "./cmd/"+prog)
		build.Dir = example
		if out, err := build.CombinedOutput(); err != nil {
			t.Fatalf("building %s: %v\n%s", prog, err, out)
		}
		goRun := []byte("[go, run, github.com/gavelhq/gavel/examples/property-desk/cmd/" + prog + ",")
		if !bytes.Contains(data, goRun) {
			t.Fatalf("the example's suite no longer starts %s with %q: update this test", prog, goRun)
		}
		data = bytes.Replace(data, goRun, []byte("["+strconv.Quote(bin)+","), 1)
	}
	suite := filepath.Join(dir, "gavel.yaml")
	if err := os.WriteFile(suite, data, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.CopyFS(filepath.Join(dir, "models"), os.DirFS(filepath.Join(example, "models"))); err != nil {
		t.Fatal(err)
	}
	cases, err := os.ReadFile(filepath.Join(example, "cases.yaml"))
	if err == nil {
		err = os.WriteFile(filepath.Join(dir, "cases.yaml"), cases, 0o644)
	}
	if err != nil {
		t.Fatal(err)
	}
	return suite
}

// The property-desk example of docs/examples.md: seed 000's agent passes its 80%
// threshold, with its two deliberate failures caught by rules that ask no
// model, and its thread survives a restart of the agent's process.
func TestRunPropertyDesk(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs the example's agent and MCP server")
	}
	suite := propertyDesk(t)
	t.Setenv("PROPERTY_TOOLS_ADDR", freeAddr(t))
	code, out, errs := gavelCmd(t, "run", "--no-cache", suite)
	if code != eval.ExitPassed {
		t.Fatalf("exit %d, want 0\n%s\n%s", code, out, errs)
	}
	for _, want := range []string{
		"Pass rate: 80% over 10 cases",
		"thread_revival      | PASS  | PASS     | PASS",
		"clarifying_question | PASS  | PASS     | PASS",
		"block_dates         | PASS  | PASS     | PASS",
		// The agent says the block is made; the database says it is not.
		"block_refused       | FAIL  | FAIL     | FAIL",
		"[failed: City Apartment 2026-04-16 to 2026-04-19 overlaps a booking",
		"Response: Done! The City Apartment is blocked from April 16 to April 19.",
		"FAIL sql_scalar: scalar is 0, want = 1",
		"next_guest          | PASS  | FAIL     | FAIL",
		`FAIL no_placeholders: final response leaks placeholder(s) "{guest_name}"`,
		"decided by tier 1",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("the report lacks %q:\n%s", want, out)
		}
	}

	// The full record (reports/latest.json, in the run's directory) has
	// the passing cases' transcripts: the hint that answered the clarifying
	// question, and the revival in a new process.
	record, err := os.ReadFile(filepath.Join("reports", "latest.json"))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"I'd be happy to help! Which listing would you like to see the occupancy for?",
		"The Mountain Cabin, please.",
		"session closed and reopened in a new process",
		"The Beach House (L-101) was 45% occupied in 2026-03",
	} {
		if !bytes.Contains(record, []byte(want)) {
			t.Errorf("reports/latest.json lacks %q", want)
		}
	}

	// With a checkpointer that forgets (memory only), the restart loses the
	// thread, and the revival case fails.
	t.Setenv("PROPERTY_TOOLS_ADDR", freeAddr(t))
	t.Setenv("PROPERTY_CHECKPOINTS", "memory")
	code, out, errs = gavelCmd(t, "run", "--no-cache", "--id", "thread_revival", suite)
	if code != eval.ExitFailed {
		t.Fatalf("with memory checkpoints: exit %d, want 1\n%s\n%s", code, out, errs)
	}
	for _, want := range []string{
		"round 2: (session closed and reopened in a new process)",
		"Response: Which listing do you mean? I don't see an earlier list in this conversation.",
		`FAIL contains "45%"`,
	} {
		if !strings.Contains(out, want) {
			t.Errorf("with memory checkpoints, the report lacks %q:\n%s", want, out)
		}
	}
}
