package gavel_test

import (
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/gavelhq/gavel"
	"github.com/gavelhq/gavel/judge"
)

// graded returns a judgment named name with a score of v on 1..10,
// passing at 5 and above.
func graded(name string, v float64) judge.Judgment {
	s, err := judge.Number(v, 1, 10)
	if err != nil {
		panic(err)
	}
	j := judge.Judgment{Name: name, Status: judge.StatusFail, Score: s}
	if v >= 5 {
		j.Status = judge.StatusPass
	}
	return j
}

// group returns a composite of parts, as judge.All builds one.
func group(name string, parts ...judge.Judgment) judge.Judgment {
	return judge.Judgment{Name: name, Status: judge.StatusPass, Score: judge.Unit(1), Parts: parts}
}

// runOf returns a run of one case per element of verdicts, each with a
// trial per verdict.
func runOf(verdicts ...[]judge.Judgment) *gavel.Run {
	run := &gavel.Run{}
	for i, vs := range verdicts {
		cr := gavel.CaseResult{Case: &gavel.Case{ID: string(rune('a' + i))}}
		for n, v := range vs {
			cr.Trials = append(cr.Trials, gavel.Trial{N: n + 1, Verdict: v})
		}
		cr.Summarize()
		run.Cases = append(run.Cases, cr)
	}
	return run
}

func TestStatsCriteria(t *testing.T) {
	label, err := judge.Category("tie", []judge.Label{{Name: "loss", Value: 0}, {Name: "tie", Value: 0.5}, {Name: "win", Value: 1}})
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		run  *gavel.Run
		want []gavel.CriterionStat
	}{
		{
			name: "no trials",
			run:  &gavel.Run{Cases: []gavel.CaseResult{{Outcome: gavel.Skipped}}},
		},
		{
			name: "a verdict that is a graded judgment",
			run:  runOf([]judge.Judgment{graded("tone", 10)}),
			want: []gavel.CriterionStat{{Name: "tone", Count: 1, Mean: 1, Min: 1}},
		},
		{
			name: "a rubric's criteria count, its total and the composites above it do not",
			run: runOf([]judge.Judgment{group("tiered",
				judge.Verdict(true, "called"),
				group("quality", graded("helpfulness", 10), graded("accuracy", 1)),
			)}),
			want: []gavel.CriterionStat{
				{Name: "accuracy", Count: 1, Mean: 0, Min: 0},
				{Name: "helpfulness", Count: 1, Mean: 1, Min: 1},
			},
		},
		{
			name: "the same name across trials and cases is one criterion",
			run: runOf(
				[]judge.Judgment{graded("helpfulness", 10), graded("helpfulness", 1)},
				[]judge.Judgment{group("all", graded("helpfulness", 5.5))},
			),
			want: []gavel.CriterionStat{{Name: "helpfulness", Count: 3, Mean: 0.5, Min: 0}},
		},
		{
			name: "twice in one trial counts twice",
			run:  runOf([]judge.Judgment{group("all", graded("accuracy", 10), graded("accuracy", 7.75))}),
			want: []gavel.CriterionStat{{Name: "accuracy", Count: 2, Mean: 0.875, Min: 0.75}},
		},
		{
			name: "jurors count, with categorical scores",
			run: runOf([]judge.Judgment{{Name: "jury", Status: judge.StatusPass, Score: judge.Unit(0.75), DecidedBy: "average",
				Parts: []judge.Judgment{graded("juror 1", 10), {Name: "pairwise", Status: judge.StatusPass, Score: label}}}}),
			want: []gavel.CriterionStat{
				{Name: "juror 1", Count: 1, Mean: 1, Min: 1},
				{Name: "pairwise", Count: 1, Mean: 0.5, Min: 0.5},
			},
		},
		{
			name: "a soft judge's failure counts with its own score",
			run: runOf([]judge.Judgment{{Name: "tone", Status: judge.StatusPass, Reasoning: "soft finding: curt",
				Parts: []judge.Judgment{graded("tone", 1)}}}),
			want: []gavel.CriterionStat{{Name: "tone", Count: 1, Mean: 0, Min: 0}},
		},
		{
			name: "rounds name criteria of their own",
			run:  runOf([]judge.Judgment{group("all", graded("round 1: tone", 10), graded("round 2: tone", 1))}),
			want: []gavel.CriterionStat{
				{Name: "round 1: tone", Count: 1, Mean: 1, Min: 1},
				{Name: "round 2: tone", Count: 1, Mean: 0, Min: 0},
			},
		},
		{
			name: "left out: booleans, no score, no name, abstentions, errors",
			run: runOf([]judge.Judgment{group("all",
				judge.Judgment{Name: "forbidden_tools cancel_order", Status: judge.StatusFail, Score: judge.Bool(false)},
				judge.Judgment{Name: "unscored", Status: judge.StatusPass},
				graded("", 3),
				judge.Judgment{Name: "abstained", Status: judge.StatusAbstain, Score: judge.Unit(1)},
				judge.Judgment{Name: "errored", Status: judge.StatusError, Score: judge.Unit(1)},
			)}),
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := tc.run.Stats().Criteria
			if diff := cmp.Diff(tc.want, got, cmpopts.EquateApprox(0, 1e-9), cmpopts.IgnoreFields(gavel.CriterionStat{}, "Interval")); diff != "" {
				t.Errorf("criteria (-want +got):\n%s", diff)
			}
		})
	}
}

