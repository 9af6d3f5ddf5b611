package storetest

import (
	"fmt"
	"testing"
	"time"

	"github.com/gavelhq/gavel"
	"github.com/gavelhq/gavel/judge"
	"github.com/gavelhq/gavel/store"
)

// testRunLifecycle creates a run, saves its trials and finishes it; its
// info says so at each step.
func testRunLifecycle(t *testing.T, s store.Store) {
	ctx := ctx(t)
	in := runInfo("support-desk", base)
	created, err := s.CreateRun(ctx, in)
	check(t, "CreateRun", err)
	if created.ID == "" {
		t.Fatal("CreateRun: no ID")
	}
	want := stored(in)
	want.ID, want.Status = created.ID, store.Running
	diff(t, "CreateRun", created, want)
	got, err := s.RunInfo(ctx, created.ID)
	check(t, "RunInfo", err)
	diff(t, "RunInfo while running", got, want)

	c1, c2 := testCase("case_001", "where is order 1?"), testCase("case_002", "cancel order 2")
	run := &gavel.Run{
		Cases: []gavel.CaseResult{
			result(c1, trial("case_001", 1, trialSpec{}), trial("case_001", 2, trialSpec{status: judge.StatusFail, helpfulness: 2})),
			result(c2, trial("case_002", 1, trialSpec{})),
		},
		Started:  base,
		Duration: 90 * time.Second,
		Models:   map[string]judge.Usage{"openai:gpt-5-mini": {InputTokens: 10, OutputTokens: 2, CostUSD: 0.5}},
	}
	for _, c := range run.Cases {
		for _, tr := range c.Trials {
			check(t, "SaveTrial", s.SaveTrial(ctx, created.ID, store.TrialRecord{Trial: tr}))
		}
	}
	ended := base.Add(90 * time.Second)
	check(t, "FinishRun", s.FinishRun(ctx, created.ID, store.RunEnd{Status: store.Failed, Ended: ended, Run: run}))

	want.Status, want.Ended, want.Stats = store.Failed, storedTime(ended), run.Stats()
	got, err = s.RunInfo(ctx, created.ID)
	check(t, "RunInfo", err)
	diff(t, "RunInfo when finished", got, want)
	if got.Stats.Cases[gavel.Flaky] != 1 || got.Stats.Trials != 3 || len(got.Stats.Criteria) != 2 {
		t.Errorf("stats: %d flaky cases, %d trials, %d criteria; want 1, 3, 2", got.Stats.Cases[gavel.Flaky], got.Stats.Trials, len(got.Stats.Criteria))
	}
}

// testRoundTrip stores a run whose trials finish out of suite order, with
// a skipped case, and reads back the same run: the same transcripts,
// verdicts and usage, cases in suite order, and what reports show of
// each case.
func testRoundTrip(t *testing.T, s store.Store) {
	ctx := ctx(t)
	info, run := storeMixedRun(t, s)
	suite := run.Suite

	got, err := s.Run(ctx, info.ID)
	check(t, "Run", err)
	wantInfo := stored(runInfo(suite.Name, base))
	wantInfo.ID, wantInfo.Status, wantInfo.Ended, wantInfo.Stats = info.ID, store.Incomplete, storedTime(info.Ended), run.Stats()
	wantInfo.Stopped, wantInfo.StopReason = run.Stopped, run.StopReason
	diff(t, "Info", got.Info, wantInfo)
	diff(t, "case results", viewResults(got.Run.Cases), viewResults(run.Cases))
	diff(t, "stats of the stored run", got.Run.Stats(), run.Stats())
	if !got.Run.Started.Equal(storedTime(run.Started)) || got.Run.Duration != run.Duration ||
		got.Run.Stopped != run.Stopped || got.Run.StopReason != run.StopReason {
		t.Errorf("run: started %v, duration %v, stopped %q (%q); want %v, %v, %q (%q)",
			got.Run.Started, got.Run.Duration, got.Run.Stopped, got.Run.StopReason, run.Started, run.Duration, run.Stopped, run.StopReason)
	}
	diff(t, "models", got.Run.Models, run.Models)
	if s := got.Run.Suite; s == nil || s.Name != suite.Name || s.Threshold != suite.Threshold {
		t.Errorf("suite: %+v, want name %q threshold %v", s, suite.Name, suite.Threshold)
	} else if got.Run.Met() != run.Met() {
		t.Errorf("Met: %v, want %v", got.Run.Met(), run.Met())
	}
}

