package report

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/gavelhq/gavel"
	"github.com/gavelhq/gavel/judge"
)

func TestBreakdowns(t *testing.T) {
	tests := []struct {
		name  string
		stats gavel.Stats
		want  []breakdown
	}{
		{name: "nothing to break down"},
		{
			name: "criteria",
			stats: gavel.Stats{Criteria: []gavel.CriterionStat{
				{Name: "accuracy", Count: 12, Mean: 0.8125, Min: 1.0 / 3},
				{Name: "tone", Count: 3, Mean: 1, Min: 1},
			}},
			want: []breakdown{{
				header: []string{"criterion", "scores", "mean", "min"},
				rows:   [][]string{{"accuracy", "12", "0.81", "0.33"}, {"tone", "3", "1.00", "1.00"}},
			}},
		},
		{
			name: "models in name order, after the criteria",
			stats: gavel.Stats{
				Criteria: []gavel.CriterionStat{{Name: "tone", Count: 1, Mean: 0.5, Min: 0.5}},
				Models: map[string]judge.Usage{
					"openai:gpt-5-mini":           {InputTokens: 12000, OutputTokens: 345, CostUSD: 0.00369},
					"anthropic:claude-sonnet-4-5": {InputTokens: 1000, OutputTokens: 200, CostUSD: 0.006},
				},
			},
			want: []breakdown{
				{header: []string{"criterion", "scores", "mean", "min"}, rows: [][]string{{"tone", "1", "0.50", "0.50"}}},
				{header: []string{"model", "tokens", "cost"}, rows: [][]string{
					{"anthropic:claude-sonnet-4-5", "1,200", "$0.0060"},
					{"openai:gpt-5-mini", "12,345", "$0.0037"},
				}},
			},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := breakdowns(tc.stats)
			if diff := cmp.Diff(tc.want, got, cmp.AllowUnexported(breakdown{})); diff != "" {
				t.Errorf("breakdowns (-want +got):\n%s", diff)
			}
		})
	}
}

// hostileNames is a run whose criterion and model names, which come from
// suite files and meters, hold markup, pipes and escape sequences.
func hostileNames(t *testing.T) *gavel.Run {
	t.Helper()
	verdict := judge.Judgment{Name: "<b>bold</b> | *tone* \x1b[31m", Status: judge.StatusPass, Score: mustNumber(8, 1, 10)}
	run := &gavel.Run{
		Cases:  []gavel.CaseResult{{Case: &gavel.Case{ID: "a"}, Trials: []gavel.Trial{{N: 1, Verdict: verdict}}}},
		Models: map[string]judge.Usage{"<i>evil</i>|model\x00": {InputTokens: 10, CostUSD: 0.5}},
	}
	run.Cases[0].Summarize()
	return run
}

// Every report but JSON shows the breakdowns, names escaped for it.
func TestBreakdownsInReports(t *testing.T) {
	run := hostileNames(t)

	text := write(t, Text, run, Options{})
	for _, want := range []string{
		"criterion                 | scores | mean | min\n",
		"<b>bold</b> | *tone* [31m | 1      | 0.78 | 0.78\n",
		"<i>evil</i>|model | 10     | $0.5000\n",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("text: want %q in:\n%s", want, text)
		}
	}
	if strings.ContainsAny(text, "\x00\x1b") {
		t.Errorf("text: control characters came through:\n%q", text)
	}

	md := write(t, Markdown, run, Options{})
	for _, want := range []string{
		"| &lt;b&gt;bold&lt;/b&gt; \\| \\*tone\\* \\[31m | 1 | 0.78 | 0.78 |\n",
		"| &lt;i&gt;evil&lt;/i&gt;\\|model | 10 | \\$0.5000 |\n",
	} {
		if !strings.Contains(md, want) {
			t.Errorf("markdown: want %q in:\n%s", want, md)
		}
	}
	checkTables(t, md)

	page := write(t, HTML, run, Options{})
	for _, want := range []string{
		"<td>&lt;b&gt;bold&lt;/b&gt; | *tone* [31m</td>",
		"<td>&lt;i&gt;evil&lt;/i&gt;|model</td>",
	} {
		if !strings.Contains(page, want) {
			t.Errorf("html: want %q in:\n%s", want, page)
		}
	}
	if strings.Contains(page, "<b>") || strings.Contains(page, "<i>") || strings.ContainsAny(page, "\x00\x1b") {
		t.Errorf("html: a name came through unescaped:\n%s", page)
	}
}

// A run with no criterion and no usage by model shows no breakdown.
func TestNoBreakdowns(t *testing.T) {
	run := &gavel.Run{Cases: []gavel.CaseResult{{Case: &gavel.Case{ID: "a"},
		Trials: []gavel.Trial{{N: 1, Verdict: judge.Verdict(true, "ok")}}}}}
	run.Cases[0].Summarize()
	for _, f := range []Format{Text, Markdown, HTML} {
		out := strings.ToLower(write(t, f, run, Options{}))
		if strings.Contains(out, "criterion") || strings.Contains(out, "tokens | cost") || strings.Contains(out, `class="breakdown"`) {
			t.Errorf("%s: a breakdown without rows:\n%s", f, out)
		}
	}
}

// The summaries name the flaky cases.
func TestFlakyListed(t *testing.T) {
	run := fixture(t)
	wants := map[Format]string{
		Text:     "Flaky: case_004 (2 of 3 trials passed)\n",
		Markdown: "⚠️ Flaky: case\\_004 (2 of 3 trials passed)\n",
		HTML:     "<p>Flaky: case_004 (2 of 3 trials passed)</p>",
	}
	for f, want := range wants {
		if out := write(t, f, run, Options{}); !strings.Contains(out, want) {
			t.Errorf("%s: want %q in:\n%s", f, want, out)
		}
	}
}
