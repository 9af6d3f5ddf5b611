package storetest

import (
	"os"
	"os/exec"
	"runtime"
	"testing"
	"time"

	"github.com/gavelhq/gavel"
	"github.com/gavelhq/gavel/store"
)

// testLiveness checks how a store shows running runs: running while their
// process is alive and heard of, abandoned once the process is gone from
// this machine or has not been heard of for store.StaleAfter, running
// again once heard of (a heartbeat, a trial saved); an abandoned run reads
// back incomplete; a finished run is never abandoned. Runs lists running
// and abandoned runs apart.
func testLiveness(t *testing.T, s store.Store) {
	ctx := ctx(t)
	create := func(pid int, machine string, heard time.Time) store.RunInfo {
		t.Helper()
		in := runInfo("support-desk", time.Now().Add(-time.Hour))
		in.PID, in.Machine, in.Heartbeat = pid, machine, heard
		info, err := s.CreateRun(ctx, in)
		check(t, "CreateRun", err)
		if info.PID != pid || info.Machine != machine {
			t.Errorf("CreateRun gave pid %d on %q, want %d on %q", info.PID, info.Machine, pid, machine)
		}
		return info
	}
	status := func(id string) store.Status {
		t.Helper()
		info, err := s.RunInfo(ctx, id)
		check(t, "RunInfo", err)
		return info.Status
	}
	stale := time.Now().Add(-store.StaleAfter - time.Minute)

	alive := create(os.Getpid(), store.ThisMachine(), time.Time{})
	if got := status(alive.ID); got != store.Running {
		t.Errorf("a run of this live process: %s, want running", got)
	}
	elsewhere := create(1, "another machine", stale)
	if got := status(elsewhere.ID); got != store.Abandoned {
		t.Errorf("a run not heard of for %v: %s, want abandoned", store.StaleAfter, got)
	}
	// What an abandoned run saved is incomplete: whatever its pass rate,
	// it does not pass.
	abandoned, err := s.Run(ctx, elsewhere.ID)
	check(t, "Run", err)
	if abandoned.Run.Complete() {
		t.Errorf("Run of an abandoned run: complete, want it incomplete")
	}
	check(t, "Heartbeat", s.Heartbeat(ctx, elsewhere.ID))
	if got := status(elsewhere.ID); got != store.Running {
		t.Errorf("a run heard of again: %s, want running", got)
	}
	quiet := create(1, "another machine", stale)
	check(t, "SaveTrial", s.SaveTrial(ctx, quiet.ID, store.TrialRecord{Trial: trial("case_001", 1, trialSpec{})}))
	if got := status(quiet.ID); got != store.Running {
		t.Errorf("a run that saved a trial: %s, want running", got)
	}
	// What a running run saved so far is no verdict yet: it is not
	// complete, and does not pass.
	running, err := s.Run(ctx, quiet.ID)
	check(t, "Run", err)
	if running.Run.Complete() || running.Run.Stopped != gavel.StopRunning {
		t.Errorf("Run of a running run: stopped %q, want it incomplete (%q)", running.Run.Stopped, gavel.StopRunning)
	}
	finished := create(1, "another machine", stale)
	check(t, "FinishRun", s.FinishRun(ctx, finished.ID, store.RunEnd{Status: store.Passed, Run: &gavel.Run{}}))
	if got := status(finished.ID); got != store.Passed {
		t.Errorf("a finished run not heard of since: %s, want passed", got)
	}
	wantNotFound(t, "Heartbeat of a missing run", s.Heartbeat(ctx, "no-such-run"))

	wantRunning, wantAbandoned := []string{quiet.ID, elsewhere.ID, alive.ID}, []string{}
	if runtime.GOOS != "windows" {
		gone := exec.Command("sh", "-c", "exit 0")
		check(t, "run a process", gone.Run())
		dead := create(gone.Process.Pid, store.ThisMachine(), time.Time{})
		if got := status(dead.ID); got != store.Abandoned {
			t.Errorf("a run whose process (pid %d) is gone: %s, want abandoned", gone.Process.Pid, got)
		}
		wantAbandoned = append(wantAbandoned, dead.ID)
	}
	for _, tc := range []struct {
		status store.Status
		want   []string
	}{{store.Running, wantRunning}, {store.Abandoned, wantAbandoned}} {
		runs, err := s.Runs(ctx, store.RunFilter{Status: tc.status})
		check(t, "Runs", err)
		var ids []string
		for _, r := range runs {
			ids = append(ids, r.ID)
			if r.Status != tc.status {
				t.Errorf("Runs(%s) gave run %s with status %s", tc.status, r.ID, r.Status)
			}
		}
		diff(t, "Runs("+string(tc.status)+")", ids, tc.want, equateEmpty)
	}
	if runs, err := s.Runs(ctx, store.RunFilter{Status: store.Running, Limit: 1}); err != nil || len(runs) != 1 {
		t.Errorf("Runs(running, limit 1): %d runs, %v; want 1", len(runs), err)
	}
}