// storeMixedRun stores an interrupted run of support-desk: four cases,
// one of them skipped and one whose trial ran a saved case version, with
// trials saved out of suite order. It returns the run's info (as
// CreateRun gave it, with the status and end FinishRun set) and the run.
func storeMixedRun(t *testing.T, s store.Store) (store.RunInfo, *gavel.Run) {
	t.Helper()
	ctx := ctx(t)
	suite := &gavel.Suite{Name: "support-desk", File: "examples/support-desk/gavel.yaml", Threshold: 0.8}
	cases := []*gavel.Case{
		testCase("case_001", "where is order 1?"),
		testCase("case_002", "cancel order 2"),
		testCase("case_003", "refund order 3"),
		testCase("case_004", "never ran"),
	}
	cases[2].Tags = nil
	suite.Cases = cases
	run := &gavel.Run{
		Suite: suite,
		Cases: []gavel.CaseResult{
			result(cases[0], trial("case_001", 1, trialSpec{}), trial("case_001", 2, trialSpec{status: judge.StatusFail, helpfulness: 1, tone: "cold"})),
			result(cases[1], errorTrial("case_002", 1)),
			result(cases[2], trial("case_003", 1, trialSpec{helpfulness: 5})),
			skipped(cases[3], "the budget ran out"),
		},
		Started:    base,
		Duration:   2 * time.Minute,
		Stopped:    gavel.StopBudget,
		StopReason: "the budget ran out",
		Models:     map[string]judge.Usage{"openai:gpt-5-mini": {InputTokens: 10, CostUSD: 0.25}},
	}
	info, err := s.CreateRun(ctx, runInfo(suite.Name, base))
	check(t, "CreateRun", err)
	key, err := s.SaveCase(ctx, store.CaseDef{Suite: suite.Name, ID: "case_003", Name: "Case case_003", Definition: []byte("id: case_003\n")})
	check(t, "SaveCase", err)
	// Trials finish in any order.
	for _, i := range []int{2, 0, 1} {
		for j := len(run.Cases[i].Trials) - 1; j >= 0; j-- {
			rec := store.TrialRecord{Trial: run.Cases[i].Trials[j]}
			if i == 2 {
				rec.CaseKey = key.Key
			}
			check(t, "SaveTrial", s.SaveTrial(ctx, info.ID, rec))
		}
	}
	ended := base.Add(2 * time.Minute)
	check(t, "FinishRun", s.FinishRun(ctx, info.ID, store.RunEnd{Status: store.Incomplete, Ended: ended, Run: run}))
	info.Status, info.Ended = store.Incomplete, ended
	return info, run
}

// testLargeTranscript stores a trial with megabytes of text: it comes
// back whole.
func testLargeTranscript(t *testing.T, s store.Store) {
	ctx := ctx(t)
	info, err := s.CreateRun(ctx, runInfo("support-desk", base))
	check(t, "CreateRun", err)
	big := trial("case_001", 1, trialSpec{big: 2 << 20})
	check(t, "SaveTrial", s.SaveTrial(ctx, info.ID, store.TrialRecord{Trial: big}))
	got, err := s.Run(ctx, info.ID)
	check(t, "Run", err)
	if len(got.Run.Cases) != 1 || len(got.Run.Cases[0].Trials) != 1 {
		t.Fatalf("got %d cases, want 1 with 1 trial", len(got.Run.Cases))
	}
	back := got.Run.Cases[0].Trials[0]
	if n, want := len(back.Transcript.FinalResponse), len(big.Transcript.FinalResponse); n != want {
		t.Errorf("final response of %d bytes, want %d", n, want)
	}
	diff(t, "trial", back, big)
}

// testSaveTrialReplaces saves a trial twice: the second replaces the
// first.
func testSaveTrialReplaces(t *testing.T, s store.Store) {
	ctx := ctx(t)
	info, err := s.CreateRun(ctx, runInfo("support-desk", base))
	check(t, "CreateRun", err)
	first := errorTrial("case_001", 1)
	second := trial("case_001", 1, trialSpec{helpfulness: 3})
	other := trial("case_001", 2, trialSpec{})
	for _, tr := range []gavel.Trial{first, other, second} {
		check(t, "SaveTrial", s.SaveTrial(ctx, info.ID, store.TrialRecord{Trial: tr}))
	}
	got, err := s.Run(ctx, info.ID)
	check(t, "Run", err)
	if len(got.Run.Cases) != 1 {
		t.Fatalf("%d cases, want 1", len(got.Run.Cases))
	}
	diff(t, "trials", got.Run.Cases[0].Trials, []gavel.Trial{second, other})
}

