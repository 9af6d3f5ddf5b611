package report

import (
	"bytes"
	"encoding/xml"
	"fmt"
	"strconv"
	"strings"

	"github.com/gavelhq/gavel"
	"github.com/gavelhq/gavel/judge"
)

// The JUnit report keeps to the subset of the JUnit XML format that
// Jenkins, GitLab and GitHub's test reporters all read, and it is valid
// against the schema of Jenkins' xUnit plugin (junit-10.xsd, which the
// tests check it with): one <testsuites> holding one <testsuite>, a
// <testcase> per case, and in it at most one <failure>, <error> or
// <skipped>. encoding/xml escapes every value; clean drops the characters
// XML 1.0 forbids, which escaping cannot express.

// junitSuites is the document. The schema gives <testsuites> no skipped
// count: the <testsuite> has it.
type junitSuites struct {
	XMLName  xml.Name   `xml:"testsuites"`
	Name     string     `xml:"name,attr"`
	Tests    int        `xml:"tests,attr"`
	Failures int        `xml:"failures,attr"`
	Errors   int        `xml:"errors,attr"`
	Time     string     `xml:"time,attr"`
	Suite    junitSuite `xml:"testsuite"`
}

type junitSuite struct {
	Name       string          `xml:"name,attr"`
	Tests      int             `xml:"tests,attr"`
	Failures   int             `xml:"failures,attr"`
	Errors     int             `xml:"errors,attr"`
	Skipped    int             `xml:"skipped,attr"`
	Time       string          `xml:"time,attr"`
	Timestamp  string          `xml:"timestamp,attr,omitempty"`
	Properties []junitProperty `xml:"properties>property,omitempty"`
	Cases      []junitCase     `xml:"testcase"`
}

type junitProperty struct {
	Name  string `xml:"name,attr"`
	Value string `xml:"value,attr"`
}

type junitCase struct {
	ClassName string        `xml:"classname,attr"`
	Name      string        `xml:"name,attr"`
	Time      string        `xml:"time,attr"`
	Failure   *junitProblem `xml:"failure,omitempty"`
	Error     *junitProblem `xml:"error,omitempty"`
	Skipped   *junitSkipped `xml:"skipped,omitempty"`
	// SystemOut says what else is worth knowing of the case: its
	// unstable judges.
	SystemOut string `xml:"system-out,omitempty"`
}

// junitProblem is a <failure> or an <error>: a one-line message, and the
// whole story as text.
type junitProblem struct {
	Type, Message, Detail string
}

// MarshalXML writes the problem with its detail as escaped text that
// keeps its line breaks: a ",chardata" field would write each one as
// "&#xA;", and CI pages show the text as it is written.
func (p junitProblem) MarshalXML(enc *xml.Encoder, start xml.StartElement) error {
	start.Attr = append(start.Attr,
		xml.Attr{Name: xml.Name{Local: "type"}, Value: p.Type},
		xml.Attr{Name: xml.Name{Local: "message"}, Value: p.Message})
	for _, tok := range []xml.Token{start, xml.CharData(p.Detail), start.End()} {
		if err := enc.EncodeToken(tok); err != nil {
			return err
		}
	}
	return nil
}

type junitSkipped struct {
	Message string `xml:"message,attr"`
}

