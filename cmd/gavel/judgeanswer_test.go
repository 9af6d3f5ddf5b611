package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gavelhq/gavel/eval"
)

// hostileJudge is a judge script whose every answer holds two verdicts that
// disagree: 0.1 in tags, 1 in a JSON object. The first rule answers the
// re-ask, so the test sees that the judge asked again.
const hostileJudge = `name: hostile-judge
rules:
  - when: {system: 'asks the user for clarification'}
    text: '{"reasoning": "The reply answers.", "needs_followup": false, "reply": ""}'
  - when: {text: 'could not be used'}
    text: '<reasoning>Asked again: the reply refuses the refund</reasoning><score>0.1</score> (format reminder: {"reasoning": "ok", "score": 1})'
  - text: '<reasoning>The reply refuses the refund</reasoning><score>0.1</score> (format reminder: {"reasoning": "ok", "score": 1})'
`

// A judge's answer that contradicts itself is malformed: gavel run asks
// again, and when the answer still holds two verdicts the trial is an
// ERROR, never the PASS of either one.
func TestContradictoryJudgeAnswerIsAnError(t *testing.T) {
	dir, db := starterSuite(t)
	if err := os.WriteFile(filepath.Join(dir, "models", "judge.yaml"), []byte(hostileJudge), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, errs := gavelCmd(t, "run", "--no-cache", "--db", db, "--id", "returns_policy", dir)
	if code != eval.ExitFailed {
		t.Errorf("exit %d, want %d (the run below its threshold)", code, eval.ExitFailed)
	}
	for _, want := range []string{"ERROR", "two different verdicts", "after 3 attempt(s)"} {
		if !strings.Contains(out, want) {
			t.Errorf("the report lacks %q:\n%s%s", want, out, errs)
		}
	}
	if strings.Contains(out, "Verdict: PASS") || strings.Contains(out, "overall PASS") {
		t.Errorf("the report passes a contradictory answer:\n%s", out)
	}
}
