package gavel_test

import (
	"fmt"
	"math"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/gavelhq/gavel"
	"github.com/gavelhq/gavel/judge"
)

// pairs returns n pairs of what two raters said.
func pairs(n int, first, second string) []gavel.Pair {
	out := make([]gavel.Pair, n)
	for i := range out {
		out[i] = gavel.Pair{First: first, Second: second}
	}
	return out
}

func concatPairs(parts ...[]gavel.Pair) []gavel.Pair {
	var out []gavel.Pair
	for _, p := range parts {
		out = append(out, p...)
	}
	return out
}

// Cohen's kappa over tables worked out by hand.
func TestAgree(t *testing.T) {
	tests := []struct {
		name       string
		pairs      []gavel.Pair
		categories []string
		table      [][]int
		observed   float64
		chance     float64
		kappa      float64 // NaN: none
	}{
		{
			// Binary, 50 items:      second
			//                      fail  pass
			//   first  fail          15    10   = 25
			//          pass           5    20   = 25
			//                        20    30
			// Observed (15+20)/50 = 0.7.
			// Chance: fail 25/50 · 20/50 = 0.2, pass 25/50 · 30/50 = 0.3: 0.5.
			// Kappa (0.7 - 0.5) / (1 - 0.5) = 0.4.
			name:       "binary",
			pairs:      concatPairs(pairs(20, "pass", "pass"), pairs(5, "pass", "fail"), pairs(10, "fail", "pass"), pairs(15, "fail", "fail")),
			categories: []string{"fail", "pass"},
			table:      [][]int{{15, 10}, {5, 20}},
			observed:   0.7, chance: 0.5, kappa: 0.4,
		},
		{
			// Three classes, 20 items:   second
			//                       A   B  tie
			//   first  A            6   1   1   = 8
			//          B            1   5   0   = 6
			//          tie          1   1   4   = 6
			//                       8   7   5
			// Observed (6+5+4)/20 = 15/20 = 0.75.
			// Chance (8·8 + 6·7 + 6·5)/400 = (64+42+30)/400 = 136/400 = 0.34.
			// Kappa (0.75 - 0.34) / (1 - 0.34) = 0.41/0.66 = 41/66 ≈ 0.6212.
			// (Read as pass/fail, "the first was right or not", the same
			// data would give another number: that is the defect fixed.)
			name: "three classes",
			pairs: concatPairs(pairs(6, "A", "A"), pairs(1, "A", "B"), pairs(1, "A", "tie"),
				pairs(1, "B", "A"), pairs(5, "B", "B"),
				pairs(1, "tie", "A"), pairs(1, "tie", "B"), pairs(4, "tie", "tie")),
			categories: []string{"A", "B", "tie"},
			table:      [][]int{{6, 1, 1}, {1, 5, 0}, {1, 1, 4}},
			observed:   0.75, chance: 0.34, kappa: 41.0 / 66,
		},
		{
			// A 1..5 scale where only 2, 3 and 10 occur: numbers sort as
			// numbers (10 after 3). Every item agrees: kappa 1.
			// Chance (2·2 + 1·1 + 1·1)/16 = 6/16; kappa (1 - 6/16)/(1 - 6/16) = 1.
			name:       "numbers in numeric order",
			pairs:      concatPairs(pairs(2, "10", "10"), pairs(1, "2", "2"), pairs(1, "3", "3")),
			categories: []string{"2", "3", "10"},
			table:      [][]int{{1, 0, 0}, {0, 1, 0}, {0, 0, 2}},
			observed:   1, chance: 6.0 / 16, kappa: 1,
		},
		{
			// One category only: chance 1, no kappa.
			name: "one category", pairs: pairs(4, "pass", "pass"),
			categories: []string{"pass"}, table: [][]int{{4}}, observed: 1, chance: 1, kappa: math.NaN(),
		},
		{name: "nothing", kappa: math.NaN(), table: [][]int{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a := gavel.Agree(tt.pairs)
			if diff := cmp.Diff(tt.categories, a.Categories); diff != "" {
				t.Errorf("categories (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tt.table, a.Table); diff != "" {
				t.Errorf("table (-want +got):\n%s", diff)
			}
			if a.Items != len(tt.pairs) || math.Abs(a.Observed-tt.observed) > 1e-9 || math.Abs(a.Chance-tt.chance) > 1e-9 {
				t.Errorf("items %d, observed %v, chance %v; want %d, %v, %v", a.Items, a.Observed, a.Chance, len(tt.pairs), tt.observed, tt.chance)
			}
			checkKappa(t, a.Kappa, tt.kappa)
		})
	}
}

func checkKappa(t *testing.T, got *float64, want float64) {
	t.Helper()
	switch {
	case math.IsNaN(want) && got != nil:
		t.Errorf("kappa %v, want none", *got)
	case !math.IsNaN(want) && got == nil:
		t.Errorf("kappa none, want %v", want)
	case !math.IsNaN(want) && math.Abs(*got-want) > 1e-9:
		t.Errorf("kappa %v, want %v", *got, want)
	}
}

// cat returns n checks of a model's judgment in category judged that a
// person labelled with category human ("" for a "wrong" alone).
func cat(n int, judged, human string) []gavel.LabelCheck {
	out := make([]gavel.LabelCheck, n)
	for i := range out {
		out[i] = gavel.LabelCheck{CaseID: fmt.Sprintf("%s-%s-%d", judged, human, i), Trial: 1, Status: judge.StatusPass, ModelJudged: true,
			JudgeCategory: judged, HumanCategory: human, Author: "ada"}
	}
	return out
}

// A three-way (A, B, tie) calibration is measured over the three
// categories; a bare "wrong" on a tie says the judge was wrong, not which
// of A and B the person meant: it counts as a disagreement and stays out
// of the table.
func TestCalibrateThreeClasses(t *testing.T) {
	var checks []gavel.LabelCheck
	for _, part := range [][]gavel.LabelCheck{
		cat(6, "A", "A"), cat(1, "A", "B"), cat(1, "A", "tie"),
		cat(1, "B", "A"), cat(5, "B", "b"), // "b" is not "B": a category of its own
		cat(1, "tie", "A"), cat(1, "tie", "B"), cat(4, "tie", "TIE"), // tie in any case is tie
	} {
		checks = append(checks, part...)
	}
	wrong := gavel.LabelCheck{CaseID: "wrong", Trial: 1, Status: judge.StatusFail, ModelJudged: true, JudgeCategory: "tie", Correct: false}
	c := gavel.Calibrate(append(checks, wrong))
	// 21 counted; agreed: 6 A, 0 B ("b" differs), 4 tie = 10.
	// Table over 20: judge A 8, B 6, tie 6; people A 8, B 2, b 5, tie 5.
	// Categories A, B, b, tie (upper case sorts first).
	// Observed 10/20 = 0.5.
	// Chance (A 8·8 + B 6·2 + b 0·5 + tie 6·5)/400 = (64+12+0+30)/400 = 106/400 = 0.265.
	// Kappa (0.5 - 0.265) / 0.735 = 0.235/0.735 = 47/147.
	if c.Counted != 21 || c.Agreed != 10 || c.Table.Items != 20 || len(c.Disagreements) != 11 {
		t.Errorf("counted %d, agreed %d, table %d, disagreements %d; want 21, 10, 20, 11", c.Counted, c.Agreed, c.Table.Items, len(c.Disagreements))
	}
	if diff := cmp.Diff([]string{"A", "B", "b", "tie"}, c.Table.Categories); diff != "" {
		t.Errorf("categories (-want +got):\n%s", diff)
	}
	checkKappa(t, c.Kappa, 47.0/147)

	// With B written right the table is the hand-worked one of TestAgree:
	// kappa 41/66.
	for i := range checks {
		if checks[i].HumanCategory == "b" {
			checks[i].HumanCategory = "B"
		}
	}
	c = gavel.Calibrate(checks)
	checkKappa(t, c.Kappa, 41.0/66)
	if math.Abs(orNaN(c.Agreement)-0.75) > 1e-9 {
		t.Errorf("agreement %v, want 0.75", orNaN(c.Agreement))
	}
}

// Two people who labelled the same judgments are compared with each
// other, on those judgments only, whether a model judged them or not.
func TestRaters(t *testing.T) {
	label := func(author, item, category string) gavel.LabelCheck {
		return gavel.LabelCheck{RunID: "r", CaseID: item, Trial: 1, Status: judge.StatusPass, HumanCategory: category, Author: author}
	}
	var checks []gavel.LabelCheck
	// ada against grace on a 1..3 scale, 10 items:
	//                   grace
	//                1   2   3
	//   ada   1      2   1   0   = 3
	//         2      0   3   1   = 4
	//         3      0   0   3   = 3
	//                2   4   4
	// Observed (2+3+3)/10 = 0.8.
	// Chance (3·2 + 4·4 + 3·4)/100 = 34/100 = 0.34.
	// Kappa (0.8 - 0.34)/(1 - 0.34) = 0.46/0.66 = 23/33 ≈ 0.697.
	for i, p := range concatPairs(pairs(2, "1", "1"), pairs(1, "1", "2"), pairs(3, "2", "2"), pairs(1, "2", "3"), pairs(3, "3", "3")) {
		item := fmt.Sprint("item-", i)
		checks = append(checks, label("grace", item, p.Second), label("ada", item, p.First))
	}
	// ada alone labelled item-x; bob labelled only item-x and item-0.
	checks = append(checks, label("ada", "item-x", "1"), label("bob", "item-x", "1"), label("bob", "item-0", "3"))
	// A label on another judgment of item-1 is another item.
	other := label("grace", "item-1", "3")
	other.Judgment = "tiered/jury/tone"
	checks = append(checks, other)

	got := gavel.Raters(checks)
	if len(got) != 3 {
		t.Fatalf("%d pairs of raters, want 3 (ada-bob, ada-grace, bob-grace): %+v", len(got), got)
	}
	ab, ag, bg := got[0], got[1], got[2]
	if ab.First != "ada" || ab.Second != "bob" || ab.Items != 2 || ab.Agreed != 1 {
		t.Errorf("ada-bob: %s-%s over %d items, %d agreed; want 2, 1", ab.First, ab.Second, ab.Items, ab.Agreed)
	}
	if ag.First != "ada" || ag.Second != "grace" || ag.Items != 10 || math.Abs(ag.Observed-0.8) > 1e-9 || math.Abs(ag.Chance-0.34) > 1e-9 {
		t.Errorf("ada-grace: %s-%s over %d items, observed %v, chance %v; want 10, 0.8, 0.34", ag.First, ag.Second, ag.Items, ag.Observed, ag.Chance)
	}
	checkKappa(t, ag.Kappa, 23.0/33)
	if diff := cmp.Diff([][]int{{2, 1, 0}, {0, 3, 1}, {0, 0, 3}}, ag.Table); diff != "" {
		t.Errorf("ada-grace table (-want +got):\n%s", diff)
	}
	if bg.First != "bob" || bg.Second != "grace" || bg.Items != 1 {
		t.Errorf("bob-grace: %s-%s over %d items; want 1", bg.First, bg.Second, bg.Items)
	}
	// Calibrate reports the same.
	if c := gavel.Calibrate(checks); len(c.Raters) != 3 || c.Counted != 0 {
		t.Errorf("Calibrate: %d pairs of raters, %d counted; want 3, 0 (no model judged these)", len(c.Raters), c.Counted)
	}
}

// A judgment's category on a person's scale.
func TestJudgedCategory(t *testing.T) {
	five, _ := judge.Number(3.6, 1, 5)
	winTie, _ := judge.Category("tie", []judge.Label{{Name: "loss", Value: 0}, {Name: "tie", Value: 0.5}, {Name: "win", Value: 1}})
	tests := []struct {
		name   string
		j      judge.Judgment
		person string
		want   string
	}{
		{"pass on pass/fail", judge.Judgment{Status: judge.StatusPass, Score: five}, "fail", "pass"},
		{"fail on pass/fail, any case", judge.Judgment{Status: judge.StatusFail}, "PASS", "fail"},
		{"no category: the status", judge.Judgment{Status: judge.StatusFail}, "", "fail"},
		{"abstained", judge.Judgment{Status: judge.StatusAbstain}, "pass", ""},
		{"a 1..5 score, rounded", judge.Judgment{Status: judge.StatusPass, Score: five}, "4", "4"},
		{"a categorical score", judge.Judgment{Status: judge.StatusPass, Score: winTie}, "win", "tie"},
		{"a boolean score", judge.Judgment{Status: judge.StatusFail, Score: judge.Bool(false)}, "true", "false"},
		{"no score of that kind", judge.Judgment{Status: judge.StatusPass}, "4", ""},
		{"errored", judge.Judgment{Status: judge.StatusError, Score: five}, "4", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := gavel.JudgedCategory(tt.j, tt.person); got != tt.want {
				t.Errorf("JudgedCategory(%s, %q) = %q, want %q", tt.j.Status, tt.person, got, tt.want)
			}
		})
	}
}

