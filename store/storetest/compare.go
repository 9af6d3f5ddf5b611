package storetest

import (
	"testing"
	"time"

	"github.com/gavelhq/gavel"
	"github.com/gavelhq/gavel/store"
)

// testComparable: a run read back knows what gavel.Compare needs of its
// cases: which were critical, and the definition each ran (its digest),
// the same for two runs of one definition and different once it
// changed; unknown for trials saved without a version.
func testComparable(t *testing.T, s store.Store) {
	ctx := ctx(t)
	def := store.CaseDef{Suite: "support-desk", ID: "case_001", Name: "Shipped", Definition: []byte("id: case_001\ninput: where is my order\n")}
	v1, err := s.SaveCase(ctx, def)
	check(t, "SaveCase", err)
	def.Definition = []byte("id: case_001\ninput: where is order 12345\n")
	v2, err := s.SaveCase(ctx, def)
	check(t, "SaveCase", err)

	save := func(key int64) *store.StoredRun {
		t.Helper()
		info, err := s.CreateRun(ctx, runInfo("support-desk", base))
		check(t, "CreateRun", err)
		tr := trial("case_001", 1, trialSpec{})
		check(t, "SaveTrial", s.SaveTrial(ctx, info.ID, store.TrialRecord{Trial: tr, CaseKey: key}))
		tr2 := trial("case_002", 1, trialSpec{})
		check(t, "SaveTrial", s.SaveTrial(ctx, info.ID, store.TrialRecord{Trial: tr2}))
		run := &gavel.Run{Cases: []gavel.CaseResult{
			{Case: &gavel.Case{ID: "case_001", Critical: true}, Trials: []gavel.Trial{tr}},
			{Case: &gavel.Case{ID: "case_002"}, Trials: []gavel.Trial{tr2}},
		}}
		for i := range run.Cases {
			run.Cases[i].Summarize()
		}
		check(t, "FinishRun", s.FinishRun(ctx, info.ID, store.RunEnd{Status: store.Passed, Ended: base.Add(time.Minute), Run: run}))
		stored, err := s.Run(ctx, info.ID)
		check(t, "Run", err)
		return stored
	}
	a, b, c := save(v1.Key), save(v1.Key), save(v2.Key)
	one, two := a.Run.Cases[0], a.Run.Cases[1]
	if !one.Case.Critical || two.Case.Critical {
		t.Errorf("critical read back as %v and %v, want true and false", one.Case.Critical, two.Case.Critical)
	}
	if one.Definition == "" || one.Definition != b.Run.Cases[0].Definition || one.Definition == c.Run.Cases[0].Definition {
		t.Errorf("definitions %q, %q, %q: want the first two equal and the third different", one.Definition, b.Run.Cases[0].Definition, c.Run.Cases[0].Definition)
	}
	if two.Definition != "" {
		t.Errorf("a trial saved without a version has definition %q, want none", two.Definition)
	}
	sc, err := s.RunCase(ctx, c.Info.ID, "case_001")
	check(t, "RunCase", err)
	if sc.Result.Definition != c.Run.Cases[0].Definition || !sc.Result.Case.Critical {
		t.Errorf("RunCase: definition %q, critical %v; want %q, true", sc.Result.Definition, sc.Result.Case.Critical, c.Run.Cases[0].Definition)
	}
	if cmp := gavel.Compare(a.Run, c.Run); len(cmp.Redefined) != 1 || cmp.Redefined[0].ID != "case_001" {
		t.Errorf("Compare of the runs before and after the change: redefined %v, want case_001", cmp.Redefined)
	}
}
