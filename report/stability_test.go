package report

import (
	"bytes"
	"strings"
	"testing"

	"github.com/gavelhq/gavel"
	"github.com/gavelhq/gavel/judge"
)

// unstableRun is a run of one case in three trials, whose first verdict
// is an unstable judge's pass.
func unstableRun() *gavel.Run {
	c := &gavel.Case{ID: "case_003", Name: "tone", Script: prompts("hi")}
	unsteady := judge.Judgment{Name: "rubric", Status: judge.StatusPass, Score: judge.Unit(0.7), Reasoning: "mean score of 3 samples 0.7 ≥ 0.7",
		Checks: []judge.Check{{Name: "stability", Passed: false, Message: "3 samples, scores 0.4..0.9: the samples disagree: 2 pass, 1 fails"}}}
	failed := judge.Judgment{Name: "rubric", Status: judge.StatusFail, Score: judge.Unit(0.2), Reasoning: "score 0.2 < 0.7"}
	return &gavel.Run{Suite: &gavel.Suite{Name: "s", Cases: []*gavel.Case{c}, Threshold: 0.5}, Cases: []gavel.CaseResult{{Case: c, Trials: []gavel.Trial{
		trial("case_003", 1, 100, transcript("hi", agentTurn(1, "hello")), unsteady),
		trial("case_003", 2, 100, transcript("hi", agentTurn(1, "hello")), failed),
		trial("case_003", 3, 100, transcript("hi", agentTurn(1, "hello")), failed),
	}}}}
}

// Every report format says pass@k and names the unstable judges (samples
// that disagreed), which only the JSON and HTML reports showed before.
func TestPassAtKAndUnstableJudgesInEveryFormat(t *testing.T) {
	run := unstableRun()
	for format, want := range map[Format][]string{
		Text:     {"pass@k: k=2 66.7%, k=3 100%", "Unstable judge: case_003#1 rubric: 3 samples, scores 0.4..0.9"},
		Markdown: {"pass@k: k=2 66.7%, k=3 100%", `Unstable judge: case\_003\#1 rubric: 3 samples`},
		HTML:     {"pass@k: k=2 66.7%, k=3 100%", "Unstable judge: case_003#1 rubric: 3 samples"},
		JUnit:    {`<property name="pass_at_2" value="0.6667">`, `<property name="pass_hat_3" value="0">`, "<system-out>trial 1: unstable judge rubric: 3 samples"},
	} {
		var b bytes.Buffer
		if err := Write(&b, format, run, Options{}); err != nil {
			t.Fatal(err)
		}
		for _, w := range want {
			if !strings.Contains(b.String(), w) {
				t.Errorf("%s report lacks %q:\n%s", format, w, b.String())
			}
		}
	}
}
