package report

import (
	"testing"

	"github.com/gavelhq/gavel"
	"github.com/gavelhq/gavel/judge"
)

func named(name string, s judge.Status, parts ...judge.Judgment) judge.Judgment {
	return judge.Judgment{Name: name, Status: s, Parts: parts}
}

func TestAspects(t *testing.T) {
	pass, fail := judge.StatusPass, judge.StatusFail
	for _, tc := range []struct {
		name           string
		verdicts       []judge.Judgment
		tools, respond string
	}{
		{"both pass", []judge.Judgment{named("all", pass, named("tool_calls", pass), named("rubric", pass))}, "PASS", "PASS"},
		{"a hard tool failure stops the tiers", []judge.Judgment{named("tiered", fail, named("forbidden_tools cancel_order", fail))}, "FAIL", "-"},
		{"rounds", []judge.Judgment{named("all", fail, named("round 1: expected_tools get_order_status", pass), named("round 2: regex /confirm/", fail))}, "PASS", "FAIL"},
		{"an erring judge says nothing", []judge.Judgment{named("conversation", judge.StatusError)}, "-", "-"},
		{"trials differ", []judge.Judgment{named("tool_calls", pass), named("tool_calls", fail), named("tool_calls", pass)}, "2/3", "-"},
		{"a rule named like a tool rule but not one", []judge.Judgment{named("tool_calls_made_up", pass)}, "-", "PASS"},
		// A composite of one aspect counts as a whole, by its own rule:
		// its failing parts are not the aspect's failure.
		{"any of two response rules, one passing", []judge.Judgment{named("tiered", pass, named("tool_calls", pass),
			judge.Judgment{Name: "any", Composite: judge.CompositeAny, Status: pass, Parts: []judge.Judgment{named(`contains "bye"`, fail), named(`contains "hello"`, pass)}})}, "PASS", "PASS"},
		{"a jury with a failing juror", []judge.Judgment{named("jury", pass, named("juror 1", pass), named("juror 2", fail), named("juror 3", pass))}, "-", "PASS"},
		{"a soft rule's finding", []judge.Judgment{named("all", pass, named("rubric", pass),
			judge.Judgment{Name: "regex /sorry/", Composite: judge.CompositeSoft, Status: pass, Parts: []judge.Judgment{named("regex /sorry/", fail)}})}, "-", "PASS"},
		{"forbidden tool calls are a tool check", []judge.Judgment{named("all", fail, named("forbidden_tool_calls cancel_order(order_id: 1)", fail), named("rubric", pass))}, "FAIL", "PASS"},
		{"an erring composite's judged parts still count", []judge.Judgment{named("tiered", judge.StatusError, named("tool_calls", pass), named("judge_prompt", judge.StatusError))}, "PASS", "-"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var trials []gavel.Trial
			for _, v := range tc.verdicts {
				trials = append(trials, gavel.Trial{Verdict: v})
			}
			g := gradeAspects(trials)
			if tools, respond := grade(g.toolsRan, g.toolsPassed), grade(g.responseRan, g.responsePassed); tools != tc.tools || respond != tc.respond {
				t.Errorf("tools %s, response %s; want %s, %s", tools, respond, tc.tools, tc.respond)
			}
		})
	}
}