// A judgment is found by its path of names, and its prompt version by
// its own, its parts' or the judgments above it.
func TestJudgmentAtPromptOf(t *testing.T) {
	v := judge.Judgment{Name: "tiered", Status: judge.StatusFail, Parts: []judge.Judgment{
		{Name: "all", Status: judge.StatusPass},
		{Name: "jury", Status: judge.StatusFail, Parts: []judge.Judgment{
			{Name: "rubric", Status: judge.StatusFail, Prompt: "a1b2c3d4e5f6"},
			{Name: "criteria", Status: judge.StatusPass, Prompt: "ffff00001111", Parts: []judge.Judgment{{Name: "tone", Status: judge.StatusPass}}},
		}},
	}}
	tests := []struct {
		path   string
		found  bool
		status judge.Status
		prompt string
		match  bool
	}{
		{"", true, judge.StatusFail, "a1b2", true}, // the verdict: one of its parts
		{"tiered", true, judge.StatusFail, "ffff", true},
		{"tiered/all", true, judge.StatusPass, "a1b2", false},
		{"tiered/jury/rubric", true, judge.StatusFail, "a1b2", true},
		{"tiered/jury/rubric", true, judge.StatusFail, "ffff", false},
		{"tiered/jury/criteria/tone", true, judge.StatusPass, "ffff", true}, // the criteria judge above it
		{"tiered/jury/nobody", false, "", "a1b2", false},
		{"other/jury", false, "", "", true}, // no version asked: everything matches
	}
	// A verdict without a name adds nothing to its parts' paths.
	anonymous := judge.Judgment{Status: judge.StatusPass, Parts: []judge.Judgment{{Name: "tone", Status: judge.StatusFail, Prompt: "abc"}}}
	if j, ok := gavel.JudgmentAt(anonymous, "tone"); !ok || j.Status != judge.StatusFail || !gavel.PromptOf(anonymous, "tone", "ab") {
		t.Errorf("a part of a verdict without a name: %v, %v", j.Status, ok)
	}
	if got := gavel.JudgmentPath("", "", "tone"); got != "tone" {
		t.Errorf("JudgmentPath of a part of a verdict without a name: %q", got)
	}
	if got := gavel.JudgmentPath("", "tiered", "jury") + " " + gavel.JudgmentPath("tiered/jury", "jury", "tone"); got != "tiered/jury tiered/jury/tone" {
		t.Errorf("JudgmentPath: %q", got)
	}
	for _, tt := range tests {
		j, ok := gavel.JudgmentAt(v, tt.path)
		if ok != tt.found || j.Status != tt.status {
			t.Errorf("JudgmentAt(%q) = %s, %v; want %s, %v", tt.path, j.Status, ok, tt.status, tt.found)
		}
		if got := gavel.PromptOf(v, tt.path, tt.prompt); got != tt.match {
			t.Errorf("PromptOf(%q, %q) = %v, want %v", tt.path, tt.prompt, got, tt.match)
		}
	}
}

