package gaveltest

import (
	"bytes"
	"cmp"
	"encoding/xml"
	"fmt"
	"strings"
	"testing"

	"github.com/gavelhq/gavel"
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
	// A little slack, so that 4 of 5 reaches 0.8 whatever the rounding.
	fail := rate < minPassRate-1e-9
	passed := passedTrials(cr)

	var b strings.Builder
	message, detail := explain(cr)
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

// explain returns why a case did not pass: the first reason a judge gave,
// on one line, and the text report's detail of the case, every trial that
// did not pass included. Both come from the JUnit report, whose <failure>
// and <error> hold exactly these, so that gaveltest says what gavel run
// says.
func explain(cr *gavel.CaseResult) (message, detail string) {
	var buf bytes.Buffer
	run := &gavel.Run{Cases: []gavel.CaseResult{*cr}}
	if err := report.Write(&buf, report.JUnit, run, report.Options{}); err != nil {
		return string(cr.Outcome), fmt.Sprintf("(no detail: %v)\n", err)
	}
	var doc struct {
		Cases []struct {
			Failure *junitProblem `xml:"failure"`
			Error   *junitProblem `xml:"error"`
		} `xml:"testsuite>testcase"`
	}
	if err := xml.Unmarshal(buf.Bytes(), &doc); err != nil || len(doc.Cases) != 1 {
		return string(cr.Outcome), fmt.Sprintf("(no detail: the JUnit report does not read back: %v)\n", err)
	}
	p := cmp.Or(doc.Cases[0].Failure, doc.Cases[0].Error)
	if p == nil {
		return string(cr.Outcome), ""
	}
	return p.Message, strings.TrimLeft(p.Detail, "\n")
}

// junitProblem is a JUnit <failure> or <error>.
type junitProblem struct {
	Message string `xml:"message,attr"`
	Detail  string `xml:",chardata"`
}
