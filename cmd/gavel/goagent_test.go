package main

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/gavelhq/gavel/eval"
)

// The gavel command has no Go agents: validate warns that a suite with
// one runs under go test, and run refuses it, saying so.
func TestGoAgentNeedsGaveltest(t *testing.T) {
	suite := writeSuite(t, `name: go-agent
agent: {go: desk}
cases:
  - {id: a, input: hi, rules: [{contains: Hello}]}
`)
	const want = `agent.go "desk": a Go agent is passed by the Go test that runs the suite (gaveltest.Run with gaveltest.Config.Agents), and the gavel command has none: run this suite under go test`
	code, out, errs := gavelCmd(t, "validate", suite)
	if code != eval.ExitPassed || !strings.Contains(out, "1 cases, valid") || !strings.Contains(errs, "warning: "+want) {
		t.Errorf("validate: exit %d, want 0 with a warning:\n%s%s", code, out, errs)
	}
	code, _, errs = gavelCmd(t, "run", "--db", filepath.Join(t.TempDir(), "runs.db"), suite)
	if code != eval.ExitUsage || !strings.Contains(errs, want) {
		t.Errorf("run: exit %d, want 2 saying %q:\n%s", code, want, errs)
	}
}