// A person's score of a verdict is measured against the judge's own
// score, not the verdict's: a tiered verdict's score is the mean over its
// parts, rules included, which no judge gave (issue 16: a FAIL read as
// "score 0.8/1").
func TestScoredJudgment(t *testing.T) {
	spent := judge.Usage{InputTokens: 100, OutputTokens: 20}
	rubric := judge.Judgment{Name: "rubric", Status: judge.StatusFail, Score: judge.Unit(0.3), Usage: spent}
	rules := judge.Judgment{Name: "all", Status: judge.StatusPass, Score: judge.Unit(1), Parts: []judge.Judgment{
		{Name: "contains", Status: judge.StatusPass, Score: judge.Bool(true)},
		{Name: "max_bubbles", Status: judge.StatusPass, Score: judge.Bool(true)},
	}}
	verdict := judge.Judgment{Name: "tiered", Status: judge.StatusFail, Score: judge.Unit(0.77), Usage: spent, DecidedBy: "tier 2", Parts: []judge.Judgment{rules, rubric}}
	got, ok := gavel.ScoredJudgment(verdict)
	if s, _ := got.Normalized(); !ok || got.Name != "rubric" || s != 0.3 {
		t.Errorf("the verdict's scored judgment: %v %s %v, want the rubric's 0.3", ok, got.Name, s)
	}
	axes := judge.Judgment{Name: "criteria", Status: judge.StatusPass, Score: judge.Unit(0.8), Usage: spent, Parts: []judge.Judgment{
		{Name: "tone", Score: mustScore(t, 8, 1, 10)}, {Name: "style", Score: mustScore(t, 9, 1, 10)},
	}}
	if got, ok := gavel.ScoredJudgment(judge.Judgment{Name: "tiered", Usage: spent, Parts: []judge.Judgment{rules, axes}}); !ok || got.Name != "criteria" {
		t.Errorf("a criteria judge's axes are its own: %v %s", ok, got.Name)
	}
	two := judge.Judgment{Name: "all", Usage: judge.Usage{InputTokens: 200}, Parts: []judge.Judgment{rubric, rubric}}
	if _, ok := gavel.ScoredJudgment(two); ok {
		t.Error("two model judges: which one a person scored is unknown, and no score should be compared")
	}
	panel := judge.Judgment{Name: "jury", DecidedBy: "average", Score: judge.Unit(0.6), Usage: judge.Usage{InputTokens: 200}, Parts: []judge.Judgment{rubric, rubric}}
	if got, ok := gavel.ScoredJudgment(judge.Judgment{Name: "tiered", DecidedBy: "tier 2", Usage: panel.Usage, Parts: []judge.Judgment{rules, panel}}); !ok || got.Name != "jury" {
		t.Errorf("a jury is one judge, whose strategy made its score: %v %s", ok, got.Name)
	}
	if _, ok := gavel.ScoredJudgment(rules); ok {
		t.Error("rules alone: no judge's score")
	}
}