// testCrash creates a run and saves trials, and never finishes it: the
// run reads back as running, with its trials, by case in the order the
// cases' first trials were saved, and what they spent on each model.
func testCrash(t *testing.T, s store.Store) {
	ctx := ctx(t)
	info, saves := storeCrashedRun(t, s)
	got, err := s.Run(ctx, info.ID)
	check(t, "Run", err)
	if got.Info.Status != store.Running || !got.Info.Ended.IsZero() {
		t.Errorf("status %q, ended %v: want running, not ended", got.Info.Status, got.Info.Ended)
	}
	goal := saves[0].Trial.Transcript.Goal
	want := []resultView{
		{
			Case:    &caseView{ID: "case_002", Name: "Cancel", Tags: []string{"orders"}, Source: "cases.yaml:9", Input: goal},
			Trials:  []gavel.Trial{saves[2].Trial, saves[0].Trial},
			Outcome: gavel.Passed,
		},
		{Case: &caseView{ID: "case_001", Input: goal}, Trials: []gavel.Trial{saves[1].Trial}, Outcome: gavel.Failed},
		{Case: &caseView{ID: "case_003", Input: "where is my order?"}, Trials: []gavel.Trial{saves[3].Trial}, Outcome: gavel.Errored},
	}
	diff(t, "case results of a crashed run", viewResults(got.Run.Cases), want, equateEmpty)
	// No FinishRun summed its table of models: it is its trials' sum.
	var trials gavel.Run
	for _, rec := range saves {
		trials.Cases = append(trials.Cases, gavel.CaseResult{Trials: []gavel.Trial{rec.Trial}})
	}
	diff(t, "models of a crashed run", got.Run.Models, trials.ModelUsage())
}

// storeCrashedRun creates a run of support-desk and saves trials of three
// cases, one of them from a saved case version, and never finishes it. It
// returns the run's info and the trials, in the order they were saved:
// case_002#2, case_001#1, case_002#1, case_003#1.
func storeCrashedRun(t *testing.T, s store.Store) (store.RunInfo, []store.TrialRecord) {
	t.Helper()
	ctx := ctx(t)
	info, err := s.CreateRun(ctx, runInfo("support-desk", base))
	check(t, "CreateRun", err)
	v, err := s.SaveCase(ctx, store.CaseDef{Suite: "support-desk", ID: "case_002", Name: "Cancel", Tags: []string{"orders"},
		Definition: []byte("id: case_002\n"), Source: "cases.yaml:9"})
	check(t, "SaveCase", err)
	saves := []store.TrialRecord{
		{Trial: trial("case_002", 2, trialSpec{}), CaseKey: v.Key},
		{Trial: trial("case_001", 1, trialSpec{status: judge.StatusFail})},
		{Trial: trial("case_002", 1, trialSpec{}), CaseKey: v.Key},
		{Trial: errorTrial("case_003", 1)},
	}
	for _, rec := range saves {
		check(t, "SaveTrial", s.SaveTrial(ctx, info.ID, rec))
	}
	return info, saves
}

// testRuns lists runs, newest first, with each filter.
func testRuns(t *testing.T, s store.Store) {
	ctx := ctx(t)
	type spec struct {
		suite, branch string
		status        store.Status
	}
	specs := []spec{
		{"support-desk", "main", store.Passed},
		{"support-desk", "main", store.Failed},
		{"billing", "main", store.Passed},
		{"support-desk", "feature", store.Incomplete},
		{"support-desk", "main", store.Running},
		{"billing", "feature", store.Errored},
	}
	var runs []store.RunInfo // oldest first
	for i, sp := range specs {
		in := runInfo(sp.suite, base.Add(time.Duration(i)*time.Hour))
		in.GitBranch = sp.branch
		info, err := s.CreateRun(ctx, in)
		check(t, "CreateRun", err)
		if sp.status != store.Running {
			ended := in.Started.Add(time.Minute)
			run := &gavel.Run{}
			if sp.status == store.Incomplete {
				run.Stopped, run.StopReason = gavel.StopInterrupted, "interrupted (SIGTERM)"
			}
			check(t, "FinishRun", s.FinishRun(ctx, info.ID, store.RunEnd{Status: sp.status, Ended: ended, Run: run}))
			info.Status, info.Ended, info.Stats = sp.status, storedTime(ended), run.Stats()
			info.Stopped, info.StopReason = run.Stopped, run.StopReason
		}
		runs = append(runs, info)
	}
	pick := func(idx ...int) []store.RunInfo {
		var out []store.RunInfo
		for _, i := range idx {
			out = append(out, runs[i])
		}
		return out
	}
	tests := []struct {
		name   string
		filter store.RunFilter
		want   []store.RunInfo
	}{
		{"all", store.RunFilter{}, pick(5, 4, 3, 2, 1, 0)},
		{"suite", store.RunFilter{Suite: "support-desk"}, pick(4, 3, 1, 0)},
		{"status", store.RunFilter{Status: store.Passed}, pick(2, 0)},
		{"branch", store.RunFilter{Branch: "feature"}, pick(5, 3)},
		{"suite and branch", store.RunFilter{Suite: "support-desk", Branch: "main"}, pick(4, 1, 0)},
		{"limit", store.RunFilter{Limit: 2}, pick(5, 4)},
		{"before", store.RunFilter{Before: runs[3].Started}, pick(2, 1, 0)},
		{"next page", store.RunFilter{Before: runs[4].Started, Limit: 2}, pick(3, 2)},
		{"none", store.RunFilter{Suite: "no-such-suite"}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := s.Runs(ctx, tt.filter)
			check(t, "Runs", err)
			diff(t, fmt.Sprintf("Runs(%+v)", tt.filter), got, tt.want, equateEmpty)
		})
	}
}

