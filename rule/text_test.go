package rule_test

import (
	"testing"

	"github.com/gavelhq/gavel/judge"
	"github.com/gavelhq/gavel/rule"
)

func TestTextRules(t *testing.T) {
	pass, fail := judge.StatusPass, judge.StatusFail
	order := conversation("Your order 12345 has shipped and arrives on 2026-03-15.")
	two := conversation("Which order do you mean?", "Order 12345 has shipped.")
	fold := rule.Opts{IgnoreCase: true}
	not := rule.Opts{Negate: true}
	each := rule.Opts{Scope: rule.EachTurn}

	runVerdictCases(t, []verdictCase{
		{"contains", func() (judge.Judge, error) { return rule.Contains("shipped", rule.Opts{}) }, order, pass, `final response does contain "shipped"`},
		{"contains misses", func() (judge.Judge, error) { return rule.Contains("refund", rule.Opts{}) }, order, fail, `final response does not contain "refund" (got "Your order`},
		{"contains is case-sensitive", func() (judge.Judge, error) { return rule.Contains("SHIPPED", rule.Opts{}) }, order, fail, ""},
		{"contains folds case", func() (judge.Judge, error) { return rule.Contains("SHIPPED", fold) }, order, pass, ""},
		{"not contains", func() (judge.Judge, error) { return rule.Contains("sorry", not) }, order, pass, `does not contain "sorry"`},
		{"not contains fails", func() (judge.Judge, error) { return rule.Contains("shipped", not) }, order, fail, `must not contain "shipped", but does`},
		{"contains all names the missing", func() (judge.Judge, error) {
			return rule.ContainsAll([]string{"12345", "refund", "2026-03-15", "apology"}, rule.Opts{})
		}, order, fail, `missing "refund", "apology"`},
		{"contains all", func() (judge.Judge, error) { return rule.ContainsAll([]string{"12345", "2026-03-15"}, rule.Opts{}) }, order, pass, ""},
		{"contains any", func() (judge.Judge, error) { return rule.ContainsAny([]string{"refund", "shipped"}, rule.Opts{}) }, order, pass, `found "shipped"`},
		{"contains any misses", func() (judge.Judge, error) { return rule.ContainsAny([]string{"refund", "cancel"}, rule.Opts{}) }, order, fail, ""},
		{"not contains any", func() (judge.Judge, error) { return rule.ContainsAny([]string{"sorry", "apologise"}, not) }, order, pass, ""},
		{"equals ignores surrounding space", func() (judge.Judge, error) { return rule.Equals("yes", rule.Opts{}) }, conversation("  yes\n"), pass, ""},
		{"equals", func() (judge.Judge, error) { return rule.Equals("yes", rule.Opts{}) }, conversation("yes please"), fail, `does not equal "yes"`},
		{"equals folds case", func() (judge.Judge, error) { return rule.Equals("YES", fold) }, conversation("yes"), pass, ""},
		{"regex", func() (judge.Judge, error) { return rule.Regex(`\d{4}-\d{2}-\d{2}`, rule.Opts{}) }, order, pass, `matched "2026-03-15"`},
		{"regex misses", func() (judge.Judge, error) { return rule.Regex(`refund #\d+`, rule.Opts{}) }, order, fail, "does not match /refund #\\d+/"},
		{"regex folds case", func() (judge.Judge, error) { return rule.Regex(`YOUR ORDER`, fold) }, order, pass, ""},
		{"not regex", func() (judge.Judge, error) { return rule.Regex(`(?i)sorry`, not) }, order, pass, ""},
		{"starts with", func() (judge.Judge, error) { return rule.StartsWith("Your order", rule.Opts{}) }, order, pass, ""},
		{"starts with misses", func() (judge.Judge, error) { return rule.StartsWith("Hello", rule.Opts{}) }, order, fail, `does not start with "Hello"`},
		{"final scope reads the last agent turn", func() (judge.Judge, error) { return rule.Contains("?", rule.Opts{}) }, two, fail, ""},
		{"each turn checks every agent turn", func() (judge.Judge, error) { return rule.Contains("?", each) }, two, fail, `turn 4 does not contain "?"`},
		{"each turn negated", func() (judge.Judge, error) { return rule.Contains("?", rule.Opts{Scope: rule.EachTurn, Negate: true}) }, two, fail, `turn 2 must not contain "?"`},
		{"each turn all pass", func() (judge.Judge, error) { return rule.Contains("rder", each) }, two, pass, "all 2 agent turns pass"},
		{"final response field wins", func() (judge.Judge, error) { return rule.Contains("final", rule.Opts{}) }, &judge.Transcript{FinalResponse: "the final word", Turns: two.Turns}, pass, ""},
		{"empty transcript fails", func() (judge.Judge, error) { return rule.Contains("sorry", not) }, &judge.Transcript{}, fail, "the transcript is empty"},
		{"nil transcript fails", func() (judge.Judge, error) { return rule.Contains("x", rule.Opts{}) }, nil, fail, "the transcript is empty"},
	})
}

func TestTextRulesRefuseBadConfiguration(t *testing.T) {
	runBuildErrorCases(t, []buildErrorCase{
		{"invalid regex", func() (judge.Judge, error) { return rule.Regex(`(unclosed`, rule.Opts{}) }, "missing closing )"},
		{"empty substring", func() (judge.Judge, error) { return rule.Contains("", rule.Opts{}) }, "empty: it would match anything"},
		{"no substrings", func() (judge.Judge, error) { return rule.ContainsAny(nil, rule.Opts{}) }, "no text to look for"},
		{"empty prefix", func() (judge.Judge, error) { return rule.StartsWith("", rule.Opts{}) }, "prefix is empty"},
		{"unknown scope", func() (judge.Judge, error) { return rule.Contains("x", rule.Opts{Scope: "every_turn"}) }, `unknown scope "every_turn"`},
	})
}

func TestTextRuleNames(t *testing.T) {
	tests := []struct {
		build func() (judge.Judge, error)
		want  string
	}{
		{func() (judge.Judge, error) { return rule.Contains("refund", rule.Opts{}) }, `contains "refund"`},
		{func() (judge.Judge, error) { return rule.Contains("sorry", rule.Opts{Negate: true}) }, `not contains "sorry"`},
		{func() (judge.Judge, error) { return rule.ContainsAll([]string{"a", "b"}, rule.Opts{}) }, `contains_all "a", "b"`},
		{func() (judge.Judge, error) { return rule.Regex(`\d+`, rule.Opts{}) }, `regex /\d+/`},
	}
	for _, tt := range tests {
		j, err := tt.build()
		if err != nil {
			t.Fatal(err)
		}
		if got := judge.Run(t.Context(), j, conversation("x")).Name; got != tt.want {
			t.Errorf("name = %q, want %q", got, tt.want)
		}
	}
}
