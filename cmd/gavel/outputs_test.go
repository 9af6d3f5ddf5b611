package main

import (
	"os"
	"path/filepath"
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

// In GitHub Actions, the run's Markdown summary is added to the step
// summary by itself, after what earlier steps wrote there.
func TestGitHubStepSummary(t *testing.T) {
	summary := filepath.Join(t.TempDir(), "step_summary")
	os.WriteFile(summary, []byte("## Unit tests\nall green\n"), 0o644)
	t.Setenv("GITHUB_ACTIONS", "true")
	t.Setenv("GITHUB_STEP_SUMMARY", summary)
	suite := filepath.Join(t.TempDir(), "evals")
	if code, _, errs := gavelCmd(t, "init", suite); code != exitPassed {
		t.Fatal(errs)
	}
	if code, out, errs := gavelCmd(t, "run", "--quiet", "--no-cache", suite); code != exitPassed {
		t.Fatalf("exit %d\n%s%s", code, out, errs)
	}
	data, _ := os.ReadFile(summary)
	if !strings.HasPrefix(string(data), "## Unit tests\nall green\n") || !strings.Contains(string(data), "Pass rate") {
		t.Errorf("the step summary:\n%s", data)
	}
	// Naming it with --out as well writes it once.
	os.WriteFile(summary, nil, 0o644)
	if code, _, errs := gavelCmd(t, "run", "--quiet", "--no-cache", "--out", "markdown="+summary, suite); code != exitPassed {
		t.Fatal(errs)
	}
	if data, _ := os.ReadFile(summary); strings.Count(string(data), "Pass rate") != 1 {
		t.Errorf("the summary written %d times:\n%s", strings.Count(string(data), "Pass rate"), data)
	}
}