func mustScore(t *testing.T, v, min, max float64) judge.Score {
	t.Helper()
	s, err := judge.Number(v, min, max)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// On a numeric scale (a 1..10 criterion) the weighted kappas are given
// beside Cohen's: the 30 scores of stats' TestKappa, whose kappas are
// sklearn's cohen_kappa_score(judge, person, labels=range(1, 11),
// weights=None / "linear" / "quadratic") (Debian's python3-sklearn 1.2.1).
// The categories used (3..10, 1 and 2 unused) weigh by their values.
func TestAgreeWeighted(t *testing.T) {
	judged := []int{9, 7, 9, 6, 6, 5, 4, 4, 6, 10, 8, 6, 6, 6, 10, 10, 7, 5, 5, 5, 7, 10, 4, 9, 9, 8, 9, 4, 8, 10}
	person := []int{9, 9, 9, 7, 3, 6, 4, 4, 3, 10, 10, 7, 6, 6, 9, 10, 7, 5, 6, 4, 8, 10, 4, 8, 6, 8, 10, 4, 9, 10}
	var ps []gavel.Pair
	for i := range judged {
		ps = append(ps, gavel.Pair{First: fmt.Sprint(judged[i]), Second: fmt.Sprint(person[i])})
	}
	a := gavel.Agree(ps)
	checkKappa(t, a.Kappa, 0.4178525226390686)
	if !a.Ordinal || len(a.Weighted) != 2 {
		t.Fatalf("ordinal %v, weighted %+v; want an ordinal scale, linear and quadratic", a.Ordinal, a.Weighted)
	}
	for i, want := range []struct {
		kind   string
		kappa  float64
		lo, hi float64 // scipy.stats.bootstrap's percentile interval, as in stats.TestBootstrapKappa
	}{{"linear", 0.6944198405668733, 0.5273387940694367, 0.8180242634315424}, {"quadratic", 0.8442187860604662, 0.7127649903288201, 0.9315068493150684}} {
		w := a.Weighted[i]
		if w.Kind != want.kind || w.Value == nil || math.Abs(*w.Value-want.kappa) > 1e-12 || w.Interval == nil ||
			math.Abs(w.Interval.Lo-want.lo) > 0.03 || math.Abs(w.Interval.Hi-want.hi) > 0.03 {
			t.Errorf("weighted %d: %+v (interval %+v), want %s %v in about [%v, %v]", i, w, w.Interval, want.kind, want.kappa, want.lo, want.hi)
		}
	}
	if a.KappaInterval == nil || !a.KappaInterval.Contains(*a.Kappa) {
		t.Errorf("kappa %v, interval %+v", *a.Kappa, a.KappaInterval)
	}
	// Pass/fail and named categories are no ordinal scale.
	for _, ps := range [][]gavel.Pair{concatPairs(pairs(3, "pass", "pass"), pairs(2, "fail", "pass")), concatPairs(pairs(3, "A", "B"), pairs(2, "tie", "A"), pairs(1, "B", "B"))} {
		if a := gavel.Agree(ps); a.Ordinal || a.Weighted != nil {
			t.Errorf("%v: ordinal %v, weighted %+v; want neither", a.Categories, a.Ordinal, a.Weighted)
		}
	}
}

// Each category's base rate and specific agreement, by hand, and the
// kappa paradox: 90% agreement where "pass" is 90% of the ratings gives
// kappa 0.44 (statsmodels' cohens_kappa([[85, 5], [5, 5]]) is
// 0.44444444444444436), and Paradox names "pass".
func TestAgreeBaseRates(t *testing.T) {
	tests := []struct {
		name    string
		pairs   []gavel.Pair
		rates   []gavel.BaseRate
		kappa   float64
		paradox string
	}{
		{
			// first: fail 25, pass 25; second: fail 20, pass 30 (TestAgree's binary).
			// Specific: fail 2·15/45, pass 2·20/55.
			name:  "binary",
			pairs: concatPairs(pairs(20, "pass", "pass"), pairs(5, "pass", "fail"), pairs(10, "fail", "pass"), pairs(15, "fail", "fail")),
			rates: []gavel.BaseRate{{Category: "fail", First: 0.5, Second: 0.4, Both: 0.45, Specific: 30.0 / 45},
				{Category: "pass", First: 0.5, Second: 0.6, Both: 0.55, Specific: 40.0 / 55}},
			kappa: 0.4,
		},
		{
			// fail: 10 of 100 each; specific 2·5/20. pass: 90, 2·85/180.
			name:  "skewed",
			pairs: concatPairs(pairs(85, "pass", "pass"), pairs(5, "pass", "fail"), pairs(5, "fail", "pass"), pairs(5, "fail", "fail")),
			rates: []gavel.BaseRate{{Category: "fail", First: 0.1, Second: 0.1, Both: 0.1, Specific: 0.5},
				{Category: "pass", First: 0.9, Second: 0.9, Both: 0.9, Specific: 170.0 / 180}},
			kappa: 0.44444444444444436, paradox: "pass",
		},
		{
			// skewed as much, but kappa is high: not misleading
			name:  "skewed and agreeing",
			pairs: concatPairs(pairs(89, "pass", "pass"), pairs(1, "pass", "fail"), pairs(1, "fail", "pass"), pairs(9, "fail", "fail")),
			rates: []gavel.BaseRate{{Category: "fail", First: 0.1, Second: 0.1, Both: 0.1, Specific: 0.9},
				{Category: "pass", First: 0.9, Second: 0.9, Both: 0.9, Specific: 178.0 / 180}},
			kappa: 1 - 0.02/0.18,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a := gavel.Agree(tt.pairs)
			if diff := cmp.Diff(tt.rates, a.BaseRates, cmpopts.EquateApprox(0, 1e-12)); diff != "" {
				t.Errorf("base rates (-want +got):\n%s", diff)
			}
			checkKappa(t, a.Kappa, tt.kappa)
			r, ok := a.Paradox()
			if ok != (tt.paradox != "") || r.Category != tt.paradox {
				t.Errorf("paradox %q, %v; want %q", r.Category, ok, tt.paradox)
			}
		})
	}
}