// Flaky cases are listed by id in suite order, a result without its Case
// by its trials' case id.
func TestStatsFlaky(t *testing.T) {
	pass, fail := judge.Verdict(true, "ok"), judge.Verdict(false, "no")
	run := runOf(
		[]judge.Judgment{pass, fail},
		[]judge.Judgment{pass, pass},
		[]judge.Judgment{fail, pass},
	)
	run.Cases[2].Case = nil
	for i := range run.Cases[2].Trials {
		run.Cases[2].Trials[i].CaseID = "from-trials"
	}
	stats := run.Stats()
	if diff := cmp.Diff([]string{"a", "from-trials"}, stats.Flaky); diff != "" {
		t.Errorf("flaky (-want +got):\n%s", diff)
	}
	if got := stats.Cases[gavel.Flaky]; got != 2 {
		t.Errorf("%d cases counted FLAKY, want 2", got)
	}
}

// Stats carry a copy of the run's usage by model.
func TestStatsModels(t *testing.T) {
	run := runOf([]judge.Judgment{judge.Verdict(true, "ok")})
	if got := run.Stats().Models; got != nil {
		t.Errorf("models %v for a run without them, want nil", got)
	}
	run.Models = map[string]judge.Usage{"openai:gpt-5-mini": {InputTokens: 100, CostUSD: 0.01}}
	stats := run.Stats()
	if diff := cmp.Diff(run.Models, stats.Models); diff != "" {
		t.Errorf("models (-run +stats):\n%s", diff)
	}
	stats.Models["other"] = judge.Usage{}
	if _, ok := run.Models["other"]; ok {
		t.Errorf("changing the stats' models changed the run's")
	}
}

func TestStatsPassAtK(t *testing.T) {
	pass, fail := judge.Verdict(true, "ok"), judge.Verdict(false, "no")
	run := runOf(
		[]judge.Judgment{pass, pass, pass},
		[]judge.Judgment{pass, fail, fail},
	)
	stats := run.Stats()
	// b: pass@2 = 1 - C(2,2)/C(3,2) = 2/3, pass^2 = 0; pass@3 = 1, pass^3 = 0.
	want := gavel.Stats{PassRate: new((1 + 1.0/3) / 2), PassAtK: []float64{(1 + 1.0/3) / 2, (1 + 2.0/3) / 2, 1}, PassHatK: []float64{(1 + 1.0/3) / 2, 0.5, 0.5}}
	got := gavel.Stats{PassRate: stats.PassRate, PassAtK: stats.PassAtK, PassHatK: stats.PassHatK}
	if diff := cmp.Diff(want, got, cmpopts.EquateApprox(0, 1e-9)); diff != "" {
		t.Errorf("pass rates (-want +got):\n%s", diff)
	}
}

// The pass rate is over the cases that ran: skipped cases neither pass nor
// fail, and trials count only those that ran.
func TestStatsPassRateOverCasesThatRan(t *testing.T) {
	pass, fail := judge.Verdict(true, "ok"), judge.Verdict(false, "no")
	run := runOf([]judge.Judgment{pass}, []judge.Judgment{fail}, nil, nil, []judge.Judgment{pass, fail})
	for _, i := range []int{2, 3} {
		run.Cases[i].SkipReason = "the budget was spent"
	}
	stats := run.Stats()
	want := gavel.Stats{PassRate: new((1 + 0 + 0.5) / 3), Trials: 4, Cases: map[gavel.Outcome]int{gavel.Passed: 1, gavel.Failed: 1, gavel.Skipped: 2, gavel.Flaky: 1}}
	got := gavel.Stats{PassRate: stats.PassRate, Trials: stats.Trials, Cases: stats.Cases}
	if diff := cmp.Diff(want, got, cmpopts.EquateApprox(0, 1e-9)); diff != "" {
		t.Errorf("stats of 3 cases judged and 2 skipped (-want +got):\n%s", diff)
	}
}

