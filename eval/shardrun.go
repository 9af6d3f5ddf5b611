package eval

import (
	"context"
	"errors"
	"fmt"
	"io"
	"time"

	"github.com/gavelhq/gavel"
	"github.com/gavelhq/gavel/report"
	"github.com/gavelhq/gavel/spec"
	"github.com/gavelhq/gavel/store"
)

// A sharding is one suite's shard of a run (gavel run --shard K/N): the
// plan of the whole run and the part this process runs. With a run label
// it joins the labelled run in the store (store.Sharder) instead of
// making a run of its own, and the shard that ends last finishes the
// run, over every shard's trials, and decides its gate.
type sharding struct {
	shard Shard
	label string
	plan  plan
	suite *gavel.Suite
	// kept are the trials of this shard that the labelled run already
	// has (the shard ran before, and died or ended): they are not run
	// again.
	kept map[trialKey]gavel.Trial
	// whole is the whole run when this shard ended it, and wholeCode
	// the exit code it earns; shards is how the run's shards stood when
	// this one ended, and runID the labelled run's id.
	whole     *gavel.Run
	wholeCode int
	shards    store.Shards
	runID     string
	stderr    io.Writer
}

// newSharding returns the sharding of a suite whose cases are selected,
// nil when f asks for none.
func newSharding(f *Options, b *spec.Built, stderr io.Writer) *sharding {
	if f.Shard.Count == 0 {
		return nil
	}
	return &sharding{shard: f.Shard, label: f.RunLabel, plan: planOf(b.Suite, f.Trials, b.Definition), suite: b.Suite, stderr: stderr}
}

// reportShard is what the shard's reports say of it; nil for no shard.
func (x *sharding) reportShard() *report.Shard {
	if x == nil {
		return nil
	}
	return x.plan.reportShard(x.shard, x.label)
}

// selects is runner.Config.Select: nil (every trial) for no shard.
func (x *sharding) selects() func(caseID string, n int) bool {
	if x == nil {
		return nil
	}
	return x.plan.selects(x.shard)
}

// reuse is runner.Config.Reuse: the shard's trials its labelled run
// already has, else next's.
func (x *sharding) reuse(next func(string, int) (gavel.Trial, bool)) func(string, int) (gavel.Trial, bool) {
	if x == nil || x.label == "" {
		return next
	}
	return func(caseID string, n int) (gavel.Trial, bool) {
		t, ok := x.kept[trialKey{caseID, n}]
		return t, ok
	}
}

// store is the store the shard's recorder writes to: st, or, with a run
// label, st seen through the shard (shardStore).
func (x *sharding) store(st store.Store) (store.Store, error) {
	if x == nil {
		return st, nil
	}
	if x.label == "" {
		return shardStore{st, x, nil}, nil
	}
	sh, ok := st.(store.Sharder)
	if !ok {
		return nil, errors.New("this results database takes no shards of a labelled run")
	}
	return shardStore{st, x, sh}, nil
}

// exit is the exit code the shard earns, of code, what gavel run's would
// be: a pass rate below the threshold is no failure of a shard (the
// gate is the whole run's), and the shard that ended a labelled run
// earns that run's code too. It says how the run stands.
func (x *sharding) exit(run *gavel.Run, code int) int {
	if x == nil {
		return code
	}
	if code != ExitInfra {
		code = shardExitCode(run)
	}
	if x.label == "" {
		fmt.Fprintf(x.stderr, "gavel: this is shard %s of the run: its pass rate is no verdict; gavel merge decides on the whole run from the shards' JSON reports\n", x.shard)
		return code
	}
	if x.whole == nil {
		fmt.Fprintf(x.stderr, "gavel: shard %s of run %s (label %q) ended; %d of %d shards have: the last to end decides on the whole run\n",
			x.shard, x.runID, x.label, x.shards.Ended, x.shards.Count)
		return code
	}
	fmt.Fprintf(x.stderr, "gavel: every shard of run %s (label %q) has ended: the whole run %s\n", x.runID, x.label, WholeVerdict(x.whole))
	return Worse(code, x.wholeCode)
}

// carryOn says how to run what an incomplete run did not: gavel run
// --resume, or, for a shard, the shard again.
func (x *sharding) carryOn(runID string) string {
	switch {
	case x == nil:
		return fmt.Sprintf("gavel run --resume %s runs what did not finish", runID)
	case x.label == "":
		return fmt.Sprintf("run shard %s again for a complete report of it", x.shard)
	}
	return fmt.Sprintf("shard %s started again with --run-label %s runs what it did not finish", x.shard, x.label)
}

// A shardStore is the store as a shard's recorder sees it. Without a
// label, the shard's run is a run of its own, which says which shard it
// is. With one, creating the run joins the labelled run, a heartbeat is
// the shard's too, and finishing it ends the shard, and, for the last
// shard to end, finishes the run over every shard's trials.
type shardStore struct {
	store.Store
	x  *sharding
	sh store.Sharder // nil without a label
}

