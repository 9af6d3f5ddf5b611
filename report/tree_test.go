package report

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/gavelhq/gavel/judge"
)

// The judgments of a verdict's tree, as the judges make them.
var (
	treeRule  = judge.Judgment{Name: "forbidden_tools", Status: judge.StatusPass, Score: judge.Bool(true)}
	treeRule2 = judge.Judgment{Name: "contains refund", Status: judge.StatusPass, Score: judge.Bool(true)}
	treeModel = judge.Judgment{Name: "tone", Status: judge.StatusPass, Score: judge.Unit(0.9), Prompt: "a1b2c3"}
	treeJury  = judge.Judgment{Name: "panel", Status: judge.StatusPass, DecidedBy: "majority (tie: fail)",
		Parts: []judge.Judgment{treeModel, treeModel, treeModel}}
	treeRules  = judge.Judgment{Name: "all", Composite: judge.CompositeAll, Status: judge.StatusPass, Parts: []judge.Judgment{treeRule, treeRule2}}
	treeModels = judge.Judgment{Name: "all", Composite: judge.CompositeAll, Status: judge.StatusPass, Parts: []judge.Judgment{treeModel, treeJury}}
)

func TestDescribe(t *testing.T) {
	for _, tc := range []struct {
		name string
		j    judge.Judgment
		want Node
	}{
		{"a rule", treeRule, Node{Words: "forbidden_tools", Kind: "a rule"}},
		{"a model judge", treeModel, Node{Words: "tone", Kind: "a model judge"}},
		{"a verdict with no name", judge.Judgment{Status: judge.StatusError}, Node{Words: "verdict"}},
		{"all", treeRules, Node{Words: "All of these must pass", Technical: "all"}},
		{"an all with a name of its own", judge.Judgment{Name: "safety", Composite: judge.CompositeAll, Parts: []judge.Judgment{treeRule}},
			Node{Words: "safety", Kind: "all of these must pass", Technical: "all"}},
		{"any", judge.Judgment{Name: "any", Composite: judge.CompositeAny, Parts: []judge.Judgment{treeRule}},
			Node{Words: "Any one of these passing is enough", Technical: "any"}},
		{"not", judge.Judgment{Name: "not contains refund", Composite: judge.CompositeNot, Parts: []judge.Judgment{treeRule2}},
			Node{Words: "Passes when the judge below fails", Technical: "not"}},
		{"soft", judge.Judgment{Name: "max_bubbles 2", Composite: judge.CompositeSoft, Status: judge.StatusPass, Parts: []judge.Judgment{treeRule}},
			Node{Words: "max_bubbles 2", Kind: "a soft check: its failure is noted for the judges after it, and fails nothing", Technical: "soft"}},
		{"weighted", judge.Judgment{Name: "weighted", Parts: []judge.Judgment{treeRule, treeModel}, Threshold: judge.AtLeast(0.8, 0.7)},
			Node{Words: "The weighted mean of these scores must reach its threshold", Technical: "weighted"}},
		{"a jury", treeJury, Node{Words: "panel", Kind: "a jury of 3: the majority of the jurors decides", Technical: "jury, majority (tie: fail)"}},
		{"each turn", judge.Judgment{Name: "each turn", Composite: judge.CompositeAll, Parts: []judge.Judgment{{Name: "turn 1", Status: judge.StatusPass}}},
			Node{Words: "Every turn must pass", Technical: "each turn"}},
		{"an all in a round", judge.Judgment{Name: "round 2: all", Composite: judge.CompositeAll, Parts: []judge.Judgment{treeRule}},
			Node{Words: "Round 2: All of these must pass", Technical: "all"}},
		{"the rules, then the model judges", judge.Judgment{Name: "tiered", Composite: judge.CompositeAll, Parts: []judge.Judgment{treeRules, treeModels}},
			Node{Words: "The rules first, then the model judges, each only when the one before it passed", Technical: "tiered"}},
		{"tiers stopped by the rules", judge.Judgment{Name: "tiered", Composite: judge.CompositeAll, DecidedBy: "tier 1", Status: judge.StatusFail, Parts: []judge.Judgment{treeRules}},
			Node{Words: "The rules first, then the later tiers, each only when the one before it passed",
				Note: "tier 1 did not pass, so the tiers after it did not run", Technical: "tiered"}},
		{"tiers of both kinds", judge.Judgment{Name: "tiered", Composite: judge.CompositeAll, Parts: []judge.Judgment{treeModels, {Name: "all", Composite: judge.CompositeAll, Parts: []judge.Judgment{treeRule, treeModel}}}},
			Node{Words: "The model judges first, then tier 2, each only when the one before it passed", Technical: "tiered"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if diff := cmp.Diff(tc.want, Describe(tc.j)); diff != "" {
				t.Errorf("Describe (-want +got):\n%s", diff)
			}
		})
	}
}

