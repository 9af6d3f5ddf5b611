package report_test

import (
	"bytes"
	"strings"
	"testing"

	"github.com/gavelhq/gavel/audit"
	"github.com/gavelhq/gavel/report"
)

// A probe with nothing to count prints "-", not 0%; an unmeasured
// family says how to measure it; names are escaped in HTML.
func TestWriteAudit(t *testing.T) {
	r := &audit.Report{Suite: "s", Transcripts: 1, Samples: 1, Judges: []audit.JudgeReport{{
		Name: "<b>tone</b>", Kind: "rubric", Model: "openai:gpt-5-mini", Errors: 2, FirstError: "ERROR: provider down",
		Verbosity: &audit.Verbosity{}, Family: &audit.Family{Family: "gpt"},
	}}}
	var text bytes.Buffer
	if err := report.WriteAudit(&text, report.Text, r); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"PASS: every judge met the suite's bars", "gpt: not measured (give audit.reference_model)",
		"<b>tone</b>: 2 samples judged nothing; the first: ERROR: provider down", "none set: the numbers are reported, nothing is checked"} {
		if !strings.Contains(text.String(), want) {
			t.Errorf("the text report lacks %q:\n%s", want, text.String())
		}
	}
	if strings.Contains(text.String(), "0%") {
		t.Errorf("a share with nothing to count was printed as 0%%:\n%s", text.String())
	}
	var html bytes.Buffer
	if err := report.WriteAudit(&html, report.HTML, r); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(html.String(), "<b>tone") || !strings.Contains(html.String(), "&lt;b&gt;tone") {
		t.Errorf("the judge's name is not escaped in HTML:\n%s", html.String())
	}
	if err := report.WriteAudit(&html, report.JUnit, r); err == nil {
		t.Error("an audit was written as JUnit")
	}
}
