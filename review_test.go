package gavel_test

import (
	"fmt"
	"math"
	"testing"

	"github.com/gavelhq/gavel"
	"github.com/gavelhq/gavel/judge"
)

// rubric is a model judge's judgment: a score of 1..5 against its line.
func rubric(name string, score, line float64) judge.Judgment {
	sc, err := judge.Number(score, 1, 5)
	if err != nil {
		panic(err)
	}
	status := judge.StatusPass
	if score < line {
		status = judge.StatusFail
	}
	return judge.Judgment{Name: name, Status: status, Score: sc, Threshold: judge.AtLeast(score, line), Usage: judge.Usage{Calls: 1}}
}

// tiered puts judgments under a tiered verdict, behind a rule.
func tiered(status judge.Status, parts ...judge.Judgment) judge.Judgment {
	rule := judge.Judgment{Name: "max_turns 6", Status: judge.StatusPass, Threshold: judge.AtMost(6, 6)} // at its limit, but a rule
	return judge.Judgment{Name: "tiered", Status: status, DecidedBy: "tier 2", Parts: append([]judge.Judgment{rule}, parts...)}
}

func TestReviewFilters(t *testing.T) {
	sure, near, far := rubric("helpfulness", 4, 3), rubric("helpfulness", 3, 3.4), rubric("helpfulness", 2, 3.4)
	unstable := rubric("helpfulness", 5, 3)
	unstable.Checks = []judge.Check{{Name: "stability", Passed: false, Message: "2 of 3 samples pass"}}
	split := judge.Judgment{Name: "jury", Status: judge.StatusPass, DecidedBy: "majority", Usage: judge.Usage{Calls: 3},
		Parts: []judge.Judgment{rubric("a", 4, 3), rubric("b", 2, 3), rubric("c", 5, 3)}}
	agreed := judge.Judgment{Name: "jury", Status: judge.StatusPass, DecidedBy: "majority", Usage: judge.Usage{Calls: 2},
		Parts: []judge.Judgment{rubric("a", 4, 3), {Name: "b", Status: judge.StatusAbstain}, {Name: "c", Status: judge.StatusError}}}
	for _, tc := range []struct {
		name                    string
		verdict                 judge.Judgment
		unsure, disagrees, tone bool
	}{
		{"a sure judge", tiered(judge.StatusPass, sure), false, false, false},
		{"0.4 of 1..5 from its line: a tenth of the scale", tiered(judge.StatusFail, near), true, false, false},
		{"1.4 from its line", tiered(judge.StatusFail, far), false, false, false},
		{"samples that disagreed", tiered(judge.StatusPass, unstable), true, false, false},
		{"a rule at its limit", tiered(judge.StatusPass), false, false, false},
		{"a jury split", tiered(judge.StatusPass, split), false, true, false},
		{"a jury with one vote", tiered(judge.StatusPass, agreed), false, false, false},
		{"a jury with a tone judge", tiered(judge.StatusPass, judge.Judgment{Name: "jury", DecidedBy: "majority", Parts: []judge.Judgment{{Name: "tone"}}}), false, false, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := gavel.Unsure(tc.verdict); got != tc.unsure {
				t.Errorf("Unsure = %v, want %v", got, tc.unsure)
			}
			if got := gavel.JuryDisagrees(tc.verdict); got != tc.disagrees {
				t.Errorf("JuryDisagrees = %v, want %v", got, tc.disagrees)
			}
			for _, name := range []string{"tone", "tiered/jury/tone"} {
				if got := gavel.HasJudge(tc.verdict, name); got != tc.tone {
					t.Errorf("HasJudge(%q) = %v, want %v", name, got, tc.tone)
				}
			}
		})
	}
	if gavel.HasJudge(tiered(judge.StatusPass), "") {
		t.Error(`HasJudge("") holds`)
	}
}

// People's agreement with each other leaves the judge out: two people
// get Cohen's kappa, three Krippendorff's alpha too.
func TestAmongPeople(t *testing.T) {
	said := func(judged string, people map[string][]string) []gavel.LabelCheck {
		var out []gavel.LabelCheck
		for person, labels := range people {
			for i, l := range labels {
				if l != "" {
					out = append(out, gavel.LabelCheck{RunID: "r", CaseID: fmt.Sprint("c", i), Trial: 1, JudgeCategory: judged,
						Status: judge.StatusPass, ModelJudged: true, HumanCategory: l, Author: person})
				}
			}
		}
		return out
	}
	// ada and bob: a 2×2 table [[1 1] [0 2]]: observed 0.75, chance
	// 0.5×0.25 + 0.5×0.75 = 0.5, kappa (0.75-0.5)/(1-0.5) = 0.5.
	two := gavel.AmongPeople(said("pass", map[string][]string{"ada": {"pass", "pass", "fail", "fail"}, "bob": {"pass", "fail", "fail", "fail"}}))
	if two.People != 2 || two.Items != 4 || len(two.Pairs) != 1 || two.Alpha != nil {
		t.Fatalf("two people: %+v", two)
	}
	if k := two.Pairs[0].Kappa; k == nil || math.Abs(*k-0.5) > 1e-12 || two.Pairs[0].First != "ada" {
		t.Errorf("two people's kappa: %v, want 0.5", k)
	}
	// Three people over 4 items, cy missing the last; nominal alpha from
	// the coincidence matrix, computed in Python:
	//   units = [['p','p','p'], ['p','f','p'], ['f','f','f'], ['f','f']]
	//   o[(a,b)] += 1/(m-1) for each ordered pair of a unit of m values
	//   1 - Do/De, De = sum n_a n_b (a != b) / (n-1)  ->  0.6666666666666667
	three := gavel.AmongPeople(said("fail", map[string][]string{
		"ada": {"pass", "pass", "fail", "fail"}, "bob": {"pass", "fail", "fail", "fail"}, "cy": {"pass", "pass", "fail", ""},
	}))
	if three.People != 3 || three.Items != 4 || len(three.Pairs) != 3 || len(three.Alpha) != 1 {
		t.Fatalf("three people: %+v", three)
	}
	if a := three.Alpha[0]; a.Kind != "nominal" || a.Value == nil || math.Abs(*a.Value-2.0/3) > 1e-12 || a.NoInterval == "" {
		t.Errorf("three people's alpha: %+v, want nominal 2/3 without an interval (4 items)", a)
	}
	if none := gavel.AmongPeople(nil); none.People != 0 || none.Pairs != nil || none.Alpha != nil {
		t.Errorf("nobody: %+v", none)
	}
}
