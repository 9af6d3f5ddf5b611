// Package runner runs a suite: a bounded pool of workers over cases ×
// trials, each trial a conversation (package conversation) judged by its
// case's judge, with a per-trial timeout, a budget that stops scheduling
// once spent, a fail-fast option and a graceful stop. Results come back
// in suite order, whatever order they finished in, and progress is
// reported as each trial finishes.
//
// A trial whose conversation did not complete (the agent crashed, timed
// out, or a setup step failed) is an ERROR with the reason, never a FAIL:
// it says nothing about the agent's answers. Its judges do not run.
package runner