// testRunsDefaultLimit lists runs without a limit: 50 come back.
func testRunsDefaultLimit(t *testing.T, s store.Store) {
	ctx := ctx(t)
	for i := range 55 {
		_, err := s.CreateRun(ctx, runInfo("support-desk", base.Add(time.Duration(i)*time.Second)))
		check(t, "CreateRun", err)
	}
	got, err := s.Runs(ctx, store.RunFilter{})
	check(t, "Runs", err)
	if len(got) != 50 {
		t.Errorf("%d runs, want 50", len(got))
	}
}

// testTimes checks the times a store gives back: in UTC, to the
// microsecond, and a start of now for a run created without one. Run IDs
// are unique, and safe in a URL and a shell.
func testTimes(t *testing.T, s store.Store) {
	ctx := ctx(t)
	before := time.Now()
	info, err := s.CreateRun(ctx, store.RunInfo{Suite: "support-desk"})
	check(t, "CreateRun", err)
	if info.Started.Before(before.Add(-time.Second)) || info.Started.After(time.Now().Add(time.Second)) {
		t.Errorf("started %v, want about now (%v)", info.Started, before)
	}
	ids := map[string]bool{}
	for range 20 {
		info, err := s.CreateRun(ctx, runInfo("support-desk", base))
		check(t, "CreateRun", err)
		if ids[info.ID] {
			t.Errorf("run ID %s given twice", info.ID)
		}
		ids[info.ID] = true
		for _, r := range info.ID {
			if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' || r == '_') {
				t.Errorf("run ID %q has %q: want letters, digits, - and _ only", info.ID, r)
				break
			}
		}
		got, err := s.RunInfo(ctx, info.ID)
		check(t, "RunInfo", err)
		if got.Started.Location() != time.UTC || !got.Started.Equal(base.Truncate(time.Microsecond)) {
			t.Errorf("started %v, want %v in UTC", got.Started, base.Truncate(time.Microsecond).UTC())
		}
	}
}

// testNotFound asks for runs, trials and cases that are not there.
func testNotFound(t *testing.T, s store.Store) {
	ctx := ctx(t)
	info, err := s.CreateRun(ctx, runInfo("support-desk", base))
	check(t, "CreateRun", err)
	const missing = "20991231-235959-ffffff"
	tests := []struct {
		name string
		call func() error
	}{
		{"RunInfo", func() error { _, err := s.RunInfo(ctx, missing); return err }},
		{"Run", func() error { _, err := s.Run(ctx, missing); return err }},
		{"SaveTrial", func() error {
			return s.SaveTrial(ctx, missing, store.TrialRecord{Trial: trial("case_001", 1, trialSpec{})})
		}},
		{"FinishRun", func() error {
			return s.FinishRun(ctx, missing, store.RunEnd{Status: store.Passed, Run: &gavel.Run{}})
		}},
		{"RunVerdicts", func() error { _, err := s.RunVerdicts(ctx, missing); return err }},
		{"RunCase of a missing run", func() error { _, err := s.RunCase(ctx, missing, "case_001"); return err }},
		{"RunCase of a missing case", func() error { _, err := s.RunCase(ctx, info.ID, "case_404"); return err }},
		{"Labels", func() error { _, err := s.Labels(ctx, missing); return err }},
		{"AddLabel of a missing run", func() error {
			_, err := s.AddLabel(ctx, store.Label{RunID: missing, CaseID: "case_001", Trial: 1, Verdict: "correct"})
			return err
		}},
		{"AddLabel of a missing trial", func() error {
			_, err := s.AddLabel(ctx, store.Label{RunID: info.ID, CaseID: "case_001", Trial: 1, Verdict: "correct"})
			return err
		}},
		{"CaseHistory", func() error { _, err := s.CaseHistory(ctx, "support-desk", "case_404"); return err }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) { wantNotFound(t, tt.name, tt.call()) })
	}
}

