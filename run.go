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

	// JudgeAccuracy, when set, is the accuracy of the suite's judge by
	// people's labels of its verdicts (Calibration.JudgeAccuracy): Stats
	// then corrects the pass rate for its errors. Package eval sets it
	// from the results store as a run ends.
	JudgeAccuracy *stats.Accuracy `json:"-"`
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
	// PassRateInterval is PassRate's confidence interval, over cases (see
	// Intervals); nil without a pass rate.
	PassRateInterval *stats.Interval `json:"pass_rate_interval,omitempty"`
	// PassAtK[k-1] is pass@k: the mean over cases of the chance that at
	// least one of k trials drawn from the case's n judged trials passes.
	PassAtK []float64 `json:"pass_at_k,omitempty"`
	// PassHatK[k-1] is pass^k (τ-bench): the mean over cases of the chance
	// that all of k trials drawn pass, C(c,k)/C(n,k) for c passes.
	PassHatK []float64 `json:"pass_hat_k,omitempty"`
	// PassAtKInterval[k-1] and PassHatKInterval[k-1] are pass@k's and
	// pass^k's intervals, over cases.
	PassAtKInterval  []stats.Interval `json:"pass_at_k_interval,omitempty"`
	PassHatKInterval []stats.Interval `json:"pass_hat_k_interval,omitempty"`
	// Intervals says how the intervals were computed; nil without them.
	Intervals *Intervals `json:"intervals,omitempty"`
	// CorrectedPassRate is the pass rate over the judged trials corrected
	// for the judge's errors, when people's labels tell them
	// (Run.JudgeAccuracy); nil otherwise. Beside PassRate, never instead.
	CorrectedPassRate *CorrectedRate `json:"corrected_pass_rate,omitempty"`
	// Usage is what the run spent, by role.
	Usage RoleUsage `json:"usage"`
	// Models is what the run spent per model: a copy of Run.Models.
	Models map[string]judge.Usage `json:"models,omitempty"`
	// Flaky holds the ids of the flaky cases, in suite order.
	Flaky []string `json:"flaky,omitempty"`
	// CriticalFailed holds the ids of the critical cases (Case.Critical)
	// a trial of which failed, in suite order: each fails the gate.
	CriticalFailed []string `json:"critical_failed,omitempty"`
	// Quarantined holds the ids of the quarantined cases
	// (CaseResult.Quarantined), in suite order: counted among the cases
	// and their outcomes, but left out of the pass rate, its intervals and
	// the gate.
	Quarantined []string `json:"quarantined,omitempty"`
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
	// Interval is Mean's confidence interval over cases (a bootstrap of
	// the mean of every trial's score, the trials of a case drawn
	// together); nil when fewer than two cases have the criterion.
	Interval *stats.Interval `json:"interval,omitempty"`
}

// Intervals says how a run's confidence intervals were computed. Their
// unit is the case: a case's trials share its difficulty and are not
// independent samples, so each case counts once. With one judged trial a
// case, the pass rate's interval is Wilson's over cases; with more, and
// for pass@k, pass^k and the criteria, it is a percentile bootstrap that
// draws cases, each with all its trials.
type Intervals struct {
	// Level is the confidence level (0.95).
	Level float64 `json:"level"`
	// Unit is what one sample is: "case".
	Unit string `json:"unit"`
	// Resamples and Seed are the bootstrap's, so that its intervals can
	// be computed again; 0 when no interval is a bootstrap.
	Resamples int    `json:"resamples,omitempty"`
	Seed      uint64 `json:"seed,omitempty"`
}

// IntervalSeed seeds the bootstrap of every run's intervals, so that a
// run's report is the same each time it is written.
const IntervalSeed uint64 = 0x6761_7665_6c // "gavel"

