package storetest

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"runtime"
	"sync"
	"testing"
	"time"

	"github.com/gavelhq/gavel"
	"github.com/gavelhq/gavel/judge"
	"github.com/gavelhq/gavel/store"
)

// testShards checks a store.Sharder: shards given one label make one
// run, whichever arrives first and however many arrive at once; each
// saves its trials; exactly one of the shards ending at once sees every
// shard ended; a shard of another suite, count or selection, or one
// running now, is refused; a shard whose process died is taken over and
// its run put back to running.
func testShards(t *testing.T, s store.Store) {
	sh, ok := s.(store.Sharder)
	if !ok {
		t.Skip("the store takes no shards")
	}
	ctx := ctx(t)
	const label, count = "gh-8412345678", 4
	part := func(i int) store.Shard {
		return store.Shard{Index: i, Count: count, Selection: "sha256:abc", Host: "ci-" + fmt.Sprint(i), PID: os.Getpid(), Machine: store.ThisMachine()}
	}

	// Four shards arrive at once: one creates the run, all are in it.
	joined := make([]store.Joined, count+1)
	errs := make([]error, count+1)
	var wg sync.WaitGroup
	for i := 1; i <= count; i++ {
		wg.Go(func() { joined[i], errs[i] = sh.JoinRun(ctx, label, runInfo("support-desk", time.Now()), part(i)) })
	}
	wg.Wait()
	created := 0
	for i := 1; i <= count; i++ {
		check(t, fmt.Sprintf("JoinRun of shard %d", i), errs[i])
		if joined[i].Created {
			created++
		}
		if joined[i].Info.ID != joined[1].Info.ID || joined[i].Again {
			t.Errorf("shard %d joined run %s (again: %v), shard 1 run %s", i, joined[i].Info.ID, joined[i].Again, joined[1].Info.ID)
		}
	}
	if created != 1 {
		t.Fatalf("%d shards created the run, want 1", created)
	}
	runID := joined[1].Info.ID
	info, err := s.RunInfo(ctx, runID)
	check(t, "RunInfo", err)
	if info.Status != store.Running || info.PID != 0 || info.Suite != "support-desk" {
		t.Errorf("the run: status %s, pid %d, suite %s; want running, 0, support-desk", info.Status, info.PID, info.Suite)
	}

	// Refusals: another suite, count or selection; a shard running now.
	for _, tc := range []struct {
		name  string
		suite string
		part  store.Shard
	}{
		{"another suite", "travel", part(1)},
		{"another count", "support-desk", store.Shard{Index: 1, Count: 3, Selection: "sha256:abc"}},
		{"another selection", "support-desk", store.Shard{Index: 1, Count: count, Selection: "sha256:def"}},
		{"a shard running now", "support-desk", part(2)},
	} {
		_, err := sh.JoinRun(ctx, label, runInfo(tc.suite, time.Now()), tc.part)
		if !errors.Is(err, store.ErrJoinRefused) {
			t.Errorf("JoinRun of %s: %v, want ErrJoinRefused", tc.name, err)
		}
	}

	// Each shard saves its trials; the four end at once, and one of them
	// sees every shard ended.
	for i := 1; i <= count; i++ {
		status := judge.StatusPass
		if i == 2 {
			status = judge.StatusFail
		}
		check(t, "SaveTrial", s.SaveTrial(ctx, runID, store.TrialRecord{Trial: trial(fmt.Sprintf("case_%d", i), 1, trialSpec{status: status})}))
		check(t, "ShardHeartbeat", sh.ShardHeartbeat(ctx, runID, i))
	}
	ends := make([]store.Shards, count+1)
	for i := 1; i <= count; i++ {
		var stopped gavel.StopCause
		var why string
		if i == 3 {
			stopped, why = gavel.StopBudget, "the budget of $1.00 was spent ($1.02)"
		}
		wg.Go(func() { ends[i], errs[i] = sh.EndShard(ctx, runID, i, stopped, why) })
	}
	wg.Wait()
	last := 0
	for i := 1; i <= count; i++ {
		check(t, "EndShard", errs[i])
		if ends[i].All() {
			last++
			if ends[i].Stopped != gavel.StopBudget || ends[i].StopReason == "" {
				t.Errorf("the last shard's Shards: stopped %q (%s), want budget, from shard 3", ends[i].Stopped, ends[i].StopReason)
			}
		}
	}
	if last != 1 {
		t.Errorf("%d shards saw every shard ended, want 1", last)
	}
	got, shards, err := sh.RunByLabel(ctx, label)
	check(t, "RunByLabel", err)
	if got.ID != runID || shards.Count != count || shards.Ended != count {
		t.Errorf("RunByLabel: run %s, %+v; want run %s, %d of %d ended", got.ID, shards, runID, count, count)
	}
	check(t, "FinishRun", s.FinishRun(ctx, runID, store.RunEnd{Status: store.Incomplete}))
	stored, err := s.Run(ctx, runID)
	check(t, "Run", err)
	if n := len(stored.Run.Cases); n != count {
		t.Errorf("the run has %d cases, want the %d of its shards", n, count)
	}

	// A shard started again joins the run again, which runs again.
	again, err := sh.JoinRun(ctx, label, runInfo("support-desk", time.Now()), part(3))
	check(t, "JoinRun of an ended shard", err)
	if again.Info.ID != runID || !again.Again || again.Created {
		t.Errorf("JoinRun of an ended shard: %+v, want run %s again", again, runID)
	}
	if info, _ := s.RunInfo(ctx, runID); info.Status != store.Running {
		t.Errorf("a run whose shard joins again: %s, want running", info.Status)
	}
	if _, shards, _ := sh.RunByLabel(ctx, label); shards.Ended != count-1 {
		t.Errorf("with shard 3 running again, %d shards ended, want %d", shards.Ended, count-1)
	}

	// A shard whose process died is taken over; one whose process lives
	// is not.
	if runtime.GOOS != "windows" {
		gone := exec.Command("sh", "-c", "exit 0")
		check(t, "run a process", gone.Run())
		dead := part(1)
		dead.PID = gone.Process.Pid
		other, err := sh.JoinRun(ctx, "another-label", runInfo("support-desk", time.Now()), dead)
		check(t, "JoinRun", err)
		taken, err := sh.JoinRun(ctx, "another-label", runInfo("support-desk", time.Now()), part(1))
		check(t, "JoinRun of a shard whose process died", err)
		if taken.Info.ID != other.Info.ID || !taken.Again {
			t.Errorf("JoinRun of a shard whose process died: %+v, want run %s again", taken, other.Info.ID)
		}
	}
	if _, _, err := sh.RunByLabel(ctx, "no-such-label"); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("RunByLabel of a missing label: %v, want ErrNotFound", err)
	}
	wantNotFound(t, "EndShard of a missing run", func() error { _, err := sh.EndShard(ctx, "no-such-run", 1, "", ""); return err }())
}
