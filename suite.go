package gavel

import (
	"github.com/gavelhq/gavel/agent"
	"github.com/gavelhq/gavel/conversation"
	"github.com/gavelhq/gavel/judge"
	"github.com/gavelhq/gavel/secret"
)

// A Suite is a set of cases run against one agent, with the pass rate the
// suite must reach. Package spec builds suites from files; Go code can
// build them directly.
type Suite struct {
	Name        string
	Description string
	// File is where the suite was read from, if anywhere.
	File string

	// Agent is the agent under test, for every case that names no other.
	Agent agent.Agent

	Cases []*Case

	// Threshold is the pass rate (0..1) the suite must reach. Defaults
	// to 1: every case passes.
	Threshold float64
	// Gate is how the pass rate, a sample, is weighed against Threshold
	// (see Run.Gate).
	Gate GateConfig
	// Flaky is how the suite treats its unstable cases.
	Flaky FlakyConfig
	// Trials is how many times each case runs, unless it says otherwise.
	// Defaults to 1.
	Trials int

	// SharedPaths are globs of files every case depends on (the agent's
	// prompt, its tools): a change to one selects every case.
	SharedPaths []string

	// Models names the models the suite uses, by role ("agent", "judge",
	// "user"), for reports and the store: their references as they are
	// shown, without secrets (package spec writes them so).
	Models map[string]string

	// Secrets are what the run must never write: package spec sets them
	// to the secrets the suite file reads from the environment. The
	// runner hides them in every trial it returns and in the trials'
	// spans. Nil hides nothing.
	Secrets *secret.Set
}

// A Case is one scenario: a conversation with the agent and the judges of
// its outcome.
type Case struct {
	ID          string
	Name        string
	Description string
	Tags        []string
	Difficulty  string
	Metadata    map[string]string
	// Paths are globs of the code the case covers, for selecting cases by
	// what changed. A case without paths is always selected.
	Paths []string
	// Source is where the case was written ("cases.yaml:12"), if anywhere.
	Source string

	// Script is what is said to the agent.
	Script conversation.Script

	// Judge gives the case's verdict on a transcript. A round's judges are
	// wrapped in judge.InRound, and the cheap ones of every round usually
	// come first in a judge.Tiered, so that a hard failure anywhere costs
	// no LLM tokens.
	Judge judge.Judge

	// Expected says in words what the case expects, for reports.
	Expected string

	// Critical marks a case whose every failure fails the gate, whatever
	// the pass rate and its statistics: a refund the agent must never
	// promise, say.
	Critical bool

	// Trials overrides the suite's number of trials when positive.
	Trials int
	// Agent overrides the suite's agent when set.
	Agent agent.Agent
}

// Input returns what the case asks, in one line (see
// conversation.Script.Goal), for reports.
func (c *Case) Input() string { return c.Script.Goal() }
