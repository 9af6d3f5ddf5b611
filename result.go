package gavel

import (
	"time"

	"github.com/gavelhq/gavel/judge"
)

// A Trial is one run of one case: the transcript and its judgments.
type Trial struct {
	CaseID string `json:"case_id"`
	// N counts the case's trials from 1.
	N          int               `json:"trial"`
	Transcript *judge.Transcript `json:"transcript"`
	// Verdict is the case's verdict on this trial: ERROR when the
	// conversation did not complete (the agent crashed or timed out),
	// else every round's judges and the case's judge together.
	Verdict judge.Judgment `json:"verdict"`
	// Usage is what the trial cost, by role.
	Usage RoleUsage `json:"usage"`
	// Models is what the trial spent on each model Gavel called for it
	// (a builtin agent's, the judges', a simulated user's, the follow-up
	// detector's), by the model's name: a run's Models are their sum. An
	// agent that calls its own models (http, exec) reports usage, not
	// which models it used, so it is not in it.
	Models   map[string]judge.Usage `json:"models,omitempty"`
	Duration time.Duration          `json:"duration_ns"`
	// TraceID is the OpenTelemetry trace the trial's spans are in (32
	// hexadecimal digits), when the run was traced (package telemetry).
	TraceID string `json:"trace_id,omitempty"`
}

// Cause says what made the trial ERROR when it was the world around the
// agent and the judges: judge.CauseCancelled when the run was stopped at
// once while it ran (it did not finish: --resume runs it again), else
// judge.CauseUnreachable when a service could not be reached (the agent,
// or a model it, a simulated user or a judge needed), as the ERRORs of its
// verdict say. It is "" for any other ERROR, and for a trial that is not
// ERROR.
func (t Trial) Cause() judge.Cause {
	if t.Verdict.Status != judge.StatusError {
		return ""
	}
	var found judge.Cause
	var walk func(j judge.Judgment)
	walk = func(j judge.Judgment) {
		if j.Status != judge.StatusError {
			return
		}
		if j.Cause == judge.CauseCancelled || (j.Cause != "" && found == "") {
			found = j.Cause
		}
		for _, p := range j.Parts {
			walk(p)
		}
	}
	walk(t.Verdict)
	return found
}

// TrialVerdict is the verdict a trial gets of its case's judgment: the
// judgment, unless no judge had anything to say (ABSTAIN), which is no
// pass: an ERROR then.
func TrialVerdict(v judge.Judgment) judge.Judgment {
	if v.Status == judge.StatusAbstain {
		v.Status = judge.StatusError
		v.Reasoning = "no judge gave a verdict: " + v.Reasoning
	}
	return v
}

// Recompute sets the trial's verdict to what its judgments make of it
// (judge.Judgment.Recomputed), as the runner gives it (TrialVerdict), for
// a trial read from a file that may have been edited by hand: a shard's
// report to merge, a report to import. A verdict whose status comes out
// as written is kept as written (its parts recomputed); a verdict
// written as an ABSTAIN, a trial imported without one, stays so unless
// its parts say otherwise.
func (t *Trial) Recompute() {
	written := t.Verdict
	v := written.Recomputed()
	if v.Status != written.Status && written.Status != judge.StatusAbstain {
		v = TrialVerdict(v)
	}
	if v.Status == written.Status {
		v.Reasoning, v.Score = written.Reasoning, written.Score
	}
	t.Verdict = v
}

// RoleUsage is what a trial spent, by who spent it.
type RoleUsage struct {
	// Agent is what the agent under test spent (as its replies report it).
	Agent judge.Usage `json:"agent,omitzero"`
	// Judge is what the LLM judges spent, those that could not judge
	// included.
	Judge judge.Usage `json:"judge,omitzero"`
	// SimulatedUser is what the models playing simulated users spent.
	SimulatedUser judge.Usage `json:"simulated_user,omitzero"`
	// FollowUp is what the follow-up detector spent deciding whether the
	// agent asked for clarification, and writing the answers it gave.
	FollowUp judge.Usage `json:"followup,omitzero"`
}

// A NamedUsage is one role's usage, named as reports name the role.
type NamedUsage struct {
	Role  string
	Usage judge.Usage
}

// Roles returns every role's usage, named, in the order reports list
// them: agent, judge, simulated user, follow-up.
func (u RoleUsage) Roles() []NamedUsage {
	return []NamedUsage{{"agent", u.Agent}, {"judge", u.Judge}, {"simulated user", u.SimulatedUser}, {"follow-up", u.FollowUp}}
}

// Total returns the sum of every role's usage.
func (u RoleUsage) Total() judge.Usage {
	return u.Agent.Add(u.Judge).Add(u.SimulatedUser).Add(u.FollowUp)
}

