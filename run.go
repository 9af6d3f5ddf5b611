package gavel

import (
	"cmp"
	"maps"
	"slices"
	"time"

	"github.com/gavelhq/gavel/judge"
	"github.com/gavelhq/gavel/stats"
)

// A Run is the result of running a suite: every selected case in suite
// order, whatever order they finished in.
type Run struct {
	Suite *Suite       `json:"-"`
	Cases []CaseResult `json:"cases"`

	Started  time.Time     `json:"started"`
	Duration time.Duration `json:"duration_ns"`

	// Stopped says what stopped the run before every selected trial ran,
	// "" when every one ran. A stopped run is incomplete: it does not
	// pass, whatever its pass rate (see Passed).
	Stopped StopCause `json:"stopped,omitempty"`
	// StopReason says why in words, for reports: "interrupted (SIGTERM)",
	// "the budget of $0.005 was spent ($0.0061)".
	StopReason string `json:"stop_reason,omitempty"`

	// Models is what the run spent per model, by the model's name: the
	// sum of its trials' Models (see ModelUsage), which the runner fills
	// in; nil when no trial knew.
	Models map[string]judge.Usage `json:"models,omitempty"`
}

// ModelUsage sums what the run's trials spent per model (Trial.Models);
// nil when no trial says.
func (r *Run) ModelUsage() map[string]judge.Usage {
	var out map[string]judge.Usage
	for _, c := range r.Cases {
		for _, t := range c.Trials {
			for model, u := range t.Models {
				if out == nil {
					out = map[string]judge.Usage{}
				}
				out[model] = out[model].Add(u)
			}
		}
	}
	return out
}

// A StopCause is what stopped a run before every selected trial ran.
type StopCause string

// The causes of an incomplete run.
const (
	// StopInterrupted: stopped from outside: Ctrl-C, SIGTERM, the caller,
	// or a results store that stopped taking writes. A stored run whose
	// process died (abandoned) reads back so too.
	StopInterrupted StopCause = "interrupted"
	// StopBudget: what the trials spent reached the run's budget.
	StopBudget StopCause = "budget"
	// StopFailFast: a trial did not pass, and the run was to stop at the
	// first that did not.
	StopFailFast StopCause = "fail-fast"
	// StopRunning: nothing stopped the run, which was read (from a store)
	// while still running: what it saved so far is no verdict yet.
	StopRunning StopCause = "running"
	// StopNotJudged: the run's transcripts were imported from outside
	// (gavel import) without verdicts: no judge has read them yet, and
	// gavel rejudge judges them.
	StopNotJudged StopCause = "not-judged"
)

// Known reports whether c is one of the causes above.
func (c StopCause) Known() bool {
	switch c {
	case StopInterrupted, StopBudget, StopFailFast, StopRunning, StopNotJudged:
		return true
	}
	return false
}

// Stats are a run's numbers.
type Stats struct {
	// Cases counts the cases by outcome.
	Cases map[Outcome]int `json:"cases"`
	// Trials is how many trials ran.
	Trials int `json:"trials"`
	// PassRate is the mean of the pass rates of the cases that were
	// judged (CaseResult.PassRate); nil, and null in JSON, when none was:
	// every case was skipped, or imported without a verdict. Unknown is
	// not 0%: a run with no pass rate meets no threshold (see Run.Met).
	PassRate *float64 `json:"pass_rate"`
	// PassAtK[k-1] is pass@k: the mean over cases of the chance that at
	// least one of k trials drawn from the case's n judged trials passes.
	PassAtK []float64 `json:"pass_at_k,omitempty"`
	// PassHatK[k-1] is pass^k (τ-bench): the mean over cases of the chance
	// that all of k trials drawn pass, C(c,k)/C(n,k) for c passes.
	PassHatK []float64 `json:"pass_hat_k,omitempty"`
	// Usage is what the run spent, by role.
	Usage RoleUsage `json:"usage"`
	// Models is what the run spent per model: a copy of Run.Models.
	Models map[string]judge.Usage `json:"models,omitempty"`
	// Flaky holds the ids of the flaky cases, in suite order.
	Flaky []string `json:"flaky,omitempty"`
	// Criteria sum up the criteria's scores over every trial, sorted by
	// name (see CriterionStat).
	Criteria []CriterionStat `json:"criteria,omitempty"`
}

// A CriterionStat sums up one criterion's scores over every trial of a
// run.
//
// A criterion is a graded measurement in a trial's verdict: a judgment
// with a name, a numerical or categorical score, and no parts, that passed
// or failed. An LLM judge's score is one, and so is each criterion of a
// multi-criteria rubric, each juror of a jury, a tool-call F1. Left out
// are boolean scores (a rule holds or not: the case table and the failure
// details say which failed), composites (all, tiered, a jury's or a
// rubric's total: they are computed from their parts, which count
// themselves), unnamed judgments, and judgments that abstained or could
// not judge.
//
// Criteria are grouped by name across the run, so a judge that every case
// names "helpfulness" is one criterion. A judge that runs in a round is
// named "round N: name" (see judge.InRound), a criterion of its own.
type CriterionStat struct {
	Name string `json:"name"`
	// Count is how many scores there were: one per judgment of that name
	// in every trial.
	Count int `json:"count"`
	// Mean and Min are the mean and the lowest of the normalised scores
	// (0..1; see judge.Score.Normalized).
	Mean float64 `json:"mean"`
	Min  float64 `json:"min"`
}

