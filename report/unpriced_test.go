package report

import (
	"strings"
	"testing"

	"github.com/gavelhq/gavel"
	"github.com/gavelhq/gavel/judge"
)

// unpricedRun is a run whose judge ran on a model without a price: what
// it cost is unknown, and the follow-up detector spent tokens of its own.
func unpricedRun(t *testing.T) *gavel.Run {
	t.Helper()
	usage := gavel.RoleUsage{
		Agent:    judge.Usage{InputTokens: 1200, OutputTokens: 150, CostUSD: 0.0042},
		Judge:    judge.Usage{InputTokens: 800, OutputTokens: 60, Unpriced: true},
		FollowUp: judge.Usage{InputTokens: 400, OutputTokens: 27, Unpriced: true},
	}
	run := &gavel.Run{
		Suite: &gavel.Suite{Name: "support-desk", Threshold: 1},
		Cases: []gavel.CaseResult{{Case: &gavel.Case{ID: "case_001"}, Trials: []gavel.Trial{
			{CaseID: "case_001", N: 1, Verdict: judge.Verdict(false, "wrong date"), Usage: usage,
				Transcript: &judge.Transcript{Goal: "where is my order?", Status: judge.ExecSuccess}},
		}}},
		Models: map[string]judge.Usage{
			"claude-sonnet-4-5": {InputTokens: 1200, OutputTokens: 150, CostUSD: 0.0042},
			"my-judge":          {InputTokens: 1200, OutputTokens: 87, Unpriced: true},
		},
	}
	run.Cases[0].Summarize()
	return run
}

// A cost that includes a model without a price is never shown as a plain
// amount: it is a lower bound ("$0.0042 + unpriced"), or "unpriced" when
// nothing of it was priced, and the report names the model and says how
// to price it. The follow-up detector is a role of its own.
func TestUnpricedCostsAreNotShownAsAmounts(t *testing.T) {
	run := unpricedRun(t)
	for _, tt := range []struct {
		format Format
		want   []string
	}{
		{Text, []string{
			"Cost: $0.0042 + unpriced (agent $0.0042, judge unpriced, follow-up unpriced)",
			"Tokens: 2,637 (agent 1,350, judge 860, follow-up 427)",
			"my-judge          | 1,287  | unpriced",
			"Unpriced: my-judge has no price",
			"prices:",
			"--prices",
		}},
		{Markdown, []string{"\\$0.0042 + unpriced", "follow-up", "| my-judge | 1,287 | unpriced |", "Unpriced: my-judge has no price"}},
		{HTML, []string{"$0.0042 &#43; unpriced", "follow-up unpriced", `<td class="num">unpriced</td>`, "Unpriced: my-judge has no price"}},
		{JSON, []string{`"unpriced": true`, `"followup": {`}},
		{JUnit, []string{`<property name="cost_unpriced" value="true"></property>`}},
	} {
		t.Run(string(tt.format), func(t *testing.T) {
			out := write(t, tt.format, run, Options{})
			for _, want := range tt.want {
				if !strings.Contains(out, want) {
					t.Errorf("want %q in:\n%s", want, out)
				}
			}
			if strings.Contains(out, "$0.0000") {
				t.Errorf("an unknown cost shown as $0.0000:\n%s", out)
			}
		})
	}
}

func TestCost(t *testing.T) {
	for _, tt := range []struct {
		usage judge.Usage
		want  string
	}{
		{judge.Usage{CostUSD: 0.0123}, "$0.0123"},
		{judge.Usage{}, "$0.0000"},
		{judge.Usage{CostUSD: 0.0123, Unpriced: true}, "$0.0123 + unpriced"},
		{judge.Usage{InputTokens: 5, Unpriced: true}, "unpriced"},
	} {
		if got := cost(tt.usage); got != tt.want {
			t.Errorf("cost(%+v) = %q, want %q", tt.usage, got, tt.want)
		}
	}
}
