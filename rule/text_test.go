package rule_test

import (
	"testing"

	"github.com/gavelhq/gavel/judge"
	"github.com/gavelhq/gavel/judge/judgetest"
	"github.com/gavelhq/gavel/rule"
)

func TestTextRules(t *testing.T) {
	pass, fail := judge.StatusPass, judge.StatusFail
	order := conversation("Your order 12345 has shipped and arrives on 2026-03-15.")
	two := conversation("Which order do you mean?", "Order 12345 has shipped.")
	fold := rule.Opts{IgnoreCase: true}
	not := rule.Opts{Negate: true}
	each := rule.Opts{Scope: rule.EachTurn}

	judgetest.RunCases(t, []judgetest.Case{
		{Name: "contains", Build: func() (judge.Judge, error) { return rule.Contains("shipped", rule.Opts{}) }, Transcript: order, WantStatus: pass, WantIn: []string{`final response does contain "shipped"`}},
		{Name: "contains misses", Build: func() (judge.Judge, error) { return rule.Contains("refund", rule.Opts{}) }, Transcript: order, WantStatus: fail, WantIn: []string{`final response does not contain "refund" (got "Your order`}},
		{Name: "contains is case-sensitive", Build: func() (judge.Judge, error) { return rule.Contains("SHIPPED", rule.Opts{}) }, Transcript: order, WantStatus: fail},
		{Name: "contains folds case", Build: func() (judge.Judge, error) { return rule.Contains("SHIPPED", fold) }, Transcript: order, WantStatus: pass},
		{Name: "not contains", Build: func() (judge.Judge, error) { return rule.Contains("sorry", not) }, Transcript: order, WantStatus: pass, WantIn: []string{`does not contain "sorry"`}},
		{Name: "not contains fails", Build: func() (judge.Judge, error) { return rule.Contains("shipped", not) }, Transcript: order, WantStatus: fail, WantIn: []string{`must not contain "shipped", but does`}},
		{Name: "contains all names the missing", Build: func() (judge.Judge, error) {
			return rule.ContainsAll([]string{"12345", "refund", "2026-03-15", "apology"}, rule.Opts{})
		}, Transcript: order, WantStatus: fail, WantIn: []string{`missing "refund", "apology"`}},
		{Name: "contains all", Build: func() (judge.Judge, error) { return rule.ContainsAll([]string{"12345", "2026-03-15"}, rule.Opts{}) }, Transcript: order, WantStatus: pass},
		{Name: "contains any", Build: func() (judge.Judge, error) { return rule.ContainsAny([]string{"refund", "shipped"}, rule.Opts{}) }, Transcript: order, WantStatus: pass, WantIn: []string{`found "shipped"`}},
		{Name: "contains any misses", Build: func() (judge.Judge, error) { return rule.ContainsAny([]string{"refund", "cancel"}, rule.Opts{}) }, Transcript: order, WantStatus: fail},
		{Name: "not contains any", Build: func() (judge.Judge, error) { return rule.ContainsAny([]string{"sorry", "apologise"}, not) }, Transcript: order, WantStatus: pass},
		{Name: "equals ignores surrounding space", Build: func() (judge.Judge, error) { return rule.Equals("yes", rule.Opts{}) }, Transcript: conversation("  yes\n"), WantStatus: pass},
		{Name: "equals", Build: func() (judge.Judge, error) { return rule.Equals("yes", rule.Opts{}) }, Transcript: conversation("yes please"), WantStatus: fail, WantIn: []string{`does not equal "yes"`}},
		{Name: "equals folds case", Build: func() (judge.Judge, error) { return rule.Equals("YES", fold) }, Transcript: conversation("yes"), WantStatus: pass},
		{Name: "regex", Build: func() (judge.Judge, error) { return rule.Regex(`\d{4}-\d{2}-\d{2}`, rule.Opts{}) }, Transcript: order, WantStatus: pass, WantIn: []string{`matched "2026-03-15"`}},
		{Name: "regex misses", Build: func() (judge.Judge, error) { return rule.Regex(`refund #\d+`, rule.Opts{}) }, Transcript: order, WantStatus: fail, WantIn: []string{"does not match /refund #\\d+/"}},
		{Name: "regex folds case", Build: func() (judge.Judge, error) { return rule.Regex(`YOUR ORDER`, fold) }, Transcript: order, WantStatus: pass},
		{Name: "not regex", Build: func() (judge.Judge, error) { return rule.Regex(`(?i)sorry`, not) }, Transcript: order, WantStatus: pass},
		{Name: "starts with", Build: func() (judge.Judge, error) { return rule.StartsWith("Your order", rule.Opts{}) }, Transcript: order, WantStatus: pass},
		{Name: "starts with is case-sensitive", Build: func() (judge.Judge, error) { return rule.StartsWith("YOUR ORDER", rule.Opts{}) }, Transcript: order, WantStatus: fail},
		{Name: "starts with folds case", Build: func() (judge.Judge, error) { return rule.StartsWith("YOUR ORDER", fold) }, Transcript: order, WantStatus: pass},
		{Name: "starts with misses", Build: func() (judge.Judge, error) { return rule.StartsWith("Hello", rule.Opts{}) }, Transcript: order, WantStatus: fail, WantIn: []string{`does not start with "Hello"`}},
		{Name: "final scope reads the last agent turn", Build: func() (judge.Judge, error) { return rule.Contains("?", rule.Opts{}) }, Transcript: two, WantStatus: fail},
		{Name: "each turn checks every agent turn", Build: func() (judge.Judge, error) { return rule.Contains("?", each) }, Transcript: two, WantStatus: fail, WantIn: []string{`turn 4 does not contain "?"`}},
		{Name: "each turn negated", Build: func() (judge.Judge, error) { return rule.Contains("?", rule.Opts{Scope: rule.EachTurn, Negate: true}) }, Transcript: two, WantStatus: fail, WantIn: []string{`turn 2 must not contain "?"`}},
		{Name: "each turn all pass", Build: func() (judge.Judge, error) { return rule.Contains("rder", each) }, Transcript: two, WantStatus: pass, WantIn: []string{"all 2 agent turns pass"}},
		{Name: "final response field wins", Build: func() (judge.Judge, error) { return rule.Contains("final", rule.Opts{}) }, Transcript: &judge.Transcript{FinalResponse: "the final word", Turns: two.Turns}, WantStatus: pass},
		{Name: "empty transcript fails", Build: func() (judge.Judge, error) { return rule.Contains("sorry", not) }, Transcript: &judge.Transcript{}, WantStatus: fail, WantIn: []string{"the transcript is empty"}},
		{Name: "nil transcript fails", Build: func() (judge.Judge, error) { return rule.Contains("x", rule.Opts{}) }, Transcript: nil, WantStatus: fail, WantIn: []string{"the transcript is empty"}},
	})
}

func TestTextRulesRefuseBadConfiguration(t *testing.T) {
	judgetest.RunBuildErrorCases(t, []judgetest.BuildErrorCase{
		{Name: "invalid regex", Build: func() (judge.Judge, error) { return rule.Regex(`(unclosed`, rule.Opts{}) }, WantErr: "missing closing )"},
		{Name: "empty substring", Build: func() (judge.Judge, error) { return rule.Contains("", rule.Opts{}) }, WantErr: "empty: it would match anything"},
		{Name: "no substrings", Build: func() (judge.Judge, error) { return rule.ContainsAny(nil, rule.Opts{}) }, WantErr: "no text to look for"},
		{Name: "empty prefix", Build: func() (judge.Judge, error) { return rule.StartsWith("", rule.Opts{}) }, WantErr: "prefix is empty"},
		{Name: "unknown scope", Build: func() (judge.Judge, error) { return rule.Contains("x", rule.Opts{Scope: "every_turn"}) }, WantErr: `unknown scope "every_turn"`},
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
