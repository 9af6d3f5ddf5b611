package gaveltest

import (
	"cmp"
	"fmt"
	"strings"
	"testing"

	"github.com/gavelhq/gavel"
	"github.com/gavelhq/gavel/judge"
	"github.com/gavelhq/gavel/report"
)

// A verdict is how a case's subtest ends, and what it says.
type verdict struct {
	Fail, Skip bool
	// Text is why the subtest failed or skipped; for a case that passed
	// although not every trial did, what went wrong, for the log.
	Text string
}

// report ends t as v says.
func (v verdict) report(t testing.TB) {
	t.Helper()
	switch {
	case v.Skip:
		t.Skip(v.Text)
	case v.Fail:
		t.Error(v.Text)
	case v.Text != "":
		t.Log(v.Text)
	}
}

// verdictOf decides a case's subtest: skipped when the case did not run,
// failed when fewer than minPassRate of its trials passed. An ERROR trial
// counts as not passed. The text of a case that did not PASS is the text
// report's detail of it: what it asked and expected, the tool calls, the
// conversation, the error and the judges' reasons.
func verdictOf(cr *gavel.CaseResult, minPassRate float64) verdict {
	if cr.Outcome == gavel.Skipped {
		return verdict{Skip: true, Text: cmp.Or(cr.SkipReason, "the run skipped the case, giving no reason")}
	}
	if cr.Outcome == gavel.Passed {
		return verdict{}
	}
	rate, _ := cr.PassRate()
	// Give or take rounding, so that 4 of 5 reaches 0.8.
	fail := judge.CompareToThreshold(rate, minPassRate) < 0
	passed := passedTrials(cr)

	var b strings.Builder
	message, detail := report.Explain(cr)
	fmt.Fprintf(&b, "%s: %s\n", cr.Outcome, message)
	if where := caseLine(cr.Case); where != "" {
		fmt.Fprintf(&b, "Case:     %s\n", where)
	}
	if len(cr.Trials) > 1 || !fail {
		fmt.Fprintf(&b, "Trials:   %d of %d passed, %s needed\n", passed, len(cr.Trials), percent(minPassRate))
	}
	b.WriteString(detail)
	return verdict{Fail: fail, Text: strings.TrimRight(b.String(), "\n")}
}

// caseLine is a case's name and where it was written, "Stays on topic
// (gavel.yaml:33)", or "" when neither is known.
func caseLine(c *gavel.Case) string {
	switch {
	case c == nil:
		return ""
	case c.Source == "":
		return c.Name
	case c.Name == "":
		return c.Source
	}
	return c.Name + " (" + c.Source + ")"
}

// passedTrials counts the trials of cr that passed.
func passedTrials(cr *gavel.CaseResult) int {
	n := 0
	for _, t := range cr.Trials {
		if t.Verdict.Passed() {
			n++
		}
	}
	return n
}
