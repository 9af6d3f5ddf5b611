package report

import (
	"bytes"
	"errors"
	"strings"
	"testing"

	"github.com/gavelhq/gavel/internal/golden"

	"github.com/gavelhq/gavel"
	"github.com/gavelhq/gavel/judge"
)

// write writes the fixture's report in format f.
func write(t *testing.T, f Format, run *gavel.Run, opts Options) string {
	t.Helper()
	var b bytes.Buffer
	if err := Write(&b, f, run, opts); err != nil {
		t.Fatalf("Write(%s): %v", f, err)
	}
	return b.String()
}

func TestGolden(t *testing.T) {
	tests := []struct {
		name   string
		format Format
		opts   Options
	}{
		{"text", Text, Options{}},
		{"text-verbose", Text, Options{Verbose: true}},
		{"json", JSON, Options{Version: "v0.1.0"}},
		{"junit", JUnit, Options{Version: "v0.1.0"}},
		{"markdown", Markdown, Options{}},
		{"markdown-verbose", Markdown, Options{Verbose: true}},
		{"html", HTML, Options{Version: "v0.1.0"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			golden.Check(t, tc.name, write(t, tc.format, fixture(t), tc.opts))
		})
	}
}

func TestParseFormat(t *testing.T) {
	tests := []struct {
		in      string
		want    Format
		wantErr string
	}{
		{in: "text", want: Text},
		{in: "json", want: JSON},
		{in: "junit", want: JUnit},
		{in: "markdown", want: Markdown},
		{in: "html", want: HTML},
		{in: " HTML ", want: HTML},
		{in: "xml", wantErr: `unknown report format "xml": want one of text, json, junit, markdown, html`},
		{in: "", wantErr: `unknown report format "": want one of text, json, junit, markdown, html`},
	}
	for _, tc := range tests {
		t.Run(tc.in, func(t *testing.T) {
			got, err := ParseFormat(tc.in)
			if tc.wantErr != "" {
				if err == nil || err.Error() != tc.wantErr {
					t.Fatalf("got error %v, want %q", err, tc.wantErr)
				}
				return
			}
			if err != nil || got != tc.want {
				t.Errorf("got %q, %v; want %q", got, err, tc.want)
			}
		})
	}
}

func TestWriteRefuses(t *testing.T) {
	tests := []struct {
		name    string
		format  Format
		run     *gavel.Run
		wantErr string
	}{
		{"unknown format", "pdf", &gavel.Run{}, `write report: unknown report format "pdf": want one of text, json, junit, markdown, html`},
		{"no run", Text, nil, "write report: no run"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var b bytes.Buffer
			err := Write(&b, tc.format, tc.run, Options{})
			if err == nil || err.Error() != tc.wantErr {
				t.Fatalf("got error %v, want %q", err, tc.wantErr)
			}
			if b.Len() != 0 {
				t.Errorf("wrote %q before failing", b.String())
			}
		})
	}
}

// A run without a suite, or without cases, is still reported, under the
// name "suite" and against a threshold of 1.
func TestWriteWithoutSuite(t *testing.T) {
	withoutSuite := fixture(t)
	withoutSuite.Suite = nil
	for i := range withoutSuite.Cases {
		withoutSuite.Cases[i].Case = nil // as if read back from storage
	}
	runs := map[string]*gavel.Run{"no suite": withoutSuite, "empty": {}}
	for name, run := range runs {
		for _, w := range writers {
			t.Run(name+"/"+string(w.format), func(t *testing.T) {
				out := write(t, w.format, run, Options{})
				if !strings.Contains(out, "suite") {
					t.Errorf("the report does not name the suite \"suite\":\n%s", out)
				}
			})
		}
	}
	if out := write(t, Text, withoutSuite, Options{}); !strings.Contains(out, "Threshold: 100% -> overall FAIL") || !strings.Contains(out, "case_005") {
		t.Errorf("text report without a suite:\n%s", out)
	}
}

// errWriter fails every write.
type errWriter struct{}

func (errWriter) Write([]byte) (int, error) { return 0, errors.New("disk full") }

func TestWriteReportsWriterErrors(t *testing.T) {
	err := Write(errWriter{}, JSON, fixture(t), Options{})
	if err == nil || err.Error() != "write json report: disk full" {
		t.Errorf("got %v, want the writer's error with context", err)
	}
}

// A verdict that could not be judged has no score, even one stored by a
// Gavel that gave an ERROR the mean of its parts ("score 1/1" read as a
// pass): no report shows one.
func TestErrorsShowNoScore(t *testing.T) {
	run := fixture(t)
	errored := judge.Judgment{Name: "all", Status: judge.StatusError, Score: judge.Unit(1),
		Reasoning: "1 of 2 could not judge: rubric: the provider is down",
		Parts: []judge.Judgment{
			{Name: "contains", Status: judge.StatusPass, Score: judge.Bool(true)},
			{Name: "rubric", Status: judge.StatusError, Score: judge.Unit(0.9), Reasoning: "the provider is down"},
		}}
	run.Cases = run.Cases[:1]
	run.Cases[0].Trials[0].Verdict = errored
	run.Cases[0].Summarize()
	for _, w := range writers {
		t.Run(string(w.format), func(t *testing.T) {
			out := write(t, w.format, run, Options{Verbose: true})
			for _, shown := range []string{"1/1", "0.9/1", "0.90"} {
				if strings.Contains(out, shown) {
					t.Errorf("the %s report shows the score %s of an ERROR", w.format, shown)
				}
			}
		})
	}
}