// testContinues stores a run that carries on another: it says which.
func testContinues(t *testing.T, s store.Store) {
	ctx := ctx(t)
	first, err := s.CreateRun(ctx, runInfo("support-desk", base))
	check(t, "CreateRun", err)
	in := runInfo("support-desk", base.Add(time.Hour))
	in.Continues = first.ID
	second, err := s.CreateRun(ctx, in)
	check(t, "CreateRun", err)
	got, err := s.RunInfo(ctx, second.ID)
	check(t, "RunInfo", err)
	if got.Continues != first.ID {
		t.Errorf("Continues = %q, want %q", got.Continues, first.ID)
	}
}

// testRejudges stores a run that judged another's transcripts again: it
// says which, in RunInfo and in the list of runs.
func testRejudges(t *testing.T, s store.Store) {
	ctx := ctx(t)
	first, err := s.CreateRun(ctx, runInfo("support-desk", base))
	check(t, "CreateRun", err)
	in := runInfo("support-desk", base.Add(time.Hour))
	in.Rejudges = first.ID
	second, err := s.CreateRun(ctx, in)
	check(t, "CreateRun", err)
	got, err := s.RunInfo(ctx, second.ID)
	check(t, "RunInfo", err)
	if got.Rejudges != first.ID || got.Continues != "" {
		t.Errorf("Rejudges, Continues = %q, %q; want %q, \"\"", got.Rejudges, got.Continues, first.ID)
	}
	runs, err := s.Runs(ctx, store.RunFilter{Suite: "support-desk"})
	check(t, "Runs", err)
	for _, r := range runs {
		if want := map[bool]string{true: first.ID}[r.ID == second.ID]; r.Rejudges != want {
			t.Errorf("Runs: run %s Rejudges = %q, want %q", r.ID, r.Rejudges, want)
		}
	}
	if got, err := s.RunInfo(ctx, first.ID); err != nil || got.Rejudges != "" {
		t.Errorf("RunInfo(the source): Rejudges = %q, %v; want \"\"", got.Rejudges, err)
	}
}

// testSoFar reads runs that have not finished: each counts the trials it
// saved and their cases, wherever a RunInfo is read (RunInfo, Runs, Run,
// RunVerdicts); a finished run counts none (its Stats say more).
func testSoFar(t *testing.T, s store.Store) {
	ctx := ctx(t)
	info, _ := storeCrashedRun(t, s) // 4 trials of 3 cases
	empty, err := s.CreateRun(ctx, runInfo("support-desk", base.Add(time.Minute)))
	check(t, "CreateRun", err)
	want := map[string]store.Progress{info.ID: {Trials: 4, Cases: 3}, empty.ID: {}}
	for id, w := range want {
		got, err := s.RunInfo(ctx, id)
		check(t, "RunInfo", err)
		diff(t, "RunInfo("+id+").SoFar", got.SoFar, w)
		run, err := s.Run(ctx, id)
		check(t, "Run", err)
		diff(t, "Run("+id+").Info.SoFar", run.Info.SoFar, w)
		verdicts, err := s.RunVerdicts(ctx, id)
		check(t, "RunVerdicts", err)
		diff(t, "RunVerdicts("+id+").Info.SoFar", verdicts.Info.SoFar, w)
	}
	runs, err := s.Runs(ctx, store.RunFilter{})
	check(t, "Runs", err)
	for _, r := range runs {
		diff(t, "Runs: "+r.ID+".SoFar", r.SoFar, want[r.ID])
	}
	check(t, "FinishRun", s.FinishRun(ctx, info.ID, store.RunEnd{Status: store.Failed, Ended: base.Add(time.Hour)}))
	got, err := s.RunInfo(ctx, info.ID)
	check(t, "RunInfo", err)
	diff(t, "SoFar of a finished run", got.SoFar, store.Progress{})
}
