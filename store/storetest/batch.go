package storetest

import (
	"errors"
	"testing"
	"time"

	"github.com/gavelhq/gavel"
	"github.com/gavelhq/gavel/judge"
	"github.com/gavelhq/gavel/store"
)

// testBatches saves case definitions and trials in batches
// (store.SaveCases and store.SaveTrials, a store.Batcher's when the store
// is one) and reads back what saving them one at a time would give:
// versions that follow the ones saved before, trials whose run reads
// back whole.
func testBatches(t *testing.T, s store.Store) {
	ctx := ctx(t)
	first, err := s.SaveCase(ctx, store.CaseDef{Suite: "batch", ID: "case_001", Name: "One", Definition: []byte("id: case_001\n"), Source: "cases.jsonl:1"})
	check(t, "SaveCase", err)
	defs := []store.CaseDef{
		{Suite: "batch", ID: "case_001", Name: "One", Definition: []byte("id: case_001\n"), Source: "cases.jsonl:7"}, // unchanged, moved
		{Suite: "batch", ID: "case_002", Name: "Two", Tags: []string{"orders"}, Definition: []byte("id: case_002\n"), Source: "cases.jsonl:2"},
		{Suite: "batch", ID: "case_003", Name: "Three", Definition: []byte("id: case_003\n"), Source: "cases.jsonl:3"},
	}
	versions, err := store.SaveCases(ctx, s, defs)
	check(t, "SaveCases", err)
	if len(versions) != len(defs) {
		t.Fatalf("SaveCases returned %d versions, want %d", len(versions), len(defs))
	}
	if v := versions[0]; v.Key != first.Key || v.Version != 1 || v.Source != "cases.jsonl:7" {
		t.Errorf("an unchanged case: key %d version %d source %q, want key %d version 1 source cases.jsonl:7", v.Key, v.Version, v.Source, first.Key)
	}
	for i, v := range versions[1:] {
		if v.Version != 1 || v.Key == 0 || v.ID != defs[i+1].ID {
			t.Errorf("new case %s: %+v, want version 1 of it with a key", defs[i+1].ID, v)
		}
	}
	history, err := s.CaseHistory(ctx, "batch", "case_002")
	check(t, "CaseHistory", err)
	diff(t, "case_002 read back", history, versions[1:2])

	info, err := s.CreateRun(ctx, runInfo("batch", base))
	check(t, "CreateRun", err)
	suite := &gavel.Suite{Name: "batch", Threshold: 0.5}
	run := &gavel.Run{Suite: suite, Started: base}
	var records []store.TrialRecord
	for i, v := range versions {
		c := testCase(v.ID, "input of "+v.ID)
		var trials []gavel.Trial
		for n := 1; n <= 2; n++ {
			tr := trial(v.ID, n, trialSpec{})
			if i == 2 && n == 2 {
				tr = trial(v.ID, n, trialSpec{status: judge.StatusFail, helpfulness: 2})
			}
			trials = append(trials, tr)
			records = append(records, store.TrialRecord{CaseKey: v.Key, Trial: tr})
		}
		run.Cases = append(run.Cases, result(c, trials...))
	}
	check(t, "SaveTrials", store.SaveTrials(ctx, s, info.ID, records[:4]))
	check(t, "SaveTrials", store.SaveTrials(ctx, s, info.ID, records[4:]))
	check(t, "FinishRun", s.FinishRun(ctx, info.ID, store.RunEnd{Status: store.Failed, Ended: base.Add(time.Minute), Run: run}))
	got, err := s.Run(ctx, info.ID)
	check(t, "Run", err)
	diff(t, "case results", viewResults(got.Run.Cases), viewResults(run.Cases))

	if err := store.SaveTrials(ctx, s, "no-such-run", records[:1]); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("SaveTrials to a run that does not exist: %v, want an ErrNotFound", err)
	}
}
