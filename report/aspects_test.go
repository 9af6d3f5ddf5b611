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
