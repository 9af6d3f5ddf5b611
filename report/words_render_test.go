package report

import (
	"html"
	"strings"
	"testing"

	"github.com/gavelhq/gavel/judge"
)

// A FAIL whose parts mostly passed reads as a FAIL in every report: the
// verdict says in words which judge decided it and its number against
// its own threshold, and the composite's mean (0.8 here: four of five
// parts passed) is shown nowhere as a score.
func TestAFailReadsAsAFail(t *testing.T) {
	pass := func(name string) judge.Judgment {
		return judge.Judgment{Name: name, Status: judge.StatusPass, Score: judge.Bool(true), Reasoning: "fine"}
	}
	tone := judge.Judgment{Name: "tone", Status: judge.StatusPass, Score: judge.Unit(0.9), Prompt: "p1a2b3",
		Usage: judge.Usage{InputTokens: 900, OutputTokens: 40}, Reasoning: "apologized and explained", Threshold: judge.AtLeast(0.9, 0.7)}
	verdict := judge.Judgment{Name: "all", Status: judge.StatusFail, Score: judge.Unit(0.8), Reasoning: "1 of 5 failed",
		Parts: []judge.Judgment{
			{Name: "forbidden_tools cancel_order", Status: judge.StatusFail, Score: judge.Bool(false), Reasoning: "called forbidden tool cancel_order (call 2)"},
			pass("expected_tools get_order_status"), pass("no_em_dash"), pass("max_questions 1"), tone,
		}}
	run := fixture(t)
	run.Cases = run.Cases[1:2]
	run.Cases[0].Trials[0].Verdict = verdict
	run.Cases[0].Summarize()

	const decision = "FAIL: decided by forbidden_tools cancel_order (a rule): called forbidden tool cancel_order (call 2)"
	for _, f := range []Format{Text, Markdown, HTML, JUnit} {
		for _, verbose := range []bool{false, true} {
			out := write(t, f, run, Options{Verbose: verbose})
			want := decision
			switch f {
			case HTML, JUnit:
				out = html.UnescapeString(out)
			case Markdown:
				want = mdText(decision)
			}
			if strings.Contains(out, "score 0.8/1") {
				t.Errorf("the %s report (verbose %v) shows the FAIL as \"score 0.8/1\", which reads as a pass", f, verbose)
			}
			if !strings.Contains(out, want) {
				t.Errorf("the %s report (verbose %v) does not say %q", f, verbose, want)
			}
			if verbose && f != JUnit && !strings.Contains(out, "scored 0.9, above its threshold 0.7") {
				t.Errorf("the %s report (verbose) does not show tone's score against its threshold", f)
			}
		}
	}
}