// A run passes only when it ran every selected trial and reached its
// threshold: an incomplete run does not pass, whatever its pass rate.
func TestRunPassed(t *testing.T) {
	pass, fail := judge.Verdict(true, "ok"), judge.Verdict(false, "no")
	tests := []struct {
		name              string
		run               *gavel.Run
		stopped           gavel.StopCause
		met, passed, done bool
	}{
		{"complete, every case passed", runOf([]judge.Judgment{pass}), "", true, true, true},
		{"complete, below the threshold", runOf([]judge.Judgment{fail}), "", false, false, true},
		{"interrupted after passing cases", runOf([]judge.Judgment{pass}, nil), gavel.StopInterrupted, true, false, false},
		{"out of budget after passing cases", runOf([]judge.Judgment{pass}, nil), gavel.StopBudget, true, false, false},
		{"stopped by fail-fast", runOf([]judge.Judgment{fail}, nil), gavel.StopFailFast, false, false, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			tc.run.Stopped = tc.stopped
			if got := tc.run.Met(); got != tc.met {
				t.Errorf("Met() = %v, want %v", got, tc.met)
			}
			if got := tc.run.Complete(); got != tc.done {
				t.Errorf("Complete() = %v, want %v", got, tc.done)
			}
			if got := tc.run.Passed(); got != tc.passed {
				t.Errorf("Passed() = %v, want %v", got, tc.passed)
			}
		})
	}
}

// A trial's cause is the cause of an ERROR in its verdict: a cancellation
// wins over an unreachable service; a trial that is not ERROR has none.
func TestTrialCause(t *testing.T) {
	unreachable := judge.Judgment{Name: "rubric", Status: judge.StatusError, Cause: judge.CauseUnreachable}
	cancelled := judge.Judgment{Name: "traits", Status: judge.StatusError, Cause: judge.CauseCancelled}
	malformed := judge.Judgment{Name: "rubric", Status: judge.StatusError, Reasoning: "malformed answer"}
	errored := func(parts ...judge.Judgment) judge.Judgment {
		return judge.Judgment{Name: "all", Status: judge.StatusError, Parts: parts}
	}
	tests := []struct {
		name    string
		verdict judge.Judgment
		want    judge.Cause
	}{
		{"a pass", judge.Verdict(true, "ok"), ""},
		{"a fail beside an unreachable judge", judge.Judgment{Status: judge.StatusFail, Parts: []judge.Judgment{judge.Verdict(false, "no"), unreachable}}, ""},
		{"the conversation could not reach the agent", judge.Judgment{Name: "conversation", Status: judge.StatusError, Cause: judge.CauseUnreachable}, judge.CauseUnreachable},
		{"a judge deep in the tree could not be reached", errored(judge.Verdict(true, "ok"), errored(unreachable)), judge.CauseUnreachable},
		{"a judge answered badly", errored(malformed), ""},
		{"a cut judge beside an unreachable one", errored(unreachable, cancelled), judge.CauseCancelled},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := (gavel.Trial{Verdict: tc.verdict}).Cause(); got != tc.want {
				t.Errorf("Cause() = %q, want %q", got, tc.want)
			}
		})
	}
}

// trialsOf returns n verdicts, the first passed of them passing and the
// rest failing.
func trialsOf(passed, n int) []judge.Judgment {
	out := make([]judge.Judgment, n)
	for i := range out {
		out[i] = judge.Verdict(i < passed, "")
	}
	return out
}

// A pass rate exactly at the threshold meets it, whatever rounding the
// mean of the cases' rates went through: (0.7 + 0.7 + 0.7) / 3 is
// 0.6999999999999998 in floating point.
func TestRunMetAtItsThreshold(t *testing.T) {
	tests := []struct {
		name      string
		cases     [][]judge.Judgment
		threshold float64
		met       bool
	}{
		{"7 of 10 trials in each of 3 cases, at 0.7", [][]judge.Judgment{trialsOf(7, 10), trialsOf(7, 10), trialsOf(7, 10)}, 0.7, true},
		{"7 of 10 trials of one case, at 0.7", [][]judge.Judgment{trialsOf(7, 10)}, 0.7, true},
		{"7 of 10 cases, at 0.7", [][]judge.Judgment{
			trialsOf(1, 1), trialsOf(1, 1), trialsOf(1, 1), trialsOf(1, 1), trialsOf(1, 1), trialsOf(1, 1), trialsOf(1, 1),
			trialsOf(0, 1), trialsOf(0, 1), trialsOf(0, 1)}, 0.7, true},
		{"3 of 5 and 4 of 5, at 0.7", [][]judge.Judgment{trialsOf(3, 5), trialsOf(4, 5)}, 0.7, true},
		{"2 of 3, at 0.7", [][]judge.Judgment{trialsOf(2, 3)}, 0.7, false},
		{"7 of 10 trials in each of 3 cases, at 0.71", [][]judge.Judgment{trialsOf(7, 10), trialsOf(7, 10), trialsOf(7, 10)}, 0.71, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			run := runOf(tc.cases...)
			run.Suite = &gavel.Suite{Threshold: tc.threshold}
			if got := run.Met(); got != tc.met {
				t.Errorf("Met() = %v at pass rate %v and threshold %v, want %v", got, *run.Stats().PassRate, tc.threshold, tc.met)
			}
			if got := run.Passed(); got != tc.met {
				t.Errorf("Passed() = %v, want %v", got, tc.met)
			}
		})
	}
}