// The parts of a tiered judgment say which tier each is and, when its
// judges tell, what it holds; a judge that errored does not tell.
func TestDescribeParts(t *testing.T) {
	errored := judge.Judgment{Name: "run_tests", Status: judge.StatusError}
	tiered := judge.Judgment{Name: "tiered", Composite: judge.CompositeAll, Parts: []judge.Judgment{
		treeRules, treeModel, {Name: "all", Composite: judge.CompositeAll, Parts: []judge.Judgment{treeRule, errored}},
	}}
	want := []Node{
		{Words: "The rules: all of these must pass", Technical: "all · tier 1"},
		{Words: "tone", Kind: "a model judge", Technical: "tier 2, the model judges"},
		{Words: "All of these must pass", Technical: "all · tier 3"},
	}
	if diff := cmp.Diff(want, DescribeParts(tiered)); diff != "" {
		t.Errorf("DescribeParts of a tiered judgment (-want +got):\n%s", diff)
	}
	want = []Node{{Words: "forbidden_tools", Kind: "a rule"}, {Words: "contains refund", Kind: "a rule"}}
	if diff := cmp.Diff(want, DescribeParts(treeRules)); diff != "" {
		t.Errorf("DescribeParts of an all (-want +got):\n%s", diff)
	}
}

// Three tiers read in their order, each said once.
func TestDescribeThreeTiers(t *testing.T) {
	tiered := judge.Judgment{Name: "tiered", Composite: judge.CompositeAll, Parts: []judge.Judgment{treeRules, treeModel, treeJury}}
	want := "The rules first, then the model judges, then the model judges, each only when the one before it passed"
	if got := Describe(tiered).Words; got != want {
		t.Errorf("Describe(three tiers).Words = %q, want %q", got, want)
	}
}

// A judgment stored before composites recorded their rule
// (judge.Judgment.Composite) is known by its judge's name.
func TestDescribeStoredWithoutComposite(t *testing.T) {
	rules := judge.Judgment{Name: "all", Parts: []judge.Judgment{treeRule, treeRule2}}
	for _, tc := range []struct {
		j    judge.Judgment
		want Node
	}{
		{rules, Node{Words: "All of these must pass", Technical: "all"}},
		{judge.Judgment{Name: "any", Parts: []judge.Judgment{treeRule}}, Node{Words: "Any one of these passing is enough", Technical: "any"}},
		{judge.Judgment{Name: "not tone", Parts: []judge.Judgment{treeModel}}, Node{Words: "Passes when the judge below fails", Technical: "not"}},
		{judge.Judgment{Name: "tiered", DecidedBy: "tier 1", Parts: []judge.Judgment{rules}},
			Node{Words: "The rules first, then the later tiers, each only when the one before it passed",
				Note: "tier 1 did not pass, so the tiers after it did not run", Technical: "tiered"}},
		{judge.Judgment{Name: "safety", Parts: []judge.Judgment{treeRule}}, Node{Words: "safety"}}, // its rule is not known
	} {
		if diff := cmp.Diff(tc.want, Describe(tc.j)); diff != "" {
			t.Errorf("Describe(%s) (-want +got):\n%s", tc.j.Name, diff)
		}
	}
}