// testGitDirty stores runs made from a tree with changes not committed,
// and from a clean one: each reads back as it was stored, by RunInfo,
// Runs and Run, and an imported run keeps it too.
func testGitDirty(t *testing.T, s store.Store) {
	ctx := ctx(t)
	want := map[string]bool{}
	for i, dirty := range []bool{true, false} {
		in := runInfo("support-desk", base.Add(time.Duration(i)*time.Minute))
		in.GitDirty = dirty
		info, err := s.CreateRun(ctx, in)
		check(t, "CreateRun", err)
		want[info.ID] = dirty
	}
	in := runInfo("support-desk", base.Add(time.Hour))
	in.GitDirty = true
	imported, err := s.ImportRun(ctx, in, store.RunEnd{Status: store.Passed, Ended: base.Add(2 * time.Hour), Run: &gavel.Run{}})
	check(t, "ImportRun", err)
	want[imported.ID] = true
	for id, dirty := range want {
		info, err := s.RunInfo(ctx, id)
		check(t, "RunInfo", err)
		if info.GitDirty != dirty {
			t.Errorf("RunInfo(%s).GitDirty = %v, want %v", id, info.GitDirty, dirty)
		}
		run, err := s.Run(ctx, id)
		check(t, "Run", err)
		if run.Info.GitDirty != dirty {
			t.Errorf("Run(%s).Info.GitDirty = %v, want %v", id, run.Info.GitDirty, dirty)
		}
	}
	runs, err := s.Runs(ctx, store.RunFilter{})
	check(t, "Runs", err)
	if len(runs) != len(want) {
		t.Fatalf("Runs gave %d runs, want %d", len(runs), len(want))
	}
	for _, r := range runs {
		if r.GitDirty != want[r.ID] {
			t.Errorf("Runs: %s.GitDirty = %v, want %v", r.ID, r.GitDirty, want[r.ID])
		}
	}
}

// testRunLabels stores runs with the label a person gave them, and one
// without: each reads back as it was stored, by RunInfo, Run and Runs,
// from CreateRun, ImportRun and a shard's JoinRun alike.
func testRunLabels(t *testing.T, s store.Store) {
	ctx := ctx(t)
	want := map[string]string{}
	for i, label := range []string{"prompt v2 · <b>bold</b>", ""} {
		in := runInfo("support-desk", base.Add(time.Duration(i)*time.Minute))
		in.Label = label
		info, err := s.CreateRun(ctx, in)
		check(t, "CreateRun", err)
		want[info.ID] = label
	}
	in := runInfo("support-desk", base.Add(time.Hour))
	in.Label = "imported from last week"
	imported, err := s.ImportRun(ctx, in, store.RunEnd{Status: store.Passed, Ended: base.Add(2 * time.Hour), Run: &gavel.Run{}})
	check(t, "ImportRun", err)
	want[imported.ID] = in.Label
	if sh, ok := s.(store.Sharder); ok {
		in := runInfo("support-desk", base.Add(3*time.Hour))
		in.Label = "sharded"
		joined, err := sh.JoinRun(ctx, "ci-1234", in, store.Shard{Index: 1, Count: 2, Selection: "all"})
		check(t, "JoinRun", err)
		want[joined.Info.ID] = in.Label
	}
	for id, label := range want {
		info, err := s.RunInfo(ctx, id)
		check(t, "RunInfo", err)
		if info.Label != label {
			t.Errorf("RunInfo(%s).Label = %q, want %q", id, info.Label, label)
		}
		run, err := s.RunVerdicts(ctx, id)
		check(t, "RunVerdicts", err)
		if run.Info.Label != label {
			t.Errorf("RunVerdicts(%s).Info.Label = %q, want %q", id, run.Info.Label, label)
		}
	}
	runs, err := s.Runs(ctx, store.RunFilter{})
	check(t, "Runs", err)
	if len(runs) != len(want) {
		t.Fatalf("Runs gave %d runs, want %d", len(runs), len(want))
	}
	for _, r := range runs {
		if r.Label != want[r.ID] {
			t.Errorf("Runs: %s.Label = %q, want %q", r.ID, r.Label, want[r.ID])
		}
	}
}
