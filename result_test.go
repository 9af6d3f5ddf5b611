package gavel_test

import (
	"strings"
	"testing"

	"github.com/gavelhq/gavel"
	"github.com/gavelhq/gavel/judge"
)

// A trial read from a file gets the verdict its judgments make, as the
// runner would have given it: a verdict no judge gave a verdict in is an
// ERROR, never a PASS; a verdict that agrees with its judgments comes
// back as written; a trial imported without a verdict stays so.
func TestTrialRecompute(t *testing.T) {
	pass := judge.Judgment{Name: "p", Status: judge.StatusPass, Score: judge.Bool(true)}
	fail := judge.Judgment{Name: "f", Status: judge.StatusFail, Score: judge.Bool(false)}
	abstain := judge.Judgment{Name: "a", Status: judge.StatusAbstain}
	all := func(status judge.Status, reasoning string, parts ...judge.Judgment) judge.Judgment {
		return judge.Judgment{Name: "all", Composite: judge.CompositeAll, Status: status, Reasoning: reasoning, Parts: parts}
	}
	for _, tc := range []struct {
		name string
		in   judge.Judgment
		want judge.Status
		says string
	}{
		{"a forged pass", all(judge.StatusPass, "2 of 2 passed", pass, fail), judge.StatusFail, "recomputed from what it records (it said PASS): 1 of 2 failed"},
		{"a pass of abstentions", all(judge.StatusPass, "2 of 2 passed", abstain, abstain), judge.StatusError, "no judge gave a verdict: recomputed from what it records (it said PASS): all 2 judges abstained"},
		{"the runner's error of abstentions", all(judge.StatusError, "no judge gave a verdict: all 2 judges abstained", abstain, abstain), judge.StatusError, "no judge gave a verdict: all 2 judges abstained"},
		{"a genuine pass", all(judge.StatusPass, "2 of 2 passed", pass, pass), judge.StatusPass, "2 of 2 passed"},
		{"imported without a verdict", judge.Judgment{Name: "not judged", Status: judge.StatusAbstain, Reasoning: "imported"}, judge.StatusAbstain, "imported"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tr := gavel.Trial{CaseID: "c", N: 1, Verdict: tc.in}
			tr.Recompute()
			if tr.Verdict.Status != tc.want || tr.Verdict.Reasoning != tc.says && !strings.HasPrefix(tr.Verdict.Reasoning, tc.says) {
				t.Errorf("verdict %s %q, want %s %q", tr.Verdict.Status, tr.Verdict.Reasoning, tc.want, tc.says)
			}
		})
	}
}
