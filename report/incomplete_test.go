package report

import (
	"encoding/json"
	"encoding/xml"
	"strings"
	"testing"

	"github.com/gavelhq/gavel"
	"github.com/gavelhq/gavel/judge"
)

// incompleteRun is a run interrupted after one case passed: its pass rate
// is 100%, above its threshold, yet it must not pass.
func incompleteRun() *gavel.Run {
	passed := &gavel.Case{ID: "greeting", Script: prompts("hello")}
	skipped := &gavel.Case{ID: "returns", Script: prompts("can I return it?")}
	reason := "interrupted (SIGTERM): trials in flight finished, no new one started"
	return &gavel.Run{
		Suite: &gavel.Suite{Name: "my-agent", Threshold: 0.8, Cases: []*gavel.Case{passed, skipped}},
		Cases: []gavel.CaseResult{
			{Case: passed, Outcome: gavel.Passed, Trials: []gavel.Trial{{CaseID: "greeting", N: 1,
				Transcript: &judge.Transcript{Status: judge.ExecSuccess, FinalResponse: "Hello!"}, Verdict: judge.Verdict(true, "greets")}}},
			{Case: skipped, Outcome: gavel.Skipped, SkipReason: reason},
		},
		Started: start, Stopped: gavel.StopInterrupted, StopReason: reason,
	}
}

// Every report says an incomplete run is incomplete, and why, and none
// says it passed.
func TestIncompleteRun(t *testing.T) {
	run := incompleteRun()
	wantLine := "Incomplete: interrupted (SIGTERM): trials in flight finished, no new one started. Not every selected trial ran, so the run does not pass, whatever its pass rate."
	for _, tc := range []struct {
		format     Format
		want, lack []string
	}{
		{Text, []string{"Pass rate: 100% over 1 cases (1 skipped)", "Threshold: 80% -> overall INCOMPLETE", wantLine}, []string{"overall PASS"}},
		{Markdown, []string{"## ⚠️ my-agent: INCOMPLETE", wantLine}, []string{"PASS\n", "✅ my-agent"}},
		{HTML, []string{"<title>my-agent: INCOMPLETE</title>", "⚠️ my-agent: INCOMPLETE", wantLine}, []string{"✅ my-agent"}},
		{JUnit, []string{`<property name="passed" value="false">`, `name="gavel: the run is incomplete"`, `<error type="INCOMPLETE"`, `errors="1"`}, nil},
	} {
		t.Run(string(tc.format), func(t *testing.T) {
			out := write(t, tc.format, run, Options{})
			for _, w := range tc.want {
				if !strings.Contains(out, w) {
					t.Errorf("the report lacks %q:\n%s", w, out)
				}
			}
			for _, l := range tc.lack {
				if strings.Contains(out, l) {
					t.Errorf("the report has %q:\n%s", l, out)
				}
			}
			if tc.format == JUnit {
				var doc junitSuites
				if err := xml.Unmarshal([]byte(out), &doc); err != nil || doc.Suite.Tests != 3 || doc.Suite.Errors != 1 || doc.Suite.Skipped != 1 {
					t.Errorf("JUnit counts: %d tests, %d errors, %d skipped (%v); want 3, 1, 1", doc.Suite.Tests, doc.Suite.Errors, doc.Suite.Skipped, err)
				}
			}
		})
	}

	var got JSONReport
	if err := json.Unmarshal([]byte(write(t, JSON, run, Options{})), &got); err != nil {
		t.Fatal(err)
	}
	if got.Passed || !got.Incomplete || !got.Interrupted || got.Stopped != gavel.StopInterrupted || got.StopReason != run.StopReason {
		t.Errorf("JSON: passed %v, incomplete %v, interrupted %v, stopped %q (%q); want false, true, true, interrupted (%q)",
			got.Passed, got.Incomplete, got.Interrupted, got.Stopped, got.StopReason, run.StopReason)
	}
}
