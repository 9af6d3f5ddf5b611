package main

import (
	"context"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/gavelhq/gavel"
	"github.com/gavelhq/gavel/eval"
	"github.com/gavelhq/gavel/judge"
	"github.com/gavelhq/gavel/store"
)

// liveRun stores a run as a process still running it would: running, by
// this process, with trials of several cases saved and no end. It returns
// the database and the run's id.
func liveRun(t *testing.T, trials map[string]int) (db, id string) {
	t.Helper()
	db = filepath.Join(t.TempDir(), "results.db")
	ctx := context.Background()
	st, err := eval.OpenStore(ctx, db)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	info, err := st.CreateRun(ctx, store.RunInfo{Suite: "support-desk", GitBranch: "main", GitCommit: "539a404",
		PID: os.Getpid(), Machine: store.ThisMachine()})
	if err != nil {
		t.Fatal(err)
	}
	for caseID, n := range trials {
		for i := 1; i <= n; i++ {
			tr := gavel.Trial{CaseID: caseID, N: i, Verdict: judge.Judgment{Status: judge.StatusFail}}
			if err := st.SaveTrial(ctx, info.ID, store.TrialRecord{Trial: tr}); err != nil {
				t.Fatal(err)
			}
		}
	}
	return db, info.ID
}

// gavel runs shows a run in progress with what it saved so far (cases and
// trials), and no pass rate: it has no verdict yet, and its trials so far
// are no 0%.
func TestRunsCountsALiveRun(t *testing.T) {
	db, id := liveRun(t, map[string]int{"case_001": 40, "case_002": 40, "case_003": 8})
	code, out, errs := gavelCmd(t, "runs", "--db", db)
	want := regexp.MustCompile(regexp.QuoteMeta(id) + `\s+support-desk\s+running\s+-\s+3 \(88 trials so far\)\s+-\s`)
	if code != eval.ExitPassed || !want.MatchString(out) {
		t.Errorf("gavel runs: exit %d, want %s running with 3 cases and 88 trials so far, no pass rate, no cost:\n%s%s", code, id, out, errs)
	}
	if strings.Contains(out, "0.0%") {
		t.Errorf("gavel runs shows a pass rate for a run with no verdict yet:\n%s", out)
	}
	code, out, errs = gavelCmd(t, "show", "--db", db, id)
	if code != eval.ExitPassed || !strings.Contains(out, "Running: 88 trials of 3 cases saved so far; no verdict yet.") {
		t.Errorf("gavel show: exit %d, want the trials saved so far:\n%s%s", code, out, errs)
	}
}
