package storetest

import (
	"testing"
	"time"

	"github.com/gavelhq/gavel"
	"github.com/gavelhq/gavel/store"
)

// testTraceID checks that a trial's OpenTelemetry trace id is kept, in a
// trial saved as it finished and in one a finished run carries, and that
// a trial without one reads back without one.
func testTraceID(t *testing.T, s store.Store) {
	ctx := ctx(t)
	c := testCase("case_001", "where is my order?")
	traced := trial(c.ID, 1, trialSpec{})
	traced.TraceID = "4bf92f3577b34da6a3ce929d0e0e4736"
	plain := trial(c.ID, 2, trialSpec{})
	finished := trial(c.ID, 3, trialSpec{})
	finished.TraceID = "0af7651916cd43dd8448eb211c80319c"

	info, err := s.CreateRun(ctx, runInfo("support-desk", base))
	check(t, "CreateRun", err)
	check(t, "SaveTrial", s.SaveTrial(ctx, info.ID, store.TrialRecord{Trial: traced}))
	check(t, "SaveTrial", s.SaveTrial(ctx, info.ID, store.TrialRecord{Trial: plain}))
	run := &gavel.Run{Suite: &gavel.Suite{Name: "support-desk"}, Started: base,
		Cases: []gavel.CaseResult{result(c, traced, plain, finished)}}
	check(t, "FinishRun", s.FinishRun(ctx, info.ID, store.RunEnd{Status: store.Passed, Ended: base.Add(time.Minute), Run: run}))

	want := map[int]string{1: traced.TraceID, 2: "", 3: finished.TraceID}
	got, err := s.Run(ctx, info.ID)
	check(t, "Run", err)
	one, err := s.RunCase(ctx, info.ID, c.ID)
	check(t, "RunCase", err)
	for name, trials := range map[string][]gavel.Trial{"Run": got.Run.Cases[0].Trials, "RunCase": one.Result.Trials} {
		if len(trials) != len(want) {
			t.Fatalf("%s: %d trials, want %d", name, len(trials), len(want))
		}
		for _, tr := range trials {
			if tr.TraceID != want[tr.N] {
				t.Errorf("%s: trial %d has trace id %q, want %q", name, tr.N, tr.TraceID, want[tr.N])
			}
		}
	}
}
