package eval

import (
	"errors"
	"fmt"
	"time"

	"github.com/gavelhq/gavel"
	"github.com/gavelhq/gavel/llm"
	"github.com/gavelhq/gavel/spec"
)

// Options say which cases of a suite run, how, and what is written of the
// run: gavel run's flags, which gavel rejudge shares in part. The zero
// value runs every case as the suite file says, stores the run in DB and
// writes the JSON report to reports/latest.json.
type Options struct {
	// Tags and IDs keep the cases with one of the tags and one of the ids
	// (an empty list keeps all). An id the suite does not have is an
	// error.
	Tags, IDs []string
	// ChangedSince keeps the cases whose paths match files changed since
	// this git ref (every case when a shared path changed; cases without
	// paths always run).
	ChangedSince string
	// Gate is a shell command run first (the unit tests): if it fails,
	// nothing runs and the run fails.
	Gate string
	// DB is the results database: a SQLite file or a postgres:// URL.
	// Defaults to $GAVEL_DB, else DefaultDB (OpenStore).
	DB string
	// Resume carries on the incomplete run of this id in a new run, and
	// RetryErrors runs again the trials that ended in ERROR of the run of
	// this id: see priorRun.
	Resume, RetryErrors string
	// Format is the report printed: text (the default), json, junit,
	// markdown or html. Outs are the report files to write, each a FILE
	// whose extension says its format or FORMAT=FILE; the JSON report is
	// always written, to DefaultJSONReport unless Outs names a JSON file.
	Format string
	Outs   []string
	// Concurrency, Trials and Timeout override the suite's (Concurrency:
	// trials talking with the agent at once; Trials: of every case;
	// Timeout: of one trial's conversation), when not zero.
	Concurrency int
	Trials      int
	Timeout     time.Duration
	// MinPassRate, when not zero, is the pass rate to reach instead of
	// the suite's threshold.
	MinPassRate float64
	// Inconclusive, when set, is what an INCONCLUSIVE verdict does
	// instead of what the suite's gate: says (gavel.ParseInconclusive:
	// rate, pass, fail or exit).
	Inconclusive string
	// Baseline, when set, gates the run on the newest finished run it
	// names (FindBaseline: a run id, a --run-label, or a git branch) as
	// well: the run fails when gavel.CompareWith finds it REGRESSED, or a
	// critical case failed. Compare says how the difference is tested;
	// its zero value is gavel.DefaultCompareConfig.
	Baseline string
	Compare  gavel.CompareConfig
	// Repeat, when above 1, runs each suite this many times, each a run
	// of its own, and then reports the A/A noise floor: how far runs of
	// the unchanged suite differ (gavel.NoiseFloorOf). The exit code is
	// the last run's.
	Repeat int
	// MaxCostUSD and MaxTokens stop starting trials once this much was
	// spent (0: no limit).
	MaxCostUSD float64
	MaxTokens  int64
	// PricesFile is a file of model prices (spec.LoadPrices), read into
	// Prices by Check; they replace the suite's and Gavel's prices of the
	// models they name.
	PricesFile string
	Prices     llm.Prices
	// NoCache asks the models again instead of reusing cached answers.
	NoCache bool
	// FailFast stops starting trials after the first that does not pass.
	FailFast bool
	// Quiet prints only the summary (and nothing exec agents write to
	// their stderr); Verbose prints every case in detail.
	Quiet, Verbose bool
	// Label is what the person starting the run calls it ("prompt v2"):
	// words for people that lead its name in the web app and gavel runs
	// (store.RunInfo.Label). Defaults to none.
	Label string
	// Shard runs one part of the selected trials (the zero Shard runs
	// them all), and RunLabel names the run the shards join in a shared
	// database.
	Shard    Shard
	RunLabel string
	// Queue enqueues the run's trials for workers instead of running
	// them, then waits for the run to finish, unless Detach.
	Queue, Detach bool
	// ReplayTools, when set, makes the agent's tools replay the tool
	// results of the stored run it names (a run id, a --run-label, a git
	// branch, or latest), as the suite's agent.replay_tools.run would:
	// the live servers are not called (spec.Env.ReplayTools).
	ReplayTools string
}

