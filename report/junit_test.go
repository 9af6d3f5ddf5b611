package report

import (
	"encoding/xml"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gavelhq/gavel"
	"github.com/gavelhq/gavel/judge"
)

// What CI test reporters read of a JUnit file.
type parsedSuites struct {
	Tests    int           `xml:"tests,attr"`
	Failures int           `xml:"failures,attr"`
	Errors   int           `xml:"errors,attr"`
	Suites   []parsedSuite `xml:"testsuite"`
}

type parsedSuite struct {
	Name     string       `xml:"name,attr"`
	Tests    int          `xml:"tests,attr"`
	Failures int          `xml:"failures,attr"`
	Errors   int          `xml:"errors,attr"`
	Skipped  int          `xml:"skipped,attr"`
	Time     string       `xml:"time,attr"`
	Cases    []parsedCase `xml:"testcase"`
}

type parsedCase struct {
	ClassName string         `xml:"classname,attr"`
	Name      string         `xml:"name,attr"`
	Time      string         `xml:"time,attr"`
	Failure   *parsedProblem `xml:"failure"`
	Error     *parsedProblem `xml:"error"`
	Skipped   *parsedProblem `xml:"skipped"`
}

type parsedProblem struct {
	Type    string `xml:"type,attr"`
	Message string `xml:"message,attr"`
	Text    string `xml:",chardata"`
}

func parseJUnit(t *testing.T, out string) parsedSuites {
	t.Helper()
	var got parsedSuites
	if err := xml.Unmarshal([]byte(out), &got); err != nil {
		t.Fatalf("the report is not XML: %v\n%s", err, out)
	}
	return got
}

// The report parses, and its counts match its test cases.
func TestJUnitParsesAndCounts(t *testing.T) {
	got := parseJUnit(t, write(t, JUnit, fixture(t), Options{}))
	if len(got.Suites) != 1 {
		t.Fatalf("%d test suites, want 1", len(got.Suites))
	}
	s := got.Suites[0]
	var failures, errors, skipped int
	for _, c := range s.Cases {
		if c.Failure != nil {
			failures++
		}
		if c.Error != nil {
			errors++
		}
		if c.Skipped != nil {
			skipped++
		}
		if c.ClassName != "support-desk" {
			t.Errorf("%s: classname %q, want the suite's name", c.Name, c.ClassName)
		}
	}
	counts := [][2]int{
		{s.Tests, len(s.Cases)}, {s.Failures, failures}, {s.Errors, errors}, {s.Skipped, skipped},
		{got.Tests, s.Tests}, {got.Failures, s.Failures}, {got.Errors, s.Errors},
	}
	for _, c := range counts {
		if c[0] != c[1] {
			t.Errorf("counts do not match: tests %d/%d failures %d/%d errors %d/%d skipped %d/%d (attribute/elements)",
				s.Tests, len(s.Cases), s.Failures, failures, s.Errors, errors, s.Skipped, skipped)
			break
		}
	}
	if want := [4]int{7, 4, 1, 1}; [4]int{s.Tests, s.Failures, s.Errors, s.Skipped} != want {
		t.Errorf("tests, failures, errors, skipped = %d, %d, %d, %d; want %v", s.Tests, s.Failures, s.Errors, s.Skipped, want)
	}
}

// Each outcome becomes its element, with the first reason as message.
func TestJUnitCases(t *testing.T) {
	cases := parseJUnit(t, write(t, JUnit, fixture(t), Options{})).Suites[0].Cases
	tests := []struct {
		index                 int
		name, time            string
		element, typ, message string
	}{
		{0, "case_001: order status lookup", "1.2", "", "", ""},
		{1, "case_005: policy edge: cancel without confirmation", "0.9", "failure", "FAIL",
			"expected_tools ask_confirmation: missing ask_confirmation (called: get_order_status, cancel_order)"},
		{2, "case_003: order history export", "30", "error", "TIMEOUT",
			"conversation: the conversation did not complete (TIMEOUT): agent did not answer within 30s"},
		{3, "case_004: delivery date", "2.47", "failure", "FLAKY",
			"round 1: response traits: The reply does not mention the delivery date."},
		{4, "case_006: two-step lookup then cancel", "0", "skipped", "", "the budget of $0.05 was spent ($0.0512)"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			c := cases[tc.index]
			if c.Name != tc.name || c.Time != tc.time {
				t.Errorf("name %q time %q, want %q %q", c.Name, c.Time, tc.name, tc.time)
			}
			var p *parsedProblem
			element := ""
			switch {
			case c.Failure != nil:
				p, element = c.Failure, "failure"
			case c.Error != nil:
				p, element = c.Error, "error"
			case c.Skipped != nil:
				p, element = c.Skipped, "skipped"
			}
			if element != tc.element {
				t.Fatalf("element %q, want %q", element, tc.element)
			}
			if p != nil && (p.Type != tc.typ || p.Message != tc.message) {
				t.Errorf("type %q message %q, want %q %q", p.Type, p.Message, tc.typ, tc.message)
			}
		})
	}
}

