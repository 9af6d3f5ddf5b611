package gavel_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/gavelhq/gavel"
	"github.com/gavelhq/gavel/judge"
	"github.com/gavelhq/gavel/llmjudge"
)

// A Holdout splits by case id, the same way every time, near its share;
// another seed splits another way.
func TestHoldout(t *testing.T) {
	for _, tc := range []struct {
		h      gavel.Holdout
		lo, hi int // held out of 1000
	}{
		{gavel.Holdout{}, 460, 540},
		{gavel.Holdout{Share: 0.2, Seed: 7}, 170, 230},
	} {
		held := 0
		for i := range 1000 {
			id := fmt.Sprintf("case_%03d", i)
			if tc.h.Holds(id) {
				held++
			}
			if tc.h.Holds(id) != tc.h.Holds(id) {
				t.Fatalf("%+v: case %s is held out, then not", tc.h, id)
			}
		}
		if held < tc.lo || held > tc.hi {
			t.Errorf("%+v holds out %d of 1000 cases, want %d..%d", tc.h, held, tc.lo, tc.hi)
		}
	}
	differ := 0
	for i := range 100 {
		id := fmt.Sprintf("case_%03d", i)
		if (gavel.Holdout{Seed: 1}).Holds(id) != (gavel.Holdout{Seed: 2}).Holds(id) {
			differ++
		}
	}
	if differ < 30 {
		t.Errorf("seeds 1 and 2 split 100 cases apart on %d only", differ)
	}
}

// transcripts answers every trial with a transcript whose request and
// reply name it.
func transcripts(_ context.Context, run, caseID string, trial int) (*judge.Transcript, error) {
	return &judge.Transcript{Turns: []judge.Turn{
		{Role: judge.RoleUser, Content: "question of " + caseID},
		{Role: judge.RoleAgent, Content: fmt.Sprintf("reply of %s#%d in %s", caseID, trial, run)},
	}}, nil
}

// Every judgment people overruled becomes one example, in the order first
// overruled, with the people's verdict and their comments; not the ones
// people disagree on among themselves, nor a "wrong" that does not say
// which category is right, nor a judgment no model made.
func TestDisagreementExamples(t *testing.T) {
	pass, fail := judge.StatusPass, judge.StatusFail
	check := func(caseID, author string, status judge.Status, category, comment string) gavel.LabelCheck {
		return gavel.LabelCheck{RunID: "r1", CaseID: caseID, Trial: 1, Status: status, HumanCategory: category, Author: author, Comment: comment, ModelJudged: true}
	}
	wrongOfFive := check("five", "ada", pass, "", "not a 4")
	wrongOfFive.JudgeCategory = "4"
	byRule := check("rule", "ada", fail, "pass", "")
	byRule.ModelJudged = false
	checks := []gavel.LabelCheck{
		check("agreed", "ada", pass, "pass", "fine"),
		check("two", "ada", pass, "fail", "no date"),
		check("contested", "ada", pass, "fail", ""),
		check("contested", "grace", pass, "pass", ""),
		check("one", "grace", fail, "pass", ""),
		check("two", "grace", pass, "fail", "no order number"),
		wrongOfFive,
		byRule,
	}
	got, count, err := gavel.DisagreementExamples(context.Background(), checks, transcripts)
	if err != nil {
		t.Fatal(err)
	}
	want := []gavel.Example{
		{Example: llmjudge.Example{Request: "question of two", Response: "reply of two#1 in r1", Verdict: "fail", Reason: "no date\nno order number"},
			Source: gavel.ExampleSource{Run: "r1", Case: "two", Trial: 1}, Judged: "pass"},
		{Example: llmjudge.Example{Request: "question of one", Response: "reply of one#1 in r1", Verdict: "pass"},
			Source: gavel.ExampleSource{Run: "r1", Case: "one", Trial: 1}, Judged: "fail"},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("examples (-want +got):\n%s", diff)
	}
	if want := (gavel.ExampleCount{Disagreements: 4, Examples: 2, Contested: 1, Unknown: 1}); count != want {
		t.Errorf("count %+v, want %+v", count, want)
	}
}

