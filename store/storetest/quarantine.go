package storetest

import (
	"testing"
	"time"

	"github.com/gavelhq/gavel"
	"github.com/gavelhq/gavel/store"
)

// testQuarantine: a case quarantined by hand is listed until released,
// and a run's cases left out of its gate are read back so.
func testQuarantine(t *testing.T, s store.Store) {
	q, ok := s.(store.Quarantines)
	if !ok {
		t.Skipf("%T keeps no quarantines", s)
	}
	ctx := ctx(t)
	check(t, "Quarantine", q.Quarantine(ctx, store.Quarantine{Suite: "desk", CaseID: "c1", Reason: "flips on the date", By: "ada"}))
	check(t, "Quarantine", q.Quarantine(ctx, store.Quarantine{Suite: "desk", CaseID: "c1", Reason: "flips on the weekday", By: "ed"}))
	check(t, "Quarantine", q.Quarantine(ctx, store.Quarantine{Suite: "other", CaseID: "c9", Reason: "r", By: "ed"}))
	list, err := q.Quarantined(ctx, "desk")
	check(t, "Quarantined", err)
	if len(list) != 1 || list[0].CaseID != "c1" || list[0].Reason != "flips on the weekday" || list[0].By != "ed" || list[0].Created.IsZero() {
		t.Errorf("Quarantined(desk) = %+v", list)
	}
	if all, _ := q.Quarantined(ctx, ""); len(all) != 2 {
		t.Errorf("Quarantined() = %+v, want both suites'", all)
	}
	check(t, "Release", q.Release(ctx, "desk", "c1"))
	wantNotFound(t, "Release again", q.Release(ctx, "desk", "c1"))
	if list, _ := q.Quarantined(ctx, "desk"); len(list) != 0 {
		t.Errorf("after Release: %+v", list)
	}

	info, err := s.CreateRun(ctx, runInfo("desk", base))
	check(t, "CreateRun", err)
	tr := trial("c1", 1, trialSpec{})
	check(t, "SaveTrial", s.SaveTrial(ctx, info.ID, store.TrialRecord{Trial: tr}))
	run := &gavel.Run{Cases: []gavel.CaseResult{{Case: &gavel.Case{ID: "c1"}, Trials: []gavel.Trial{tr}, Quarantined: "flips on the weekday"}}}
	run.Cases[0].Summarize()
	check(t, "FinishRun", s.FinishRun(ctx, info.ID, store.RunEnd{Status: store.Passed, Ended: base.Add(time.Minute), Run: run}))
	stored, err := s.Run(ctx, info.ID)
	check(t, "Run", err)
	if got := stored.Run.Cases[0].Quarantined; got != "flips on the weekday" {
		t.Errorf("the run's case read back quarantined %q", got)
	}
}