// Agent text survives as text: markup and "]]>" are escaped, and the
// characters XML 1.0 forbids are gone, so strict parsers accept the file.
func TestJUnitEscapesAgentText(t *testing.T) {
	out := write(t, JUnit, fixture(t), Options{})
	for _, bad := range []string{"<script>", "\x1b", "\x00", "]]>"} {
		if strings.Contains(out, bad) {
			t.Errorf("the report contains %q unescaped", bad)
		}
	}
	hostile := parseJUnit(t, out).Suites[0].Cases[6].Failure
	if want := "<script>alert(1)</script> It is sunny ]]> [31mred[0m | pipe | and ``code``"; !strings.Contains(hostile.Text, want) {
		t.Errorf("the failure text does not hold the reply %q:\n%s", want, hostile.Text)
	}
	if want := "round 1: out of scope: the agent answered an out-of-scope question with markup: <script>alert(1)</script> ]]>"; hostile.Message != want {
		t.Errorf("message %q, want %q", hostile.Message, want)
	}
}

// Characters XML 1.0 forbids anywhere (names, messages, reasons) are
// dropped, not written.
func TestJUnitDropsForbiddenCharacters(t *testing.T) {
	run := fixture(t)
	run.Suite.Name = "support\x01desk"
	run.Cases[1].Case.Name = "policy \x0b edge \uFFFE"
	run.Cases[1].Trials[0].Verdict.Parts[0].Parts[0].Reasoning = "bad \x1f byte \xff here"
	got := parseJUnit(t, write(t, JUnit, run, Options{}))
	c := got.Suites[0].Cases[1]
	if got.Suites[0].Name != "supportdesk" || c.Name != "case_005: policy  edge " {
		t.Errorf("suite %q case %q", got.Suites[0].Name, c.Name)
	}
	if want := "expected_tools ask_confirmation: bad byte here"; c.Failure.Message != want {
		t.Errorf("message %q, want %q", c.Failure.Message, want)
	}
}

func TestJUnitEmptyRun(t *testing.T) {
	got := parseJUnit(t, write(t, JUnit, &gavel.Run{}, Options{}))
	if len(got.Suites) != 1 || got.Suites[0].Name != "suite" || got.Tests != 0 || got.Suites[0].Time != "0" {
		t.Errorf("empty run: %+v", got)
	}
}

// The reports are valid JUnit for Jenkins' xUnit plugin: testdata's
// junit-10.xsd is its schema (MIT; jenkinsci/xunit-plugin,
// src/main/resources/org/jenkinsci/plugins/xunit/types/model/xsd, at
// 031e285e), checked with xmllint (Debian's libxml2-utils). Without
// xmllint the test skips, unless GAVEL_REQUIRE_INTEGRATION=1.
func TestJUnitSchema(t *testing.T) {
	xmllint, err := exec.LookPath("xmllint")
	if err != nil {
		if os.Getenv("GAVEL_REQUIRE_INTEGRATION") == "1" {
			t.Fatal("xmllint is not on PATH (apt install libxml2-utils), and GAVEL_REQUIRE_INTEGRATION=1 requires it")
		}
		t.Skip("xmllint is not on PATH (apt install libxml2-utils)")
	}
	hostile := fixture(t)
	hostile.Suite.Name = "support\x01desk"
	hostile.Cases[1].Trials[0].Verdict.Parts[0].Parts[0].Reasoning = "bad \x1f byte \xff here"
	for _, tc := range []struct {
		name string
		run  *gavel.Run
	}{
		{"every outcome", fixture(t)},
		{"forbidden characters", hostile},
		{"no cases", &gavel.Run{}},
		{"trials and unstable judges", unstableRun()},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cmd := exec.Command(xmllint, "--noout", "--schema", filepath.Join("testdata", "junit-10.xsd"), "-")
			cmd.Stdin = strings.NewReader(write(t, JUnit, tc.run, Options{Version: "v0.1.0"}))
			if out, err := cmd.CombinedOutput(); err != nil {
				t.Errorf("xmllint: %v\n%s", err, out)
			}
		})
	}
}

// A case whose every trial abstained was not judged: its test case is
// skipped, saying so, never green; and the run does not pass on it.
func TestJUnitAbstainedCaseIsSkipped(t *testing.T) {
	cr := gavel.CaseResult{Case: &gavel.Case{ID: "c0000"},
		Trials: []gavel.Trial{{CaseID: "c0000", N: 1, Verdict: judge.Abstained("imported from openai without a verdict: gavel rejudge judges it")}}}
	cr.Summarize()
	run := &gavel.Run{Suite: &gavel.Suite{Name: "imported"}, Cases: []gavel.CaseResult{cr}}
	got := parseJUnit(t, write(t, JUnit, run, Options{})).Suites[0]
	// The run, which judged nothing, fails in a test case of its own.
	if got.Skipped != 1 || len(got.Cases) != 2 || got.Cases[0].Skipped == nil || got.Cases[1].Name != "gavel: nothing was judged" || got.Cases[1].Failure == nil {
		t.Fatalf("skipped %d, cases %+v; want the one case skipped, and the run failed as nothing was judged", got.Skipped, got.Cases)
	}
	if msg, want := got.Cases[0].Skipped.Message, "not judged: no judge gave a verdict (imported from openai without a verdict: gavel rejudge judges it)"; msg != want {
		t.Errorf("skipped: %q, want %q", msg, want)
	}
}