// Stats computes the run's numbers. pass@k and pass^k are given for k up
// to the smallest number of judged trials of a judged case. Every rate and
// mean has its confidence interval (see Intervals), at the suite's level.
func (r *Run) Stats() Stats {
	s := Stats{Cases: map[Outcome]int{}, Models: maps.Clone(r.Models)}
	var ran []counts
	var shares []float64
	crit := criteria{}
	for i := range r.Cases {
		c := &r.Cases[i]
		s.Cases[c.Outcome]++
		if c.Outcome == Flaky {
			s.Flaky = append(s.Flaky, c.ID())
		}
		for _, t := range c.Trials {
			s.Usage = s.Usage.Add(t.Usage)
			crit.add(i, t.Verdict)
		}
		s.Trials += len(c.Trials)
		if c.Quarantined != "" {
			// Reported, but out of the gate: of the pass rate, its
			// intervals, and the critical cases.
			s.Quarantined = append(s.Quarantined, c.ID())
			continue
		}
		if critical(c) {
			s.CriticalFailed = append(s.CriticalFailed, c.ID())
		}
		rate, ok := c.PassRate()
		if !ok {
			continue
		}
		shares = append(shares, rate)
		var n counts
		n.c, n.n = c.passes()
		ran = append(ran, n)
	}
	level := r.gateConfig().level()
	s.Criteria = crit.stats(level)
	for _, c := range s.Criteria {
		if c.Interval != nil { // a bootstrap
			s.Intervals = &Intervals{Level: level, Unit: "case", Resamples: stats.DefaultResamples, Seed: IntervalSeed}
		}
	}
	if len(ran) == 0 {
		return s
	}
	var sum float64
	for _, v := range shares {
		sum += v
	}
	rate := sum / float64(len(ran))
	s.PassRate = &rate
	maxK := ran[0].n
	for _, n := range ran {
		maxK = min(maxK, n.n)
	}
	atK := make([][]float64, maxK) // atK[k-1][i]: case i's pass@k
	hatK := make([][]float64, maxK)
	for k := 1; k <= maxK; k++ {
		var at, hat float64
		for _, n := range ran {
			a, h := stats.PassAtK(n.c, n.n, k), stats.PassHatK(n.c, n.n, k)
			atK[k-1], hatK[k-1] = append(atK[k-1], a), append(hatK[k-1], h)
			at, hat = at+a, hat+h
		}
		s.PassAtK = append(s.PassAtK, at/float64(len(ran)))
		s.PassHatK = append(s.PassHatK, hat/float64(len(ran)))
	}
	rateIntervals(&s, ran, shares, atK, hatK, level)
	s.CorrectedPassRate = r.corrected(level)
	return s
}

// rateIntervals sets the intervals of s's pass rate, pass@k and pass^k,
// over the judged cases ran (their pass shares, and each case's pass@k
// and pass^k). With one trial a case, the pass rate is a proportion of
// cases, and its interval Wilson's; otherwise each is a bootstrap over
// cases.
func rateIntervals(s *Stats, ran []counts, shares []float64, atK, hatK [][]float64, level float64) {
	if s.Intervals == nil {
		s.Intervals = &Intervals{Level: level, Unit: "case"}
	}
	single := true
	passes := 0
	for _, n := range ran {
		single = single && n.n == 1
		passes += n.c
	}
	if single {
		iv := stats.Wilson(passes, len(ran), level)
		s.PassRateInterval = &iv
		s.PassAtKInterval, s.PassHatKInterval = []stats.Interval{iv}, []stats.Interval{iv}
		return
	}
	s.Intervals.Resamples, s.Intervals.Seed = stats.DefaultResamples, IntervalSeed
	if iv, ok := bootMean(shares, level); ok {
		s.PassRateInterval = &iv
	}
	for k := range atK {
		at, ok1 := bootMean(atK[k], level)
		hat, ok2 := bootMean(hatK[k], level)
		if !ok1 || !ok2 {
			s.PassAtKInterval, s.PassHatKInterval = nil, nil
			return
		}
		s.PassAtKInterval, s.PassHatKInterval = append(s.PassAtKInterval, at), append(s.PassHatKInterval, hat)
	}
}

// criteria gathers the criteria of verdicts by name.
type criteria map[string]*criterion

// A criterion is one criterion's scores so far: the count, the lowest,
// and each case's sum and count (the bootstrap draws cases).
type criterion struct {
	CriterionStat
	sum     float64
	byCase  map[int]int // case index → index in sums and counts
	sums    []float64
	counted []float64
}

// add walks the verdict of a trial of case i and adds every criterion in
// it.
func (cs criteria) add(i int, j judge.Judgment) {
	if len(j.Parts) > 0 {
		for _, p := range j.Parts {
			cs.add(i, p)
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
	if !seen {
		c = &criterion{CriterionStat: CriterionStat{Name: j.Name, Min: v}, byCase: map[int]int{}}
		cs[j.Name] = c
	}
	c.Min = min(c.Min, v)
	c.Count++
	c.sum += v
	k, ok := c.byCase[i]
	if !ok {
		k = len(c.sums)
		c.byCase[i] = k
		c.sums, c.counted = append(c.sums, 0), append(c.counted, 0)
	}
	c.sums[k] += v
	c.counted[k]++
}

// stats returns the criteria sorted by name, with their means and, when
// two cases or more have a criterion, its interval at level.
func (cs criteria) stats(level float64) []CriterionStat {
	if len(cs) == 0 {
		return nil
	}
	out := make([]CriterionStat, 0, len(cs))
	for _, c := range cs {
		st := c.CriterionStat
		st.Mean = c.sum / float64(c.Count)
		if len(c.sums) > 1 {
			if iv, ok := bootRatio(c.sums, c.counted, level); ok {
				st.Interval = &iv
			}
		}
		out = append(out, st)
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

// Passed reports whether the run passes its gate: it is complete and its
// Gate passes it. An incomplete run never passes, whatever its pass rate:
// the trials that did not run might have failed.
func (r *Run) Passed() bool { return r.Complete() && r.Gate().Passes }

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
