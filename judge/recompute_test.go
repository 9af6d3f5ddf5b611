package judge_test

import (
	"context"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/gavelhq/gavel/judge"
)

// What the composites and judges make is what Recomputed makes of it:
// a verdict read back as written is left as it is.
func TestRecomputedKeepsWhatJudgesMade(t *testing.T) {
	th := func(status judge.Status, v, min float64) judge.Judge {
		return judge.Func(func(context.Context, *judge.Transcript) (judge.Judgment, error) {
			return judge.Judgment{Name: "model", Status: status, Score: judge.Unit(v), Threshold: judge.AtLeast(v, min)}, nil
		})
	}
	weighted, err := judge.Weighted(0.7, judge.Weight{Judge: pass, Weight: 1}, judge.Weight{Judge: fail, Weight: 1})
	if err != nil {
		t.Fatal(err)
	}
	tr := &judge.Transcript{Turns: []judge.Turn{{Role: judge.RoleUser, Content: "hi"}, {Role: judge.RoleAgent, Content: "hello"}}, Status: judge.ExecSuccess}
	for name, j := range map[string]judge.Judge{
		"all":                   judge.All(pass, fail, abstain, broken),
		"all of abstentions":    judge.All(abstain, abstain),
		"any":                   judge.Any(fail, broken, pass),
		"any that failed":       judge.Any(fail, fail),
		"not":                   judge.Not(pass),
		"not of an error":       judge.Not(broken),
		"soft":                  judge.Soft(fail),
		"soft of a pass":        judge.Soft(pass),
		"tiered":                judge.Tiered(judge.All(pass, judge.Soft(fail)), fail, pass),
		"each turn":             judge.EachTurn(pass),
		"weighted":              weighted,
		"named, nested":         judge.Named("checks", judge.All(judge.Not(fail), judge.Any(fail, pass), judge.Tiered(pass))),
		"at its threshold":      th(judge.StatusPass, 0.7, 0.7),
		"a fail that meets it":  th(judge.StatusFail, 0.8, 0.7), // a rubric with an axis below its own line
		"below its threshold":   th(judge.StatusFail, 0.6, 0.7),
		"a boolean score":       fixed("rule", judge.StatusFail),
		"a numerical score":     scored("n", judge.StatusPass, 0.2),
		"in a round, abstained": judge.InRound(1, judge.All(abstain)),
	} {
		t.Run(name, func(t *testing.T) {
			made := judge.Run(context.Background(), j, tr)
			if diff := cmp.Diff(made, made.Recomputed()); diff != "" {
				t.Errorf("Recomputed changed what the judge made (-made +recomputed):\n%s", diff)
			}
		})
	}
}