// A judge that passes everything agrees with people by chance alone
// (kappa 0) on held-out labels where half the replies are bad; the same
// judge with examples tells them apart (kappa 1): the examples helped,
// and the interval of the difference says so. Examples from a held-out
// case are refused.
func TestCompareExamples(t *testing.T) {
	h := gavel.Holdout{Seed: 3}
	var checks []gavel.LabelCheck
	var examples []gavel.Example
	bad := map[string]bool{}
	for i := range 80 {
		id := fmt.Sprintf("case_%02d", i)
		bad[id] = i%2 == 1
		people := "pass"
		if bad[id] {
			people = "fail"
		}
		checks = append(checks, gavel.LabelCheck{RunID: "r1", CaseID: id, Trial: 1, Status: judge.StatusPass, HumanCategory: people, Author: "ada", ModelJudged: true})
		if bad[id] && !h.Holds(id) {
			examples = append(examples, gavel.Example{Source: gavel.ExampleSource{Run: "r1", Case: id, Trial: 1}})
		}
	}
	verdict := func(pass bool) judge.Judgment {
		j := judge.Judgment{Name: "rubric", Status: judge.StatusFail, Usage: judge.Usage{Calls: 1}}
		if pass {
			j.Status = judge.StatusPass
		}
		return j
	}
	lenient := judge.Func(func(context.Context, *judge.Transcript) (judge.Judgment, error) { return verdict(true), nil })
	taught := judge.Func(func(_ context.Context, t *judge.Transcript) (judge.Judgment, error) {
		id := strings.TrimPrefix(t.Turns[0].Content, "question of ")
		return verdict(!bad[id]), nil
	})
	judges := gavel.ExampleJudges{
		Without:    func(string) judge.Judge { return lenient },
		With:       func(string) judge.Judge { return taught },
		Examples:   examples,
		Transcript: transcripts,
	}
	got, err := gavel.CompareExamples(context.Background(), checks, h, judges)
	if err != nil {
		t.Fatal(err)
	}
	if got.HeldOutCases+got.SourceCases != 80 || got.HeldOutCases < 30 || got.Labels != got.HeldOutCases || got.Trials != got.HeldOutCases || got.Unjudged != 0 {
		t.Errorf("held out %d cases, %d source, %d trials, %d labels scored, %d unjudged", got.HeldOutCases, got.SourceCases, got.Trials, got.Labels, got.Unjudged)
	}
	if k := got.Without.Kappa; k == nil || *k != 0 {
		t.Errorf("kappa without examples %v, want 0", k)
	}
	if k := got.With.Kappa; k == nil || *k != 1 {
		t.Errorf("kappa with examples %v, want 1", k)
	}
	if d := got.Difference; d == nil || *d != 1 || got.DifferenceInterval == nil || got.Verdict() != gavel.ExamplesHelped {
		t.Errorf("difference %v, interval %v (%s): want 1, %q", d, got.DifferenceInterval, got.NoDifferenceInterval, gavel.ExamplesHelped)
	}
	if got.Examples != len(examples) || got.Without.Table.KappaInterval == nil {
		t.Errorf("examples %d, want %d; kappa interval without %v", got.Examples, len(examples), got.Without.Table.KappaInterval)
	}

	// An example of a held-out case would be scored on itself.
	for i := range 80 {
		if id := fmt.Sprintf("case_%02d", i); h.Holds(id) {
			judges.Examples = append(judges.Examples, gavel.Example{Source: gavel.ExampleSource{Run: "r1", Case: id, Trial: 1}})
			break
		}
	}
	if _, err := gavel.CompareExamples(context.Background(), checks, h, judges); err == nil || !strings.Contains(err.Error(), "a held-out case: it would be scored on itself") {
		t.Errorf("an example of a held-out case: %v", err)
	}
	if _, err := gavel.CompareExamples(context.Background(), checks, gavel.Holdout{Share: 1}, judges); err == nil || !strings.Contains(err.Error(), "held-out share 1") {
		t.Errorf("share 1: %v", err)
	}
}

func TestExampleCountWrote(t *testing.T) {
	for _, tc := range []struct {
		c    gavel.ExampleCount
		want string
	}{
		{gavel.ExampleCount{Disagreements: 3, Examples: 3}, "wrote 3 examples to ex.yaml, of 3 judgments people overruled"},
		{gavel.ExampleCount{Disagreements: 5, Examples: 2, Contested: 2, Unknown: 1},
			"wrote 2 examples to ex.yaml, of 5 judgments people overruled (left out: 2 where people disagree among themselves, 1 whose labels do not say the right category)"},
	} {
		if got := tc.c.Wrote("ex.yaml"); got != tc.want {
			t.Errorf("%+v.Wrote = %q, want %q", tc.c, got, tc.want)
		}
	}
}
