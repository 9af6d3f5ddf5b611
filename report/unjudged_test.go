package report

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/gavelhq/gavel"
	"github.com/gavelhq/gavel/judge"
)

// unjudgedRun is a run of conversations imported without verdicts (gavel
// import): each trial's verdict abstains, each case is skipped, and no
// pass rate can be told. With stopped "" it is a complete run in which
// nothing was judged all the same.
func unjudgedRun(stopped gavel.StopCause) *gavel.Run {
	notJudged := judge.Judgment{Name: "not judged", Status: judge.StatusAbstain, Reasoning: "imported from chats.jsonl without a verdict"}
	var cases []*gavel.Case
	var results []gavel.CaseResult
	for _, id := range []string{"chat-1", "chat-2"} {
		c := &gavel.Case{ID: id, Script: prompts("where is my order?")}
		cases = append(cases, c)
		results = append(results, gavel.CaseResult{Case: c, Outcome: gavel.Skipped, SkipReason: "not judged yet: imported without a verdict",
			Trials: []gavel.Trial{{CaseID: id, N: 1, Verdict: notJudged,
				Usage:      gavel.RoleUsage{Agent: judge.Usage{InputTokens: 400, OutputTokens: 50, CostUSD: 0.001}},
				Transcript: &judge.Transcript{Status: judge.ExecSuccess, FinalResponse: "It ships today."}}}})
	}
	run := &gavel.Run{Suite: &gavel.Suite{Name: "imported", Threshold: 0.8, Cases: cases}, Cases: results, Started: start, Stopped: stopped}
	if stopped != "" {
		run.StopReason = "imported from chats.jsonl without verdicts: gavel rejudge judges it"
	}
	return run
}

// A run in which nothing was judged has no pass rate, and no report
// gives it one: not 0%, not 0 trials of 1 passed; the JSON report's
// pass rates are null, JUnit has no pass_rate property, and a complete
// run of that kind is no PASS.
func TestUnjudgedRunHasNoPassRate(t *testing.T) {
	for _, tc := range []struct {
		name       string
		stopped    gavel.StopCause
		format     Format
		want, lack []string
	}{
		{"text", gavel.StopNotJudged, Text,
			[]string{"Pass rate: unknown: no trial was judged (2 skipped)", "chat-1 | -     | -        | SKIPPED | not judged"},
			[]string{"Pass rate: 0%", "0/1", "pass^k"}},
		{"text, complete", "", Text,
			[]string{"Pass rate: unknown: no trial was judged (2 skipped)", "Threshold: 80% -> overall FAIL", "Nothing was judged: a run without a pass rate does not pass."},
			[]string{"Pass rate: 0%", "overall PASS"}},
		{"markdown", gavel.StopNotJudged, Markdown,
			[]string{"Pass rate **unknown** (no trial was judged) against a threshold of **80%**", "| not judged |"},
			[]string{"**0%**", "0/1"}},
		{"html", gavel.StopNotJudged, HTML,
			[]string{"<strong>Pass rate unknown</strong> (no trial was judged) against a threshold of 80%", `<td class="num">not judged</td>`},
			[]string{"Pass rate 0%", "0/1"}},
		{"junit", gavel.StopNotJudged, JUnit, []string{`<property name="passed" value="false">`}, []string{`name="pass_rate"`}},
		{"junit, complete", "", JUnit,
			[]string{`<property name="passed" value="false">`, `name="gavel: nothing was judged"`, `<failure type="NOT JUDGED"`},
			[]string{`name="pass_rate"`}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out := write(t, tc.format, unjudgedRun(tc.stopped), Options{})
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
		})
	}

	t.Run("case", func(t *testing.T) {
		var b strings.Builder
		if err := WriteCase(&b, &unjudgedRun("").Cases[0]); err != nil {
			t.Fatal(err)
		}
		if out := b.String(); !strings.Contains(out, "Trials:   1, not judged") || strings.Contains(out, "0 of 1 passed") {
			t.Errorf("want the trial not judged, not 0 of 1 passed:\n%s", out)
		}
	})

	t.Run("json", func(t *testing.T) {
		var got struct {
			Passed bool `json:"passed"`
			Stats  map[string]json.RawMessage
			Cases  []map[string]json.RawMessage
		}
		if err := json.Unmarshal([]byte(write(t, JSON, unjudgedRun(""), Options{})), &got); err != nil {
			t.Fatal(err)
		}
		if got.Passed {
			t.Error("passed: true, want false")
		}
		if rate := string(got.Stats["pass_rate"]); rate != "null" {
			t.Errorf("stats.pass_rate = %s, want null", rate)
		}
		for _, k := range []string{"pass_at_k", "pass_hat_k"} {
			if v, ok := got.Stats[k]; ok {
				t.Errorf("stats.%s = %s, want it left out", k, v)
			}
		}
		for _, c := range got.Cases {
			if rate := string(c["pass_rate"]); rate != "null" {
				t.Errorf("case %s: pass_rate = %s, want null", c["id"], rate)
			}
		}
	})
}

// A comparison with a run in which nothing was judged has no pass rate
// for that run, and no change of pass rate: unknown, not 0%, not a drop
// of 60 points.
func TestComparisonOfUnjudgedRun(t *testing.T) {
	c := gavel.Compare(unjudgedRun(gavel.StopNotJudged), fixture(t))
	for _, tc := range []struct {
		format     Format
		want, lack []string
	}{
		{Text, []string{"Pass rate: unknown -> 27.8% (change unknown)", "SKIPPED not judged"}, []string{"0% ->", "points", "0/1 | -"}},
		{Markdown, []string{"Pass rate unknown → 27.8% (change unknown)"}, []string{"0% →", "points"}},
		{HTML, []string{"Pass rate unknown → 27.8% (change unknown)"}, []string{"0% →", "points"}},
	} {
		t.Run(string(tc.format), func(t *testing.T) {
			out := writeComparison(t, tc.format, c, ComparisonOptions{})
			for _, w := range tc.want {
				if !strings.Contains(out, w) {
					t.Errorf("the comparison lacks %q:\n%s", w, out)
				}
			}
			for _, l := range tc.lack {
				if strings.Contains(out, l) {
					t.Errorf("the comparison has %q:\n%s", l, out)
				}
			}
		})
	}
	t.Run("json", func(t *testing.T) {
		var got map[string]json.RawMessage
		if err := json.Unmarshal([]byte(writeComparison(t, JSON, c, ComparisonOptions{})), &got); err != nil {
			t.Fatal(err)
		}
		var base map[string]json.RawMessage
		if err := json.Unmarshal(got["base"], &base); err != nil {
			t.Fatal(err)
		}
		if rate := string(base["pass_rate"]); rate != "null" {
			t.Errorf("base.pass_rate = %s, want null", rate)
		}
		if d, ok := got["pass_rate_delta"]; ok {
			t.Errorf("pass_rate_delta = %s, want it left out", d)
		}
	})
}