// A status edited by hand is computed again from what the judgment
// records: its parts, by its composite's rule, its boolean score, its
// threshold. A status that nothing recorded contradicts stays.
func TestRecomputedFromWhatAJudgmentRecords(t *testing.T) {
	p := judge.Judgment{Name: "p", Status: judge.StatusPass, Score: judge.Bool(true)}
	f := judge.Judgment{Name: "f", Status: judge.StatusFail, Score: judge.Bool(false)}
	e := judge.Judgment{Name: "e", Status: judge.StatusError, Reasoning: "unreachable"}
	a := judge.Judgment{Name: "a", Status: judge.StatusAbstain}
	composite := func(c judge.Composite, status judge.Status, parts ...judge.Judgment) judge.Judgment {
		return judge.Judgment{Name: string(c), Composite: c, Status: status, Parts: parts}
	}
	forgedPart := judge.Judgment{Name: "rule", Status: judge.StatusPass, Score: judge.Bool(false)}
	for _, tc := range []struct {
		name string
		in   judge.Judgment
		want judge.Status
		says string // in the recomputed reasoning; "" when nothing changed
	}{
		{"all, a part failed", composite(judge.CompositeAll, judge.StatusPass, p, f), judge.StatusFail, "recomputed from what it records (it said PASS): 1 of 2 failed"},
		{"all, every part passed", composite(judge.CompositeAll, judge.StatusFail, p, p), judge.StatusPass, "(it said FAIL): 2 of 2 passed"},
		{"all, a part errored", composite(judge.CompositeAll, judge.StatusPass, p, e), judge.StatusError, "1 of 2 could not judge"},
		{"all, every part abstained", composite(judge.CompositeAll, judge.StatusPass, a, a), judge.StatusAbstain, "all 2 judges abstained"},
		{"all, a forged part", composite(judge.CompositeAll, judge.StatusPass, p, forgedPart), judge.StatusFail, "1 of 2 failed: rule: recomputed"},
		{"any, no part passed", composite(judge.CompositeAny, judge.StatusPass, f, f), judge.StatusFail, "none of 2 passed"},
		{"any, a part errored", composite(judge.CompositeAny, judge.StatusFail, f, e), judge.StatusError, "no judge passed"},
		{"not of a pass", composite(judge.CompositeNot, judge.StatusPass, p), judge.StatusFail, "expected the opposite"},
		{"soft of an error", composite(judge.CompositeSoft, judge.StatusPass, e), judge.StatusError, "unreachable"},
		{"a boolean score that is false", forgedPart, judge.StatusFail, "its score is false"},
		{"a threshold not met", judge.Judgment{Name: "tone", Status: judge.StatusPass, Score: judge.Unit(0.4), Threshold: judge.AtLeast(0.4, 0.7)}, judge.StatusFail,
			"0.4 is below its threshold 0.7"},
		{"a limit exceeded", judge.Judgment{Name: "turns", Status: judge.StatusPass, Threshold: judge.AtMost(5, 3)}, judge.StatusFail, "5 is above its threshold 3"},
		{"a pass without a record", judge.Judgment{Name: "x", Status: judge.StatusPass}, judge.StatusPass, ""},
		{"a fail that meets its threshold", judge.Judgment{Name: "rubric", Status: judge.StatusFail, Threshold: judge.AtLeast(0.8, 0.7)}, judge.StatusFail, ""},
		{"a jury, whose policies are not recorded", judge.Judgment{Name: "jury", DecidedBy: "majority", Status: judge.StatusPass, Parts: []judge.Judgment{f, f}}, judge.StatusPass, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := tc.in.Recomputed()
			if got.Status != tc.want {
				t.Errorf("status %s, want %s (%s)", got.Status, tc.want, got.Reasoning)
			}
			switch {
			case tc.says == "" && got.Reasoning != tc.in.Reasoning:
				t.Errorf("reasoning %q, want it as written, %q", got.Reasoning, tc.in.Reasoning)
			case !strings.Contains(got.Reasoning, tc.says):
				t.Errorf("reasoning %q, want it to say %q", got.Reasoning, tc.says)
			}
		})
	}
}

// A judgment that no judge could make is invalid, at the JSON path of
// its field.
func TestValidateTree(t *testing.T) {
	bad, _ := judge.Number(11, 0, 10)
	for _, tc := range []struct {
		name string
		in   judge.Judgment
		want string
	}{
		{"valid", judge.Judgment{Status: judge.StatusPass, Parts: []judge.Judgment{{Status: judge.StatusFail}}}, ""},
		{"a status", judge.Judgment{Status: judge.StatusPass, Parts: []judge.Judgment{{Status: "OK"}}}, `parts[0].status: "OK" is not one of PASS, FAIL, ABSTAIN, ERROR`},
		{"a score", judge.Judgment{Status: judge.StatusPass, Parts: []judge.Judgment{{Status: judge.StatusPass}, {Status: judge.StatusPass, Score: bad}}},
			"parts[1].score: numerical score 11 is outside its bounds 0..10"},
		{"a threshold", judge.Judgment{Status: judge.StatusPass, Threshold: &judge.Threshold{Value: 1}}, "threshold: no bound: want min, max or both"},
		{"a composite", judge.Judgment{Status: judge.StatusPass, Composite: "most"}, `composite: "most" is not one of all, any, not, soft`},
		{"a not of two", judge.Judgment{Status: judge.StatusPass, Composite: judge.CompositeNot, Parts: []judge.Judgment{{Status: judge.StatusPass}, {Status: judge.StatusPass}}},
			"parts: a composite not has one part, not 2"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := tc.in.ValidateTree()
			got := ""
			if err != nil {
				got = err.Error()
			}
			if got != tc.want {
				t.Errorf("ValidateTree() = %q, want %q", got, tc.want)
			}
		})
	}
}