// Intervals resample items, not labels: two people who labelled 30
// judgments alike against the judge give kappa the interval one of them
// gives, not a narrower one as if there were 60 judgments.
func TestAgreeIntervalOverItems(t *testing.T) {
	judged := []string{"9", "7", "9", "6", "6", "5", "4", "4", "6", "10", "8", "6", "6", "6", "10", "10", "7", "5", "5", "5", "7", "10", "4", "9", "9", "8", "9", "4", "8", "10"}
	person := []string{"9", "9", "9", "7", "3", "6", "4", "4", "3", "10", "10", "7", "6", "6", "9", "10", "7", "5", "6", "4", "8", "10", "4", "8", "6", "8", "10", "4", "9", "10"}
	var one, two []gavel.Pair
	for i := range judged {
		p := gavel.Pair{First: judged[i], Second: person[i], Item: fmt.Sprint("q", i)}
		one = append(one, p)
		two = append(two, p, p)
	}
	a, b := gavel.Agree(one), gavel.Agree(two)
	if a.KappaInterval == nil || b.KappaInterval == nil || *a.KappaInterval != *b.KappaInterval || *a.Weighted[1].Interval != *b.Weighted[1].Interval {
		t.Errorf("one person: %+v, %+v; two alike: %+v, %+v; want the same", a.KappaInterval, a.Weighted[1].Interval, b.KappaInterval, b.Weighted[1].Interval)
	}
}