// Stats computes the run's numbers. pass@k and pass^k are given for k up
// to the smallest number of judged trials of a judged case.
func (r *Run) Stats() Stats {
	s := Stats{Cases: map[Outcome]int{}, Models: maps.Clone(r.Models)}
	var ran []counts
	var rates float64
	crit := criteria{}
	for i := range r.Cases {
		c := &r.Cases[i]
		s.Cases[c.Outcome]++
		if c.Outcome == Flaky {
			s.Flaky = append(s.Flaky, c.ID())
		}
		for _, t := range c.Trials {
			s.Usage = s.Usage.Add(t.Usage)
			crit.add(t.Verdict)
		}
		s.Trials += len(c.Trials)
		rate, ok := c.PassRate()
		if !ok {
			continue
		}
		rates += rate
		var n counts
		n.c, n.n = c.passes()
		ran = append(ran, n)
	}
	s.Criteria = crit.stats()
	if len(ran) == 0 {
		return s
	}
	rate := rates / float64(len(ran))
	s.PassRate = &rate
	maxK := ran[0].n
	for _, n := range ran {
		maxK = min(maxK, n.n)
	}
	for k := 1; k <= maxK; k++ {
		var at, hat float64
		for _, n := range ran {
			at += stats.PassAtK(n.c, n.n, k)
			hat += stats.PassHatK(n.c, n.n, k)
		}
		s.PassAtK = append(s.PassAtK, at/float64(len(ran)))
		s.PassHatK = append(s.PassHatK, hat/float64(len(ran)))
	}
	return s
}

// criteria gathers the criteria of verdicts by name: the count, the
// lowest score and, until stats divides it, the sum of the scores.
type criteria map[string]CriterionStat

// add walks a verdict's tree and adds every criterion in it.
func (cs criteria) add(j judge.Judgment) {
	if len(j.Parts) > 0 {
		for _, p := range j.Parts {
			cs.add(p)
		}
		return
	}
	if j.Name == "" || (j.Score.Kind != judge.Numerical && j.Score.Kind != judge.Categorical) {
		return
	}
	v, ok := j.Normalized()
	if !ok {
		return
	}
	c, seen := cs[j.Name]
	if !seen || v < c.Min {
		c.Min = v
	}
	c.Name, c.Count, c.Mean = j.Name, c.Count+1, c.Mean+v
	cs[j.Name] = c
}

// stats returns the criteria sorted by name, with their means.
func (cs criteria) stats() []CriterionStat {
	if len(cs) == 0 {
		return nil
	}
	out := make([]CriterionStat, 0, len(cs))
	for _, c := range cs {
		c.Mean /= float64(c.Count)
		out = append(out, c)
	}
	slices.SortFunc(out, func(a, b CriterionStat) int { return cmp.Compare(a.Name, b.Name) })
	return out
}

// counts are a case's trials with a verdict, and its passes.
type counts struct{ n, c int }

// Met reports whether the cases that ran reached the suite's threshold
// (see Reaches). It says nothing of the cases that did not run: see
// Passed.
func (r *Run) Met() bool {
	return Reaches(r.Stats().PassRate, r.threshold())
}

// Reaches reports whether a run's pass rate reaches threshold, give or
// take the rounding of the rate (judge.CompareToThreshold: 3 cases passing
// 7 of 10 trials each reach 0.7). A run in which nothing was judged has
// no pass rate (nil), and reaches no threshold: it showed nothing, so it
// is no pass.
func Reaches(rate *float64, threshold float64) bool {
	return rate != nil && judge.CompareToThreshold(*rate, threshold) >= 0
}

// Complete reports whether the run ran every selected trial: nothing
// stopped it.
func (r *Run) Complete() bool { return r.Stopped == "" }

// Unreachable reports whether trials ran and every one of them (but those
// cut short by a cancellation) was an ERROR because a service could not
// be reached: the agent, or a model it, a simulated user or a judge
// needed (Trial.Cause). A service that answered badly was reached.
func (r *Run) Unreachable() bool {
	ran, unreachable := 0, 0
	for _, c := range r.Cases {
		for _, t := range c.Trials {
			switch t.Cause() {
			case judge.CauseCancelled:
				continue
			case judge.CauseUnreachable:
				unreachable++
			}
			ran++
		}
	}
	return ran > 0 && unreachable == ran
}

// Passed reports whether the run passes its gate: it is complete and met
// its threshold. An incomplete run never passes, whatever its pass rate:
// the trials that did not run might have failed.
func (r *Run) Passed() bool { return r.Complete() && r.Met() }

func (r *Run) threshold() float64 {
	if r.Suite == nil || r.Suite.Threshold == 0 {
		return 1
	}
	return r.Suite.Threshold
}

// CaseCount counts the run's cases, whatever their outcome.
func (s Stats) CaseCount() int {
	n := 0
	for _, c := range s.Cases {
		n += c
	}
	return n
}