func (s shardStore) CreateRun(ctx context.Context, info store.RunInfo) (store.RunInfo, error) {
	x := s.x
	if s.sh == nil {
		info.Settings["shard"] = x.shard.String()
		return s.Store.CreateRun(ctx, info)
	}
	info.Settings["shards"] = fmt.Sprint(x.shard.Count)
	info.Settings["run_label"] = x.label
	j, err := s.sh.JoinRun(ctx, x.label, info, store.Shard{Index: x.shard.Index, Count: x.shard.Count, Selection: x.plan.digest(),
		Host: info.Host, PID: info.PID, Machine: info.Machine})
	if err != nil {
		return store.RunInfo{}, err
	}
	x.runID = j.Info.ID
	verb := "joined"
	if j.Created {
		verb = "created"
	}
	fmt.Fprintf(x.stderr, "gavel: shard %s %s run %s (label %q)\n", x.shard, verb, j.Info.ID, x.label)
	if j.Again {
		stored, err := s.Store.Run(ctx, j.Info.ID)
		if err != nil {
			return store.RunInfo{}, err
		}
		mine := x.selects()
		x.kept = map[trialKey]gavel.Trial{}
		for _, cr := range stored.Run.Cases {
			for _, t := range cr.Trials {
				if mine(t.CaseID, t.N) && finished(t) {
					x.kept[trialKey{t.CaseID, t.N}] = t
				}
			}
		}
		fmt.Fprintf(x.stderr, "gavel: shard %s ran before: keeping the %s of it the run has, running the rest\n", x.shard, plural(len(x.kept), "trial"))
	}
	return j.Info, nil
}

func (s shardStore) Heartbeat(ctx context.Context, runID string) error {
	if s.sh == nil {
		return s.Store.Heartbeat(ctx, runID)
	}
	return s.sh.ShardHeartbeat(ctx, runID, s.x.shard.Index)
}

func (s shardStore) FinishRun(ctx context.Context, runID string, end store.RunEnd) error {
	if s.sh == nil {
		if len(end.Run.Cases) == 0 && end.Status == store.Failed {
			end.Status = store.Passed // a shard of no case missed nothing
		}
		return s.Store.FinishRun(ctx, runID, end)
	}
	x := s.x
	// The shard's trials are saved one by one; any the recorder could not
	// save are missing from the run, which makes it incomplete.
	stopped, why := end.Run.Stopped, end.Run.StopReason
	if stopped == "" && end.Status == store.Incomplete {
		stopped, why = gavel.StopInterrupted, "interrupted: the results database stopped taking writes"
	}
	if stopped != "" {
		why = fmt.Sprintf("shard %s: %s", x.shard, why)
	}
	shards, err := s.sh.EndShard(ctx, runID, x.shard.Index, stopped, why)
	if err != nil {
		return err
	}
	x.shards = shards
	if !shards.All() {
		return nil
	}
	whole, err := x.wholeRun(ctx, s.Store, runID, shards)
	if err != nil {
		return err
	}
	x.whole, x.wholeCode = whole, GateCode(whole)
	return s.Store.FinishRun(ctx, runID, store.RunEnd{Status: Status(whole, x.wholeCode), Ended: time.Now(), Run: whole})
}

// wholeRun is a labelled run whose shards have all ended: the selected
// cases in suite order, with every shard's trials, what stopped a shard
// that did not run its part, and its numbers. FinishRun with no run
// would read the saved trials too, but in the order they were saved,
// without the cases no trial was saved of, and knowing nothing of what
// stopped a shard.
func (x *sharding) wholeRun(ctx context.Context, st store.Store, runID string, shards store.Shards) (*gavel.Run, error) {
	stored, err := st.RunVerdicts(ctx, runID)
	if err != nil {
		return nil, err
	}
	trials := map[string][]gavel.Trial{}
	for _, cr := range stored.Run.Cases {
		trials[cr.ID()] = cr.Trials
	}
	run := &gavel.Run{Suite: x.suite, Started: stored.Info.Started, Stopped: shards.Stopped, StopReason: shards.StopReason}
	run.Duration = time.Since(run.Started)
	for _, c := range x.suite.Cases {
		cr := gavel.CaseResult{Case: c, Trials: trials[c.ID]}
		cr.Summarize()
		if cr.Outcome == gavel.Skipped {
			cr.SkipReason = "no shard ran it"
			if run.Stopped == "" {
				run.Stopped, run.StopReason = gavel.StopInterrupted, "case "+c.ID+" has no trial: no shard ran it"
			}
		}
		run.Cases = append(run.Cases, cr)
	}
	run.Models = run.ModelUsage()
	return run, nil
}