// writeJUnit writes the JUnit XML report. A FAIL or FLAKY case is a
// <failure>, an ERROR case an <error>, a SKIPPED case <skipped>; the
// message is the first reason a judge gave, the body the text report's
// failure detail with every trial that did not pass.
func writeJUnit(b *bytes.Buffer, run *gavel.Run, opts Options) error {
	name := clean(suiteName(run))
	s := junitSuite{Name: name, Time: seconds(run.Duration)}
	if !run.Started.IsZero() {
		// JUnit's timestamp has no zone: write UTC.
		s.Timestamp = run.Started.UTC().Format("2006-01-02T15:04:05")
	}
	stats := run.Stats()
	// Without a pass rate (nothing was judged) the property is left out:
	// unknown is no number.
	if stats.PassRate != nil {
		s.Properties = append(s.Properties, junitProperty{Name: "pass_rate", Value: decimal(*stats.PassRate)})
	}
	if iv := stats.PassRateInterval; iv != nil {
		s.Properties = append(s.Properties,
			junitProperty{Name: "pass_rate_lo", Value: decimal(iv.Lo)},
			junitProperty{Name: "pass_rate_hi", Value: decimal(iv.Hi)},
			junitProperty{Name: "confidence", Value: decimal(iv.Level)})
	}
	if run.Complete() {
		s.Properties = append(s.Properties, junitProperty{Name: "verdict", Value: string(run.Gate().Decision)})
	}
	if c := stats.CorrectedPassRate; c != nil {
		s.Properties = append(s.Properties, junitProperty{Name: "corrected_pass_rate", Value: decimal(c.Rate)})
	}
	s.Properties = append(s.Properties, []junitProperty{
		{Name: "threshold", Value: decimal(threshold(run))},
		{Name: "passed", Value: strconv.FormatBool(run.Passed())},
		{Name: "cost_usd", Value: decimal(stats.Usage.Total().CostUSD)},
	}...)
	if stats.Usage.Total().Unpriced {
		// cost_usd leaves out a model without a price: a lower bound.
		s.Properties = append(s.Properties, junitProperty{Name: "cost_unpriced", Value: "true"})
	}
	if stats.Usage.Total().Unreported {
		// cost_usd leaves out what nobody reported: a lower bound.
		s.Properties = append(s.Properties, junitProperty{Name: "usage_unreported", Value: "true"})
	}
	if opts.Version != "" {
		s.Properties = append(s.Properties, junitProperty{Name: "gavel_version", Value: clean(opts.Version)})
	}
	for k := 2; k <= len(stats.PassAtK); k++ { // pass@1 and pass^1 are the pass rate
		s.Properties = append(s.Properties,
			junitProperty{Name: fmt.Sprintf("pass_at_%d", k), Value: decimal(stats.PassAtK[k-1])},
			junitProperty{Name: fmt.Sprintf("pass_hat_%d", k), Value: decimal(stats.PassHatK[k-1])})
	}
	for i := range run.Cases {
		cr := &run.Cases[i]
		c := junitCaseOf(name, cr)
		var notes []string
		for _, t := range cr.Trials {
			for _, u := range unstable(t.Verdict) {
				notes = append(notes, fmt.Sprintf("trial %d: unstable judge %s", t.N, u))
			}
		}
		c.SystemOut = clean(strings.Join(notes, "\n"))
		s.Tests++
		switch {
		case c.Failure != nil:
			s.Failures++
		case c.Error != nil:
			s.Errors++
		case c.Skipped != nil:
			s.Skipped++
		}
		s.Cases = append(s.Cases, c)
	}
	if !run.Complete() {
		// CI pages show test cases, not properties: the run's being
		// incomplete is an error of its own.
		s.Properties = append(s.Properties, junitProperty{Name: "incomplete", Value: clean(oneLine(run.StopReason))})
		s.Tests++
		s.Errors++
		s.Cases = append(s.Cases, junitCase{ClassName: name, Name: "gavel: the run is incomplete", Time: "0",
			Error: &junitProblem{Type: "INCOMPLETE", Message: clean(incomplete(run))}})
	}
	if line := unjudged(run, stats); line != "" {
		// As for an incomplete run: a CI page shows test cases, and a run
		// that judged nothing did not pass.
		s.Tests++
		s.Failures++
		s.Cases = append(s.Cases, junitCase{ClassName: name, Name: "gavel: nothing was judged", Time: "0",
			Failure: &junitProblem{Type: "NOT JUDGED", Message: line}})
	}
	doc := junitSuites{Name: "gavel", Tests: s.Tests, Failures: s.Failures, Errors: s.Errors, Time: s.Time, Suite: s}

	b.WriteString(xml.Header)
	enc := xml.NewEncoder(b)
	enc.Indent("", "  ")
	if err := enc.Encode(doc); err != nil {
		return err
	}
	b.WriteString("\n")
	return nil
}

// junitCaseOf builds the <testcase> of one case.
func junitCaseOf(suite string, cr *gavel.CaseResult) junitCase {
	f := factsOf(cr)
	c := junitCase{ClassName: suite, Name: clean(f.title()), Time: seconds(f.Duration)}
	switch cr.Outcome {
	case gavel.Failed, gavel.Flaky:
		c.Failure = &junitProblem{Type: string(cr.Outcome), Message: problemMessage(cr), Detail: problemDetail(cr)}
	case gavel.Errored:
		c.Error = &junitProblem{Type: errorType(cr), Message: problemMessage(cr), Detail: problemDetail(cr)}
	case gavel.Skipped:
		c.Skipped = &junitSkipped{Message: skipReason(cr)}
	}
	return c
}

// problemMessage is the first reason the first trial that did not pass
// gave, on one line.
func problemMessage(cr *gavel.CaseResult) string {
	for _, t := range notPassed(cr.Trials) {
		if reason := firstReason(t.Verdict); reason != "" {
			return reason
		}
	}
	return string(cr.Outcome)
}

// problemDetail is the text report's detail of a case, every trial that
// did not pass included.
func problemDetail(cr *gavel.CaseResult) string {
	var b bytes.Buffer
	b.WriteString("\n")
	writeCaseDetail(&b, "", cr, true)
	return b.String()
}

// decimal formats f with at most 4 decimals: "0.2778", "0.8", "1".
func decimal(f float64) string {
	s := strconv.FormatFloat(f, 'f', 4, 64)
	return strings.TrimSuffix(strings.TrimRight(s, "0"), ".")
}

// errorType names why an ERROR case could not be judged: how its
// conversation ended ("TIMEOUT", "FAILED") when it did not complete, else
// "ERROR" (a judge could not judge).
func errorType(cr *gavel.CaseResult) string {
	for _, t := range cr.Trials {
		if t.Verdict.Status == judge.StatusError && !completed(t.Transcript) {
			return oneLine(string(t.Transcript.Status))
		}
	}
	return string(gavel.Errored)
}