// A run is unreachable only when every trial that ran (but those a
// cancellation cut short) could not reach a service: one trial that did
// is enough for the run to have reached them.
func TestRunUnreachable(t *testing.T) {
	unreachable := judge.Judgment{Name: "conversation", Status: judge.StatusError, Cause: judge.CauseUnreachable}
	cancelled := judge.Judgment{Name: "conversation", Status: judge.StatusError, Cause: judge.CauseCancelled}
	malformed := judge.Judgment{Name: "rubric", Status: judge.StatusError, Reasoning: "malformed answer"}
	pass, fail := judge.Verdict(true, "ok"), judge.Verdict(false, "no")
	tests := []struct {
		name  string
		cases [][]judge.Judgment
		want  bool
	}{
		{"no trial ran", [][]judge.Judgment{nil}, false},
		{"every trial unreachable", [][]judge.Judgment{{unreachable, unreachable}, {unreachable}}, true},
		{"unreachable, and the rest cancelled", [][]judge.Judgment{{unreachable, cancelled}}, true},
		{"only cancelled trials", [][]judge.Judgment{{cancelled}}, false},
		{"one trial passed among unreachable ones", [][]judge.Judgment{{unreachable, unreachable}, {pass}}, false},
		{"one trial failed among unreachable ones", [][]judge.Judgment{{unreachable, fail}}, false},
		{"one judge answered badly", [][]judge.Judgment{{unreachable}, {malformed}}, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := runOf(tc.cases...).Unreachable(); got != tc.want {
				t.Errorf("Unreachable() = %v, want %v", got, tc.want)
			}
		})
	}
}

// A run in which no trial was judged has no pass rate: its JSON says
// null, it has no pass@k nor pass^k, and it does not meet its threshold,
// however low, so no gate goes green on it. A trial whose verdict
// abstained (imported without a verdict) was not judged: it counts in no
// pass rate, and a case's rate is over its judged trials.
func TestStatsNothingJudged(t *testing.T) {
	pass := judge.Verdict(true, "ok")
	unjudged := judge.Judgment{Name: "not judged", Status: judge.StatusAbstain, Reasoning: "imported without a verdict"}
	caseOf := func(outcome gavel.Outcome, verdicts ...judge.Judgment) gavel.CaseResult {
		cr := gavel.CaseResult{Case: &gavel.Case{ID: "c"}, Outcome: outcome}
		for n, v := range verdicts {
			cr.Trials = append(cr.Trials, gavel.Trial{CaseID: "c", N: n + 1, Verdict: v})
		}
		return cr
	}
	tests := []struct {
		name     string
		cases    []gavel.CaseResult
		passRate string // as JSON
		passHatK string // as JSON, "" when absent
		met      bool
	}{
		{"imported without verdicts", []gavel.CaseResult{caseOf(gavel.Skipped, unjudged), caseOf(gavel.Skipped, unjudged, unjudged)}, "null", "", false},
		{"every case skipped", []gavel.CaseResult{caseOf(gavel.Skipped), caseOf(gavel.Skipped)}, "null", "", false},
		{"no case", nil, "null", "", false},
		{"a verdict beside a trial not judged", []gavel.CaseResult{caseOf(gavel.Passed, pass, unjudged)}, "1", "[1]", true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			run := &gavel.Run{Suite: &gavel.Suite{Threshold: 0.01}, Cases: tc.cases}
			data, err := json.Marshal(run.Stats())
			if err != nil {
				t.Fatal(err)
			}
			var got map[string]json.RawMessage
			if err := json.Unmarshal(data, &got); err != nil {
				t.Fatal(err)
			}
			if rate := string(got["pass_rate"]); rate != tc.passRate {
				t.Errorf("pass_rate = %s, want %s", rate, tc.passRate)
			}
			if hat := string(got["pass_hat_k"]); hat != tc.passHatK {
				t.Errorf("pass_hat_k = %q, want %q", hat, tc.passHatK)
			}
			if met := run.Met(); met != tc.met {
				t.Errorf("Met() = %v, want %v", met, tc.met)
			}
			if passed := run.Passed(); passed != tc.met {
				t.Errorf("Passed() = %v, want %v (the run is complete)", passed, tc.met)
			}
		})
	}
}
