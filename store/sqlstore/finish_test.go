package sqlstore_test

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/gavelhq/gavel"
	"github.com/gavelhq/gavel/judge"
	"github.com/gavelhq/gavel/store"
	"github.com/gavelhq/gavel/store/sqlite"
	"github.com/gavelhq/gavel/store/sqlstore"
)

func open(t *testing.T) *sqlstore.DB {
	t.Helper()
	s, err := sqlite.Open(filepath.Join(t.TempDir(), "gavel.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

func passing(caseID string, n int) gavel.Trial {
	score, _ := judge.Number(4, 1, 5)
	return gavel.Trial{
		CaseID: caseID, N: n,
		Transcript: &judge.Transcript{Goal: "hello " + caseID},
		Verdict:    judge.Judgment{Name: "helpfulness", Status: judge.StatusPass, Score: score},
		Usage:      gavel.RoleUsage{Agent: judge.Usage{CostUSD: 0.5}},
	}
}

// TestFinishRunAfterACrash closes a run that was left running, without
// its gavel.Run: its statistics come from the saved trials.
func TestFinishRunAfterACrash(t *testing.T) {
	s, ctx := open(t), context.Background()
	info, err := s.CreateRun(ctx, store.RunInfo{Suite: "support-desk"})
	if err != nil {
		t.Fatal(err)
	}
	for _, tr := range []gavel.Trial{passing("case_002", 1), passing("case_001", 1), passing("case_001", 2)} {
		if err := s.SaveTrial(ctx, info.ID, store.TrialRecord{Trial: tr}); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.FinishRun(ctx, info.ID, store.RunEnd{Status: store.Incomplete}); err != nil {
		t.Fatal(err)
	}
	got, err := s.Run(ctx, info.ID)
	if err != nil {
		t.Fatal(err)
	}
	want := gavel.Stats{
		Cases: map[gavel.Outcome]int{gavel.Passed: 2}, Trials: 3, PassRate: new(1.0), PassAtK: []float64{1}, PassHatK: []float64{1},
		Usage:    gavel.RoleUsage{Agent: judge.Usage{CostUSD: 1.5}},
		Criteria: []gavel.CriterionStat{{Name: "helpfulness", Count: 3, Mean: 0.75, Min: 0.75}},
	}
	// The intervals are package stats's to check.
	noIntervals := cmpopts.IgnoreFields(gavel.Stats{}, "PassRateInterval", "PassAtKInterval", "PassHatKInterval", "Intervals")
	if d := cmp.Diff(want, got.Info.Stats, noIntervals, cmpopts.IgnoreFields(gavel.CriterionStat{}, "Interval")); d != "" {
		t.Errorf("stats (-want +got):\n%s", d)
	}
	if got.Info.Status != store.Incomplete || got.Info.Ended.IsZero() || got.Run.Stopped != gavel.StopInterrupted {
		t.Errorf("status %s, ended %v, stopped %q: want interrupted, ended now", got.Info.Status, got.Info.Ended, got.Run.Stopped)
	}
	var ids []string
	for _, c := range got.Run.Cases {
		ids = append(ids, c.ID()+":"+c.Case.Input())
	}
	if d := cmp.Diff([]string{"case_002:hello case_002", "case_001:hello case_001"}, ids); d != "" {
		t.Errorf("cases (-want +got):\n%s", d)
	}
	trend, err := s.Trend(ctx, "support-desk", 10)
	if err != nil || len(trend) != 1 || trend[0].Criteria["helpfulness"] != 0.75 {
		t.Errorf("Trend: %+v, %v; want the run, with helpfulness 0.75", trend, err)
	}
}

// TestFinishRunSavesMissingTrials finishes a run whose trials were not
// all saved: FinishRun saves them.
func TestFinishRunSavesMissingTrials(t *testing.T) {
	s, ctx := open(t), context.Background()
	info, err := s.CreateRun(ctx, store.RunInfo{Suite: "support-desk"})
	if err != nil {
		t.Fatal(err)
	}
	saved, unsaved := passing("case_001", 1), passing("case_001", 2)
	if err := s.SaveTrial(ctx, info.ID, store.TrialRecord{Trial: saved}); err != nil {
		t.Fatal(err)
	}
	run := &gavel.Run{Cases: []gavel.CaseResult{{Case: &gavel.Case{ID: "case_001"}, Trials: []gavel.Trial{saved, unsaved}}}}
	run.Cases[0].Summarize()
	if err := s.FinishRun(ctx, info.ID, store.RunEnd{Status: store.Passed, Run: run}); err != nil {
		t.Fatal(err)
	}
	got, err := s.Run(ctx, info.ID)
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff(run.Cases[0].Trials, got.Run.Cases[0].Trials); d != "" {
		t.Errorf("trials (-want +got):\n%s", d)
	}
}

func TestFinishRunRefuses(t *testing.T) {
	s, ctx := open(t), context.Background()
	info, err := s.CreateRun(ctx, store.RunInfo{Suite: "support-desk"})
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		end  store.RunEnd
		want string
	}{
		{"no status", store.RunEnd{Run: &gavel.Run{}}, `status "" is not one of passed, failed, incomplete, errored`},
		{"running", store.RunEnd{Status: store.Running, Run: &gavel.Run{}}, `status "running" is not one of`},
		{"a case without an id", store.RunEnd{Status: store.Passed, Run: &gavel.Run{Cases: []gavel.CaseResult{{}}}}, "case result 1 has no case id"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := s.FinishRun(ctx, info.ID, tt.end)
			if err == nil || !strings.Contains(err.Error(), tt.want) || !strings.HasPrefix(err.Error(), "store: finish run "+info.ID+": ") {
				t.Errorf("FinishRun: %v, want an error naming the run and saying %q", err, tt.want)
			}
		})
	}
	got, err := s.RunInfo(ctx, info.ID)
	if err != nil || got.Status != store.Running {
		t.Errorf("after refusals: %s, %v; want the run still running", got.Status, err)
	}
}

func TestSaveTrialRefuses(t *testing.T) {
	s, ctx := open(t), context.Background()
	info, err := s.CreateRun(ctx, store.RunInfo{Suite: "support-desk", Started: time.Now()})
	if err != nil {
		t.Fatal(err)
	}
	for _, tr := range []gavel.Trial{{N: 1}, {CaseID: "case_001"}} {
		if err := s.SaveTrial(ctx, info.ID, store.TrialRecord{Trial: tr}); err == nil || !strings.Contains(err.Error(), "a trial needs a case id and a number from 1") {
			t.Errorf("SaveTrial(%+v): %v, want an error", tr, err)
		}
	}
}

// TestNew opens a store without migrating: Version reports an empty
// database, and Migrate brings it up to date.
func TestNew(t *testing.T) {
	db, err := sqlite.Connect(filepath.Join(t.TempDir(), "gavel.db"))
	if err != nil {
		t.Fatal(err)
	}
	s, err := sqlstore.New(db, sqlstore.SQLite)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	ctx := context.Background()
	current, latest, err := s.Version(ctx)
	if err != nil || current != 0 || latest < 1 {
		t.Fatalf("Version of an empty database: %d, %d, %v; want 0 and the latest", current, latest, err)
	}
	if err := s.Migrate(ctx); err != nil {
		t.Fatal(err)
	}
	if current, _, err = s.Version(ctx); err != nil || current != latest {
		t.Errorf("Version after Migrate: %d, %v; want %d", current, err, latest)
	}
}
