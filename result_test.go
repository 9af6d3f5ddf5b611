package gavel_test

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/gavelhq/gavel"
	"github.com/gavelhq/gavel/judge"
)

// A case's outcome sums up its trials; a trial that abstained (no judge
// had anything to say) is no verdict, and is left out as every aggregate
// leaves an ABSTAIN out: a case whose every trial abstained was not
// judged, and is SKIPPED, never PASS.
func TestSummarize(t *testing.T) {
	pass, fail := judge.Verdict(true, "ok"), judge.Verdict(false, "no")
	errored := judge.Errored("the judge's model could not be reached")
	abstained := judge.Abstained("imported from openai without a verdict: gavel rejudge judges it")
	tests := []struct {
		name       string
		verdicts   []judge.Judgment
		want       gavel.Outcome
		wantReason string
	}{
		{"no trial", nil, gavel.Skipped, "the budget was spent"},
		{"every trial passed", []judge.Judgment{pass, pass}, gavel.Passed, ""},
		{"a trial failed", []judge.Judgment{fail, fail}, gavel.Failed, ""},
		{"some passed, some failed", []judge.Judgment{pass, fail}, gavel.Flaky, ""},
		{"an error and passes", []judge.Judgment{pass, errored}, gavel.Errored, ""},
		{"one trial abstained", []judge.Judgment{abstained}, gavel.Skipped,
			"not judged: no judge gave a verdict (imported from openai without a verdict: gavel rejudge judges it)"},
		{"every trial abstained, saying nothing", []judge.Judgment{{Status: judge.StatusAbstain}, {Status: judge.StatusAbstain}}, gavel.Skipped,
			"not judged: no judge gave a verdict"},
		{"a pass and an abstention", []judge.Judgment{abstained, pass}, gavel.Passed, ""},
		{"a fail and an abstention", []judge.Judgment{fail, abstained}, gavel.Failed, ""},
		{"an error and an abstention", []judge.Judgment{abstained, errored}, gavel.Errored, ""},
		{"a pass, a fail and an abstention", []judge.Judgment{pass, abstained, fail}, gavel.Flaky, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			cr := gavel.CaseResult{Case: &gavel.Case{ID: "c0000"}, SkipReason: "the budget was spent"}
			for i, v := range tc.verdicts {
				cr.Trials = append(cr.Trials, gavel.Trial{CaseID: "c0000", N: i + 1, Verdict: v})
			}
			cr.Summarize()
			if cr.Outcome != tc.want || cr.SkipReason != tc.wantReason {
				t.Errorf("got %s (%q), want %s (%q)", cr.Outcome, cr.SkipReason, tc.want, tc.wantReason)
			}
		})
	}
}

// A trial that abstained counts in no pass rate: a case's is over its
// trials with a verdict, and a case with none has none, as a skipped case.
func TestPassRateLeavesAbstentionsOut(t *testing.T) {
	pass, fail := judge.Verdict(true, "ok"), judge.Verdict(false, "no")
	abstained := judge.Abstained("not judged")
	run := runOf(
		[]judge.Judgment{pass, abstained},
		[]judge.Judgment{abstained},
		[]judge.Judgment{fail, pass, abstained},
	)
	tests := []struct {
		index int
		rate  float64
		ok    bool
	}{{0, 1, true}, {1, 0, false}, {2, 0.5, true}}
	for _, tc := range tests {
		rate, ok := run.Cases[tc.index].PassRate()
		if rate != tc.rate || ok != tc.ok {
			t.Errorf("case %d: PassRate() = %v, %v; want %v, %v", tc.index, rate, ok, tc.rate, tc.ok)
		}
	}
	stats := run.Stats()
	want := gavel.Stats{PassRate: new((1 + 0.5) / 2), Trials: 6, PassAtK: []float64{0.75}, PassHatK: []float64{0.75},
		Cases: map[gavel.Outcome]int{gavel.Passed: 1, gavel.Skipped: 1, gavel.Flaky: 1}}
	got := gavel.Stats{PassRate: stats.PassRate, Trials: stats.Trials, PassAtK: stats.PassAtK, PassHatK: stats.PassHatK, Cases: stats.Cases}
	if diff := cmp.Diff(want, got, cmpopts.EquateApprox(0, 1e-9)); diff != "" {
		t.Errorf("stats (-want +got):\n%s", diff)
	}
}

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
