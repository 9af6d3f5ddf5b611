package gavel_test

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/gavelhq/gavel"
	"github.com/gavelhq/gavel/judge"
)

// scaleVerdict is a tiered verdict: rules, and a jury of a 1..5 judge
// and a categorical one.
func scaleVerdict(t *testing.T) judge.Judgment {
	t.Helper()
	spent := judge.Usage{InputTokens: 100, OutputTokens: 10, Calls: 1}
	tone, err := judge.Category("warm", []judge.Label{{Name: "cold", Value: 0}, {Name: "warm", Value: 1}})
	if err != nil {
		t.Fatal(err)
	}
	return judge.Judgment{Name: "tiered", Status: judge.StatusPass, Score: judge.Unit(0.8), Usage: spent.Add(spent), Parts: []judge.Judgment{
		{Name: "all", Status: judge.StatusPass, Score: judge.Bool(true), Parts: []judge.Judgment{{Name: "contains", Status: judge.StatusPass, Score: judge.Bool(true)}}},
		{Name: "jury", Status: judge.StatusPass, Score: judge.Unit(0.75), DecidedBy: "majority", Usage: spent.Add(spent), Parts: []judge.Judgment{
			{Name: "helpfulness", Status: judge.StatusPass, Score: mustScore(t, 4, 1, 5), Usage: spent},
			{Name: "tone", Status: judge.StatusPass, Score: tone, Usage: spent},
		}},
	}}
}

// The categories a person may put a judgment in: pass and fail, and
// those of the score the judge's category is read from.
func TestLabelCategories(t *testing.T) {
	v := scaleVerdict(t)
	rubric := judge.Judgment{Name: "rubric", Status: judge.StatusFail, Score: mustScore(t, 2, 1, 5), Usage: judge.Usage{Calls: 1, CacheHits: 1}}
	for _, tc := range []struct {
		name string
		j    judge.Judgment
		want []string
	}{
		{"a verdict of rules", judge.Judgment{Name: "all", Status: judge.StatusPass, Score: judge.Bool(true)}, []string{"pass", "fail"}},
		{"a 1..5 judge", v.Parts[1].Parts[0], []string{"pass", "fail", "1", "2", "3", "4", "5"}},
		{"a categorical judge", v.Parts[1].Parts[1], []string{"pass", "fail", "cold", "warm"}},
		{"a jury's 0..1 aggregate: no numbers", v.Parts[1], []string{"pass", "fail"}},
		{"a verdict read through its one model judge, answered from the cache", judge.Judgment{Name: "tiered", Status: judge.StatusFail, Score: judge.Unit(0.5),
			Usage: rubric.Usage, Parts: []judge.Judgment{v.Parts[0], rubric}}, []string{"pass", "fail", "1", "2", "3", "4", "5"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if d := cmp.Diff(tc.want, gavel.LabelCategories(tc.j)); d != "" {
				t.Errorf("LabelCategories (-want +got):\n%s", d)
			}
		})
	}
}

// A label is refused when the verdict has no judgment at its path, or
// its category is not on the judgment's scale; the error says what is
// allowed.
func TestCheckLabel(t *testing.T) {
	v := scaleVerdict(t)
	for _, tc := range []struct {
		name, path, category string
		wantErr              []string // "" for none
	}{
		{"pass on the verdict", "", "pass", nil},
		{"FAIL, any case", "", " FAIL ", nil},
		{"correct or wrong fits every judgment", "tiered/jury/tone", "", nil},
		{"4 of 1..5", "tiered/jury/helpfulness", "4", nil},
		{"4.0 is 4", "tiered/jury/helpfulness", "4.0", nil},
		{"warm", "tiered/jury/tone", "warm", nil},
		{"maybe on a pass/fail verdict", "", "maybe", []string{`"maybe" is not a category of the verdict: pass or fail`}},
		{"win on a pass/fail verdict", "", "win", []string{`"win" is not a category`}},
		{"7 on a pass/fail verdict", "", "7", []string{`"7" is not a category`}},
		{"0.5 on a pass/fail verdict", "", "0.5", []string{`"0.5" is not a category`}},
		{"7 of 1..5", "tiered/jury/helpfulness", "7", []string{`"7" is not a category of judgment "tiered/jury/helpfulness": pass, fail, 1, 2, 3, 4 or 5`}},
		{"3.5 of 1..5", "tiered/jury/helpfulness", "3.5", []string{`"3.5" is not a category`}},
		{"hot", "tiered/jury/tone", "hot", []string{`pass, fail, cold or warm`}},
		{"no such judgment", "tiered/jury/nobody", "pass", []string{`the verdict has no judgment "tiered/jury/nobody"`, `"tiered/jury/helpfulness"`, `"" (the verdict)`}},
		{"no such judgment, correct or wrong", "jury", "", []string{`no judgment "jury"`}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := gavel.CheckLabel(v, tc.path, tc.category)
			switch {
			case tc.wantErr == nil && err != nil:
				t.Errorf("CheckLabel(%q, %q) = %v, want nil", tc.path, tc.category, err)
			case tc.wantErr != nil && err == nil:
				t.Errorf("CheckLabel(%q, %q) = nil, want an error with %q", tc.path, tc.category, tc.wantErr)
			case err != nil:
				for _, w := range tc.wantErr {
					if !strings.Contains(err.Error(), w) {
						t.Errorf("CheckLabel(%q, %q) = %v, want %q in it", tc.path, tc.category, err, w)
					}
				}
			}
		})
	}
}

// A judgment a model made counts as such when Gavel's cache answered it:
// it records the model call (Usage.Calls, CacheHits), not tokens.
func TestModelJudged(t *testing.T) {
	cached := judge.Usage{Calls: 1, CacheHits: 1}
	for _, tc := range []struct {
		name string
		j    judge.Judgment
		want bool
	}{
		{"a model call that spent tokens", judge.Judgment{Usage: judge.Usage{InputTokens: 10, OutputTokens: 2, Calls: 1}}, true},
		{"answered from Gavel's cache", judge.Judgment{Usage: cached}, true},
		{"tokens without a count of calls (recorded before calls were counted)", judge.Judgment{Usage: judge.Usage{InputTokens: 10}}, true},
		{"rules alone", judge.Judgment{Name: "all", Parts: []judge.Judgment{{Name: "contains"}}}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := gavel.ModelJudged(tc.j); got != tc.want {
				t.Errorf("ModelJudged = %v, want %v", got, tc.want)
			}
		})
	}
	rubric := judge.Judgment{Name: "rubric", Status: judge.StatusFail, Score: judge.Unit(0.3), Usage: cached}
	rules := judge.Judgment{Name: "all", Status: judge.StatusPass, Parts: []judge.Judgment{{Name: "contains", Status: judge.StatusPass}}}
	if got, ok := gavel.ScoredJudgment(judge.Judgment{Name: "tiered", Usage: cached, Parts: []judge.Judgment{rules, rubric}}); !ok || got.Name != "rubric" {
		t.Errorf("ScoredJudgment of a verdict whose rubric the cache answered: %v %q, want the rubric", ok, got.Name)
	}
}
