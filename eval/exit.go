package eval

import (
	"fmt"

	"github.com/gavelhq/gavel"
	"github.com/gavelhq/gavel/report"
	"github.com/gavelhq/gavel/store"
)

// The exit codes a run earns, as gavel documents them (docs/ci.md, gavel
// run -h).
const (
	ExitPassed     = 0 // every run complete and its threshold met
	ExitFailed     = 1 // a threshold was not met, or fail-fast stopped a run
	ExitUsage      = 2 // a usage or suite-file error: nothing ran
	ExitInfra      = 3 // the agent or a provider was unreachable for the whole run, or the results database failed
	ExitUnknown    = 4 // a bug: please report it
	ExitIncomplete = 5 // a run did not run every selected trial (interrupted, out of budget)
	// ExitInconclusive: a run's sample did not decide its gate, and its
	// suite asks for a code of its own (gate: inconclusive: exit).
	ExitInconclusive = 6
)

// Worse returns the exit code that wins when several runs (or steps)
// earn a and b: a bug, then a usage error, an unreachable service, an
// inconclusive run whose suite asks for exit code 6, a threshold missed,
// an incomplete run, and a pass last. A known failure
// says more than a run cut short.
func Worse(a, b int) int {
	rank := func(code int) int {
		switch code {
		case ExitPassed:
			return 0
		case ExitIncomplete:
			return 1
		case ExitFailed:
			return 2
		case ExitInconclusive:
			return 3
		case ExitInfra:
			return 4
		case ExitUsage:
			return 5
		}
		return 6
	}
	if rank(b) > rank(a) {
		return b
	}
	return a
}

// ExitCode is the exit code a run earns:
//
//   - 3 (ExitInfra) when trials ran and every one of them (but those cut
//     short by a second signal) was an ERROR because a service could not
//     be reached: the agent, or a model it, a simulated user or a judge
//     needed (gavel.Trial.Cause). A service that answered badly (a 400, a
//     malformed verdict) was reached: its ERRORs count as not passed.
//   - 1 (ExitFailed) when fail-fast stopped the run after a trial that did
//     not pass, or the run is complete and its gate does not pass it
//     (gavel.Run.Gate: FAIL, or INCONCLUSIVE as its suite says).
//   - 6 (ExitInconclusive) when the run is complete, its gate is
//     INCONCLUSIVE, and its suite says an inconclusive run exits so.
//   - 5 (ExitIncomplete) when the run is otherwise incomplete
//     (interrupted, out of budget): the trials that did not run might
//     have failed, so it does not pass, whatever its pass rate.
//   - 0 (ExitPassed) when it is complete and its gate passes it.
func ExitCode(run *gavel.Run) int {
	switch {
	case run.Unreachable():
		return ExitInfra
	case run.Stopped == gavel.StopFailFast:
		return ExitFailed
	case !run.Complete():
		return ExitIncomplete
	}
	g := run.Gate()
	switch {
	case g.Decision == gavel.DecisionInconclusive && g.Inconclusive == gavel.InconclusiveExits:
		return ExitInconclusive
	case !g.Passes:
		return ExitFailed
	}
	return ExitPassed
}

// shardExitCode is the exit code a shard earns: ExitCode's, except that
// a pass rate below the threshold is no failure, since the gate is
// decided on the whole run (gavel merge, or the last shard to finish a
// run in a shared store).
func shardExitCode(run *gavel.Run) int {
	code := ExitCode(run)
	if (code == ExitFailed || code == ExitInconclusive) && run.Stopped != gavel.StopFailFast {
		return ExitPassed
	}
	return code
}

// GateCode is the exit code of a whole run put together from shards:
// ExitCode's, and 0 for a run that selected no case (--changed-since
// touched none), which gavel run passes without running anything.
func GateCode(run *gavel.Run) int {
	if len(run.Cases) == 0 {
		return ExitPassed
	}
	return ExitCode(run)
}

// Status is the stored status of a run that earned code: the recorder's
// (unless its writes failed), a merged run's and a labelled run's.
func Status(run *gavel.Run, code int) store.Status {
	switch {
	case code == ExitInfra:
		return store.Errored
	case !run.Complete():
		return store.Incomplete
	case code == ExitFailed:
		return store.Failed
	}
	return store.Passed
}

// WholeVerdict says how a whole run came out, in words: "PASS: pass
// rate 87.5% over 8 cases (8 trials), 95% interval 76–99%, threshold
// 75%".
func WholeVerdict(run *gavel.Run) string {
	if len(run.Cases) == 0 {
		return "PASS: no case was selected, there was nothing to gate"
	}
	stats := run.Stats()
	verdict := string(run.Gate().Decision)
	if !run.Complete() {
		verdict = "INCOMPLETE (" + run.StopReason + ")"
	}
	threshold := 1.0
	if run.Suite != nil && run.Suite.Threshold > 0 {
		threshold = run.Suite.Threshold
	}
	rate := "unknown, no trial was judged"
	if stats.PassRate != nil {
		rate = report.Percent(*stats.PassRate) + " over " + plural(len(run.Cases)-stats.Cases[gavel.Skipped], "case")
	}
	interval := ""
	if iv := stats.PassRateInterval; iv != nil {
		interval = fmt.Sprintf(", %s interval %s–%s", report.Percent(iv.Level), report.Percent(iv.Lo), report.Percent(iv.Hi))
	}
	return fmt.Sprintf("%s: pass rate %s (%d trials)%s, threshold %s", verdict, rate, stats.Trials, interval, report.Percent(threshold))
}

// plural says n things: "1 case", "3 cases".
func plural(n int, thing string) string {
	if n == 1 {
		return "1 " + thing
	}
	return fmt.Sprintf("%d %ss", n, thing)
}
