package main

import (
	"strings"
	"testing"

	"github.com/gavelhq/gavel/eval"
)

// gavel show RUN CASE prints that case turn by turn with every judge's
// reasoning, a passed case too, and not the run's numbers; gavel run
// --verbose details passed cases as well.
func TestShowPassedCaseTurnByTurn(t *testing.T) {
	dir, db := starterSuite(t) // greeting fails, returns_policy passes
	code, out, errs := gavelCmd(t, "run", "--no-cache", "--verbose", "--db", db, dir)
	if code != eval.ExitFailed {
		t.Fatalf("run: exit %d\n%s%s", code, out, errs)
	}
	if !strings.Contains(out, "Detail (returns_policy, PASS)") {
		t.Errorf("run --verbose does not detail the passed case:\n%s", out)
	}
	id := runID.FindStringSubmatch(errs)[1]

	code, out, errs = gavelCmd(t, "show", "--db", db, id, "returns_policy")
	if code != eval.ExitPassed {
		t.Fatalf("show: exit %d\n%s%s", code, out, errs)
	}
	for _, want := range []string{
		"Case returns_policy (PASS): Explains the returns policy",
		"Conversation:",
		"can I return a lamp I bought last week?",
		"PASS judge_prompt (score",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("show of a passed case lacks %q:\n%s", want, out)
		}
	}
	for _, runWide := range []string{"Pass rate:", "Threshold:", "greeting"} {
		if strings.Contains(out, runWide) {
			t.Errorf("show of one case prints the run's %q:\n%s", runWide, out)
		}
	}
}