// Check refuses options that contradict each other or are out of range,
// with what to fix, and reads PricesFile into Prices. The caller's flags
// are named as gavel run's.
func (o *Options) Check() error {
	if !(o.MinPassRate >= 0 && o.MinPassRate <= 1) { // NaN too
		return fmt.Errorf("--min-pass-rate %v: want a pass rate above 0 and at most 1, such as 0.8", o.MinPassRate)
	}
	if _, err := gavel.ParseInconclusive(o.Inconclusive); err != nil {
		return fmt.Errorf("--inconclusive %w", err)
	}
	if err := o.checkQueue(); err != nil {
		return err
	}
	if err := o.checkBaseline(); err != nil {
		return err
	}
	switch {
	case o.Repeat < 0:
		return fmt.Errorf("--repeat %d: want how many times to run each suite", o.Repeat)
	case o.ReplayTools != "" && o.Queue:
		return errors.New("--replay-tools does not go with --queue: the workers build the suite from its file; write agent.replay_tools: {run: ID} in the suite instead")
	case o.Repeat > 1 && (o.Queue || o.Shard.Count > 0 || o.Resume != "" || o.RetryErrors != ""):
		return errors.New("--repeat runs whole suites here, again and again: not with --queue, --shard, --resume or --retry-errors")
	}
	switch {
	case o.RunLabel != "" && o.Shard.Count == 0:
		return errors.New("--run-label names the run that the shards of --shard K/N join: give --shard too")
	case o.Shard.Count > 0 && (o.Resume != "" || o.RetryErrors != ""):
		return errors.New("--shard does not go with --resume or --retry-errors: a shard started again with the same --run-label completes its part of the run")
	case o.Resume != "" && o.RetryErrors != "":
		return errors.New("give --resume or --retry-errors, not both")
	}
	if o.PricesFile != "" {
		prices, err := spec.LoadPrices(o.PricesFile)
		if err != nil {
			return fmt.Errorf("--prices %s:\n%v", o.PricesFile, err)
		}
		o.Prices = prices
	}
	return nil
}

// checkQueue refuses what Queue cannot do.
func (o *Options) checkQueue() error {
	switch {
	case o.Detach && !o.Queue:
		return errors.New("--detach goes with --queue")
	case !o.Queue:
		return nil
	case o.Resume != "" || o.RetryErrors != "":
		return errors.New("--queue cannot carry on a run (--resume, --retry-errors): run those without --queue")
	case o.FailFast:
		return errors.New("--queue cannot stop at the first failure (--fail-fast): workers run the trials independently")
	case o.Shard.Count > 0:
		return errors.New("--queue spreads the whole run over the workers: give no --shard (shards are for machines that each run a part without a queue)")
	case o.PricesFile != "":
		return errors.New("--queue cannot take --prices: workers price the models from the suite file; put the prices under prices: in it")
	case o.Inconclusive != "":
		return errors.New("--queue cannot take --inconclusive: the workers that finish the run weigh it as the suite file says; put it under gate: inconclusive: in it")
	}
	return nil
}

// checkBaseline refuses what Baseline cannot do, and checks Compare.
func (o *Options) checkBaseline() error {
	if o.Compare == (gavel.CompareConfig{}) {
		o.Compare = gavel.DefaultCompareConfig()
	}
	if err := o.Compare.Check(); err != nil {
		return err
	}
	switch {
	case o.Baseline == "":
		return nil
	case o.Queue:
		return errors.New("--baseline gates a run this process runs: without --queue, or compare the queued run when it ends (gavel compare BASE RUN)")
	case o.Shard.Count > 0:
		return errors.New("--baseline gates a whole run, not a shard: gavel merge the shards, then gavel compare BASE MERGED")
	}
	return nil
}
