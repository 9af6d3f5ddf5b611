// Package runner runs a suite: a bounded pool of workers over cases ×
// trials, each trial a conversation (package conversation) judged by its
// case's judge, with a per-trial timeout, a budget that stops scheduling
// once spent, a fail-fast option and a graceful stop. Results come back
// in suite order, whatever order they finished in, and progress is
// reported as each trial finishes.
//
// A trial whose conversation did not complete (the agent crashed, timed
// out, or a setup step failed) is an ERROR with the reason, never a FAIL:
// it says nothing about the agent's answers. Its judges do not run; its
// verdict keeps the conversation's judge.Cause (unreachable, cancelled).
//
// A run that did not run every selected trial is incomplete:
// gavel.Run.Stopped says what stopped it (Config.Stop or the context: an
// interrupt; the budget; fail-fast, which stops on any trial that does
// not pass, FAIL or ERROR) and StopReason why, and the cases left out are
// skipped with that reason. An incomplete run never passes. Cancelling
// the context stops the run at once: the trials in flight come back as
// ERRORs whose cause is judge.CauseCancelled, so that a resumed run runs
// them again. With FailFast, each lane judges its trial before starting
// another, whatever the concurrency, so that nothing starts that a
// verdict would have stopped.
package runner
