package eval

import (
	"strings"
	"testing"

	"github.com/gavelhq/gavel/report"
)

// --out takes a format explicitly, for a file whose name says none, such
// as GitHub's step summary.
func TestOutputFormats(t *testing.T) {
	for _, tc := range []struct {
		arg, path string
		format    report.Format
		wantErr   string
	}{
		{arg: "report.xml", path: "report.xml", format: report.JUnit},
		{arg: "markdown=/home/runner/_temp/step_summary_1a2b", path: "/home/runner/_temp/step_summary_1a2b", format: report.Markdown},
		{arg: "junit=out/results", path: "out/results", format: report.JUnit},
		{arg: "md=x", path: "x", format: report.Markdown},
		{arg: "a=b.json", path: "a=b.json", format: report.JSON}, // "a" is no format: a path
		{arg: "/tmp/step_summary", wantErr: "--out /tmp/step_summary: the name says no format: give it as FORMAT=FILE (markdown=/tmp/step_summary)"},
		{arg: "pdf=x.pdf", wantErr: `unknown report format "pdf"`},
	} {
		got, err := outputs([]string{tc.arg})
		switch {
		case tc.wantErr != "":
			if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
				t.Errorf("%s: got %v, want %q", tc.arg, err, tc.wantErr)
			}
		case err != nil || len(got) != 1 || got[0].path != tc.path || got[0].format != tc.format:
			t.Errorf("%s: got %+v, %v; want %s as %s", tc.arg, got, err, tc.path, tc.format)
		}
	}
}
