package report

import (
	"strings"
	"testing"

	"github.com/gavelhq/gavel"
	"github.com/gavelhq/gavel/judge"
)

// unreportedRun is a run of two conversations imported from a chat log:
// one whose usage was recorded (412 + 57 tokens, no price), and one
// without any, which spent what nobody knows.
func unreportedRun() *gavel.Run {
	run := unjudgedRun(gavel.StopNotJudged)
	run.Cases[0].Trials[0].Usage.Agent = judge.Usage{InputTokens: 412, OutputTokens: 57, Unpriced: true}
	run.Cases[1].Trials[0].Usage.Agent = judge.Usage{Unreported: true}
	return run
}

// Usage nobody reported is never shown as 0 tokens or $0.0000: the
// totals that include it are lower bounds ("469 + unreported"), a case
// that spent only that says "unreported", and every report says why.
func TestUnreportedUsageIsNotZero(t *testing.T) {
	note := "Unreported: the agent did not report what some of its replies spent (an http or exec agent that gives no token count, a conversation imported without usage), so the tokens and costs that include them are lower bounds."
	for _, tc := range []struct {
		format     Format
		want, lack []string
	}{
		{Text, []string{
			"Tokens: 469 + unreported (agent 469 + unreported)",
			"Cost: unpriced + unreported (agent unpriced + unreported)",
			"chat-2 | -     | -        | SKIPPED | not judged | -     | unreported",
			note,
		}, []string{"$0.0000", "Tokens: 469 ("}},
		{Markdown, []string{"469 + unreported tokens", "| unreported |", note}, []string{"\\$0.0000"}},
		{HTML, []string{"469 &#43; unreported tokens", `<td class="num">unreported</td>`, note}, []string{"$0.0000"}},
		{JSON, []string{`"unreported": true`}, nil},
		{JUnit, []string{`<property name="usage_unreported" value="true"></property>`}, nil},
	} {
		t.Run(string(tc.format), func(t *testing.T) {
			out := write(t, tc.format, unreportedRun(), Options{})
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
	var b strings.Builder
	if err := WriteCase(&b, &unreportedRun().Cases[1]); err != nil {
		t.Fatal(err)
	}
	if out := b.String(); !strings.Contains(out, "Tokens:   unreported (agent unreported)") || !strings.Contains(out, "Cost:     unreported") {
		t.Errorf("gavel show RUN CASE: want the usage unreported:\n%s", out)
	}
}

func TestTokensAndCostOfUsage(t *testing.T) {
	for _, tt := range []struct {
		usage        judge.Usage
		tokens, cost string
	}{
		{judge.Usage{InputTokens: 1000, OutputTokens: 234, CostUSD: 0.0123}, "1,234", "$0.0123"},
		{judge.Usage{}, "0", "$0.0000"},
		{judge.Usage{Unreported: true}, "unreported", "unreported"},
		{judge.Usage{InputTokens: 400, CostUSD: 0.001, Unreported: true}, "400 + unreported", "$0.0010 + unreported"},
		{judge.Usage{InputTokens: 400, Unpriced: true, Unreported: true}, "400 + unreported", "unpriced + unreported"},
		{judge.Usage{InputTokens: 400, CostUSD: 0.001, Unpriced: true, Unreported: true}, "400 + unreported", "$0.0010 + unpriced + unreported"},
	} {
		if got := tokens(tt.usage); got != tt.tokens {
			t.Errorf("tokens(%+v) = %q, want %q", tt.usage, got, tt.tokens)
		}
		if got := cost(tt.usage); got != tt.cost {
			t.Errorf("cost(%+v) = %q, want %q", tt.usage, got, tt.cost)
		}
	}
}