// Add returns the sum of u and v, role by role.
func (u RoleUsage) Add(v RoleUsage) RoleUsage {
	return RoleUsage{
		Agent:         u.Agent.Add(v.Agent),
		Judge:         u.Judge.Add(v.Judge),
		SimulatedUser: u.SimulatedUser.Add(v.SimulatedUser),
		FollowUp:      u.FollowUp.Add(v.FollowUp),
	}
}

// Outcome is how a case, or a run, came out.
type Outcome string

// The outcomes of a case over its trials. A trial that abstained (no judge
// had anything to say of it: an imported trial not judged yet) is no
// verdict, and is left out of them, as every aggregate leaves an ABSTAIN
// out.
const (
	Passed  Outcome = "PASS"    // every trial passed
	Failed  Outcome = "FAIL"    // a trial failed
	Errored Outcome = "ERROR"   // no trial failed, but one could not be judged
	Flaky   Outcome = "FLAKY"   // some trials passed and some failed
	Skipped Outcome = "SKIPPED" // not run (the budget ran out, or the run was interrupted), or not judged: every trial abstained
)

// A CaseResult is a case's trials and what they add up to.
type CaseResult struct {
	Case   *Case   `json:"-"`
	Trials []Trial `json:"trials"`
	// Outcome sums the trials up; SkipReason says why when Skipped.
	Outcome    Outcome `json:"outcome"`
	SkipReason string  `json:"skip_reason,omitempty"`
	// Quarantined, when set, says why the case was left out of its run's
	// gate (store.Quarantine, or its suite's flaky: quarantine_after): it
	// ran and is reported, but its failures fail nothing.
	Quarantined string `json:"quarantined,omitempty"`
	// Definition identifies the definition of the case the trials ran (a
	// digest of it, as the results store keeps it), so that a comparison
	// can tell a case that changed from one that did not; "" when
	// unknown.
	Definition string `json:"definition,omitempty"`
}

// ID returns the case's id: its Case's, or, for a result without its
// Case (read back from storage, say), its first trial's; "" when neither
// says.
func (r *CaseResult) ID() string {
	if r.Case != nil && r.Case.ID != "" {
		return r.Case.ID
	}
	if len(r.Trials) > 0 {
		return r.Trials[0].CaseID
	}
	return ""
}

// PassRate returns the share of the case's judged trials that passed,
// and false when none was judged: none ran, or every one's verdict
// abstained (a conversation imported without a verdict, see Judged). An
// ERROR was judged: it counts as not passed.
func (r *CaseResult) PassRate() (float64, bool) {
	passed, judged := r.passes()
	if judged == 0 {
		return 0, false
	}
	return float64(passed) / float64(judged), true
}

// passes counts the case's judged trials (see Judged) and those of them
// that passed.
func (r *CaseResult) passes() (passed, judged int) {
	for _, t := range r.Trials {
		if !t.Judged() {
			continue
		}
		judged++
		if t.Verdict.Passed() {
			passed++
		}
	}
	return passed, judged
}

// Judged reports whether the trial has a verdict: one that does not
// abstain. A trial imported without a verdict (gavel import) abstains
// until gavel rejudge judges it, and Gavel's own runs never abstain (a
// verdict of judges that all abstained is an ERROR): a pass rate, pass@k
// and pass^k count only judged trials, so that a run nobody judged has
// none, rather than 0%.
func (t Trial) Judged() bool { return t.Verdict.Status != judge.StatusAbstain }

// Summarize sets the outcome from the trials, and SkipReason with it: a
// case that did not run keeps the reason its runner gave; one whose every
// trial abstained is SKIPPED as not judged, never PASS; any other has
// none.
func (r *CaseResult) Summarize() {
	if len(r.Trials) == 0 {
		r.Outcome = Skipped
		return
	}
	r.SkipReason = ""
	var passed, failed, errored int
	for _, t := range r.Trials {
		switch t.Verdict.Status {
		case judge.StatusPass:
			passed++
		case judge.StatusFail:
			failed++
		case judge.StatusError:
			errored++
		}
	}
	switch {
	case passed > 0 && failed > 0:
		r.Outcome = Flaky
	case failed > 0:
		r.Outcome = Failed
	case errored > 0:
		r.Outcome = Errored
	case passed > 0:
		r.Outcome = Passed
	default:
		r.Outcome, r.SkipReason = Skipped, notJudged(r.Trials)
	}
}

// notJudged says why a case whose every trial abstained is SKIPPED, with
// the first trial's reason when it gives one.
func notJudged(trials []Trial) string {
	const why = "not judged: no judge gave a verdict"
	if reason := trials[0].Verdict.Reasoning; reason != "" {
		return why + " (" + reason + ")"
	}
	return why
}
