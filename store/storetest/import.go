package storetest

import (
	"testing"
	"time"

	"github.com/gavelhq/gavel"
	"github.com/gavelhq/gavel/judge"
	"github.com/gavelhq/gavel/store"
)

// testImportRun stores a whole run at once (gavel import): it reads back
// as a run stored trial by trial does, listed with its status and
// settings; a run refused (a trial without a number, a status that is
// not final) leaves nothing behind.
func testImportRun(t *testing.T, s store.Store) {
	ctx := ctx(t)
	c1, c2 := testCase("imported_1", "where is order 1?"), testCase("imported_2", "cancel order 2")
	unjudged := trial("imported_2", 1, trialSpec{})
	unjudged.Verdict = judge.Abstained("imported without a verdict")
	run := &gavel.Run{
		Suite: &gavel.Suite{Name: "imports", Threshold: 0.8},
		Cases: []gavel.CaseResult{
			result(c1, trial("imported_1", 1, trialSpec{}), trial("imported_1", 2, trialSpec{status: judge.StatusFail, helpfulness: 2})),
			{Case: c2, Trials: []gavel.Trial{unjudged}, Outcome: gavel.Skipped, SkipReason: "not judged"},
		},
		Started:    base,
		Stopped:    gavel.StopNotJudged,
		StopReason: "imported without verdicts",
	}
	in := runInfo("imports", base)
	in.Settings = map[string]string{store.SettingImported: "chats.jsonl (openai)"}
	ended := base.Add(time.Second)
	info, err := s.ImportRun(ctx, in, store.RunEnd{Status: store.Incomplete, Ended: ended, Run: run})
	check(t, "ImportRun", err)
	if info.ID == "" || info.Status != store.Incomplete || info.Stopped != run.Stopped {
		t.Errorf("ImportRun gave id %q, status %s, stopped %q", info.ID, info.Status, info.Stopped)
	}
	got, err := s.Run(ctx, info.ID)
	check(t, "Run", err)
	want := stored(in)
	want.ID, want.Status, want.Ended, want.Stats = info.ID, store.Incomplete, storedTime(ended), run.Stats()
	want.Stopped, want.StopReason = run.Stopped, run.StopReason
	diff(t, "Info", got.Info, want)
	diff(t, "case results", viewResults(got.Run.Cases), viewResults(run.Cases))
	if got.Info.Settings[store.SettingImported] != "chats.jsonl (openai)" || got.Info.ImportedFrom() != "chats.jsonl (openai)" {
		t.Errorf("ImportedFrom = %q", got.Info.ImportedFrom())
	}
	runs, err := s.Runs(ctx, store.RunFilter{Suite: "imports"})
	check(t, "Runs", err)
	if len(runs) != 1 || runs[0].ID != info.ID || runs[0].Status != store.Incomplete {
		t.Errorf("Runs = %+v, want the imported run, incomplete", runs)
	}

	for name, end := range map[string]store.RunEnd{
		"a trial without a number": {Status: store.Passed, Run: &gavel.Run{Cases: []gavel.CaseResult{
			result(c1, trial("imported_1", 1, trialSpec{}), trial("imported_1", 0, trialSpec{}))}}},
		"a running run": {Status: store.Running, Run: run},
		"no run":        {Status: store.Passed},
	} {
		if _, err := s.ImportRun(ctx, runInfo("refused", base), end); err == nil {
			t.Errorf("ImportRun of %s: no error", name)
		}
	}
	if runs, err := s.Runs(ctx, store.RunFilter{Suite: "refused"}); err != nil || len(runs) != 0 {
		t.Errorf("runs left by refused imports: %d, %v; want none", len(runs), err)
	}
}
