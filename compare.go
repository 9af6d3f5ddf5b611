package gavel

import (
	"cmp"
	"maps"
	"slices"

	"github.com/gavelhq/gavel/judge"
)

// A Comparison sets two runs of a suite side by side: a base, the
// reference (the run of main, say), and a head, the change (the run of a
// pull request). It is what `gavel compare BASE HEAD` reports, and a head
// with regressions fails the comparison (see HasRegressions).
//
// Cases are matched by id (see CaseResult.ID); each matched case lands
// in exactly one list, or in the Unchanged count, by its outcome in each
// run:
//
//	base \ head  PASS         FAIL         FLAKY        ERROR        SKIPPED
//	PASS         unchanged    regression   regression   errored      not compared
//	FAIL         fix          unchanged    changed      errored      not compared
//	FLAKY        fix          changed      unchanged    errored      not compared
//	ERROR        not compared not compared not compared errored      not compared
//	SKIPPED      not compared not compared not compared not compared not compared
//
// That is: a regression passed in the base and did not pass in the head,
// whether every trial failed or some (a case that goes flaky is a
// regression); a fix is the reverse. A case that passed in neither run
// but came out differently, failing in every trial in one and in some in
// the other, has changed; it is neither, since it did not pass either
// way. A case the head could not judge (ERROR: the agent crashed or
// timed out, a judge's model failed) errored: that is not the agent's
// fault, so it is reported apart and not counted as a regression, even if
// the case passed in the base. Nor can a case be compared that one run
// skipped or the base could not judge.
//
// Cases in the head only were added; cases in the base only were
// removed. Every list is in the head's order (the suite's), but Removed,
// in the base's.
type Comparison struct {
	// Regressions passed in the base and did not pass in the head
	// (PASS → FAIL or FLAKY).
	Regressions []CaseChange
	// Fixes did not pass in the base and pass in the head (FAIL or
	// FLAKY → PASS).
	Fixes []CaseChange
	// Changed passed in neither run but came out differently (FAIL →
	// FLAKY: some trials pass now; FLAKY → FAIL: none does).
	Changed []CaseChange
	// Errored could not be judged in the head (→ ERROR), whatever their
	// outcome in the base.
	Errored []CaseChange
	// NotCompared were skipped in either run, or could not be judged in
	// the base (ERROR →).
	NotCompared []CaseChange
	// Added are in the head only; Removed in the base only.
	Added, Removed []CaseChange
	// Redefined are in both runs with definitions that differ (see
	// CaseResult.Definition): not comparable, so in no other list.
	Redefined []CaseChange
	// Unchanged counts the cases that came out the same in both runs
	// (PASS, FAIL or FLAKY in both), whatever their pass rates.
	Unchanged int

	// Test is the test of the head against the base over the cases both
	// judged with the same definition: whether the lists above differ by
	// more than chance (see Significance). Its verdict, not the lists,
	// says whether the head regressed.
	Test Significance
	// Critical are the head's critical cases (Case.Critical) that
	// failed: each fails the comparison, whatever the test says.
	Critical []CaseChange

	// PassRate is each run's pass rate (Stats.PassRate). Each is over the
	// cases that were judged in that run, which need not be the same
	// cases; a side is nil when nothing was judged in that run.
	PassRate RateDelta
	// CostUSD is what each run spent, in US dollars (the total of
	// Stats.Usage).
	CostUSD Delta
	// CostUnpriced says which run's cost leaves out a model without a
	// price: that cost is a lower bound, and the change is unknown.
	CostUnpriced Unpriced
	// Criteria set each criterion's scores in the base beside its scores
	// in the head (see CriterionStat), sorted by name.
	Criteria []CriterionDelta

	// Replies set what the agent said in each run side by side, case by
	// case (see Replies); nil when the runs were read without their
	// transcripts. Compare leaves it nil: set it with Replies.
	Replies []ReplyPair
	// Pairwise, when a pairwise judge was asked which reply is better, is
	// its tally over Replies (see TallyPairwise); nil when none was.
	Pairwise *PairwiseTally
}

// A CaseChange is one case of a comparison: how it came out in each run.
type CaseChange struct {
	// ID is the case's id, by which the runs were matched.
	ID string
	// Name is the case's name in the head, or in the base when the head
	// has none.
	Name string
	// Base and Head are the case in each run; a side's Result is nil when
	// the case is not in that run.
	Base, Head CaseSide
}

// A CaseSide is how a case came out in one run of a comparison.
type CaseSide struct {
	// Result is the case's result in the run, for the details; nil when
	// the run has no such case.
	Result *CaseResult
	// Outcome is the case's outcome; "" when the run has no such case.
	Outcome Outcome
	// Passed counts the trials that passed, Trials the trials that ran,
	// Judged those of them that were judged (see Trial.Judged).
	Passed, Trials, Judged int
	// Reason says why the case did not pass, on one line: for a case that
	// ran, the first reason its first trial that did not pass gave (the
	// name and reasoning of the first judgment at the end of a failing
	// branch of the verdict); for a skipped case, why it was skipped; ""
	// when every trial passed. It is untrusted text, as the judges and
	// the suite wrote it: escape it for where it goes.
	Reason string
}

// PassRate returns the share of the case's judged trials that passed,
// and false when none was judged (see CaseResult.PassRate).
func (s CaseSide) PassRate() (float64, bool) {
	if s.Judged == 0 {
		return 0, false
	}
	return float64(s.Passed) / float64(s.Judged), true
}

// A Delta is a number of the base beside the same number of the head.
type Delta struct {
	Base, Head float64
}

// Diff returns Head - Base: positive when the head's number is higher.
func (d Delta) Diff() float64 { return d.Head - d.Base }

// A RateDelta is the pass rate of the base beside the head's; a side is
// nil when nothing was judged in that run (see Stats.PassRate).
type RateDelta struct {
	Base, Head *float64
}

// Diff returns Head - Base, and false when either side is unknown: a
// change from or to nothing is no number.
func (d RateDelta) Diff() (float64, bool) {
	if d.Base == nil || d.Head == nil {
		return 0, false
	}
	return *d.Head - *d.Base, true
}

// Unpriced says, of each of two runs, whether its cost leaves out a model
// without a price.
type Unpriced struct {
	Base, Head bool
}

// A CriterionDelta is a criterion's scores in both runs. A side's Count
// is 0 when the criterion has no score in that run: the criterion is new
// (in the head only) or gone (in the base only).
type CriterionDelta struct {
	Name       string
	Base, Head CriterionStat
}

// Diff returns the head's mean score less the base's, and false when the
// criterion has scores in only one of the runs.
func (c CriterionDelta) Diff() (float64, bool) {
	if c.Base.Count == 0 || c.Head.Count == 0 {
		return 0, false
	}
	return c.Head.Mean - c.Base.Mean, true
}

// HasRegressions reports whether a case that passed in the base did not
// pass in the head. Two runs of one agent differ by chance, so that alone
// does not say the head is worse: Failed does.
func (c Comparison) HasRegressions() bool { return len(c.Regressions) > 0 }

// Compare compares head, a run of a change, with base, a run of the
// reference (see Comparison), and tests the difference as
// DefaultCompareConfig says. A nil run counts as a run without cases.
//
// Cases are matched by id; should a run hold several cases of one id, the
// first of the head is matched with the first of the base, the second
// with the second, and so on.
func Compare(base, head *Run) Comparison {
	return CompareWith(base, head, DefaultCompareConfig())
}

// CompareWith is Compare, testing the difference as cfg says: the zero
// CompareConfig is DefaultCompareConfig. It panics on a cfg that fails
// its Check: check what a user gave first.
func CompareWith(base, head *Run, cfg CompareConfig) Comparison {
	if cfg == (CompareConfig{}) {
		cfg = DefaultCompareConfig()
	}
	if err := cfg.Check(); err != nil {
		panic("gavel.CompareWith: " + err.Error())
	}
	if base == nil {
		base = &Run{}
	}
	if head == nil {
		head = &Run{}
	}
	var c Comparison

	inBase := map[string][]int{}
	for i := range base.Cases {
		id := base.Cases[i].ID()
		inBase[id] = append(inBase[id], i)
	}
	matched := make([]bool, len(base.Cases))
	var tested []pairedCase
	for i := range head.Cases {
		h := &head.Cases[i]
		id := h.ID()
		change := CaseChange{ID: id, Head: sideOf(h)}
		if idx := inBase[id]; len(idx) > 0 {
			b := &base.Cases[idx[0]]
			inBase[id], matched[idx[0]] = idx[1:], true
			change.Base = sideOf(b)
		}
		change.Name = caseName(change.Head.Result, change.Base.Result)
		if critical(h) && h.Quarantined == "" {
			c.Critical = append(c.Critical, change)
		}
		switch {
		case change.Base.Result == nil:
			c.Added = append(c.Added, change)
			continue
		case h.Quarantined != "":
			// Reported, but out of the gate, the comparison's too.
			c.NotCompared = append(c.NotCompared, change)
			continue
		case redefined(change.Base.Result, h):
			c.Redefined = append(c.Redefined, change)
			continue
		case testable(change):
			tested = append(tested, pair(change))
		}
		if list := c.listFor(change.Base.Outcome, change.Head.Outcome); list != nil {
			*list = append(*list, change)
		} else {
			c.Unchanged++
		}
	}
	for i := range base.Cases {
		if matched[i] {
			continue
		}
		b := &base.Cases[i]
		c.Removed = append(c.Removed, CaseChange{ID: b.ID(), Name: caseName(b, nil), Base: sideOf(b)})
	}

	bs, hs := base.Stats(), head.Stats()
	c.PassRate = RateDelta{Base: bs.PassRate, Head: hs.PassRate}
	c.CostUSD = Delta{Base: bs.Usage.Total().CostUSD, Head: hs.Usage.Total().CostUSD}
	c.CostUnpriced = Unpriced{Base: bs.Usage.Total().Unpriced, Head: hs.Usage.Total().Unpriced}
	c.Criteria = criterionDeltas(bs.Criteria, hs.Criteria)
	c.Test = cfg.test(tested)
	return c
}

// redefined reports whether two results of a case ran different
// definitions of it; false when either's is unknown.
func redefined(base, head *CaseResult) bool {
	return base.Definition != "" && head.Definition != "" && base.Definition != head.Definition
}

// listFor returns the list a case that came out base in the base and
// head in the head belongs in, by the table of Comparison; nil when it is
// unchanged.
func (c *Comparison) listFor(base, head Outcome) *[]CaseChange {
	switch {
	case base == Skipped || head == Skipped:
		return &c.NotCompared
	case head == Errored:
		return &c.Errored
	case base == Errored:
		return &c.NotCompared
	case base == head:
		return nil
	case base == Passed:
		return &c.Regressions
	case head == Passed:
		return &c.Fixes
	}
	return &c.Changed
}

// sideOf sums up a case result for a comparison.
func sideOf(r *CaseResult) CaseSide {
	s := CaseSide{Result: r, Outcome: r.Outcome, Trials: len(r.Trials)}
	for _, t := range r.Trials {
		if t.Judged() {
			s.Judged++
		}
		if t.Verdict.Passed() {
			s.Passed++
		} else if s.Reason == "" {
			s.Reason = firstReason(t.Verdict)
		}
	}
	if r.Outcome == Skipped {
		s.Reason = r.SkipReason
	}
	return s
}

// caseName returns the name of the first of the results that has one.
func caseName(results ...*CaseResult) string {
	for _, r := range results {
		if r != nil && r.Case != nil && r.Case.Name != "" {
			return r.Case.Name
		}
	}
	return ""
}

// firstReason returns the summary (name: reasoning) of the first
// judgment at the end of a failing branch of v: the first judgment that
// failed or errored none of whose parts did. It is "" when v did not
// fail or error, or that judgment says nothing.
func firstReason(v judge.Judgment) string {
	if v.Status != judge.StatusFail && v.Status != judge.StatusError {
		return ""
	}
	for _, p := range v.Parts {
		if p.Status == judge.StatusFail || p.Status == judge.StatusError {
			return firstReason(p)
		}
	}
	return v.Summary()
}

// criterionDeltas pairs the criteria of two runs by name, in name order.
func criterionDeltas(base, head []CriterionStat) []CriterionDelta {
	byName := map[string]CriterionDelta{}
	for _, s := range base {
		byName[s.Name] = CriterionDelta{Name: s.Name, Base: s}
	}
	for _, s := range head {
		d := byName[s.Name]
		d.Name, d.Head = s.Name, s
		byName[s.Name] = d
	}
	out := slices.Collect(maps.Values(byName))
	slices.SortFunc(out, func(a, b CriterionDelta) int { return cmp.Compare(a.Name, b.Name) })
	return out
}

// WhyNotCompared says why a case in NotCompared could not be compared:
// that it is quarantined in the head, which run skipped it and why, or
// that the base could not judge it.
func (c CaseChange) WhyNotCompared() string {
	switch {
	case c.Head.Result != nil && c.Head.Result.Quarantined != "":
		return "quarantined in head: " + c.Head.Result.Quarantined
	case c.Head.Outcome == Skipped:
		return "skipped in head: " + orNoReason(c.Head.Reason)
	case c.Base.Outcome == Skipped:
		return "skipped in base: " + orNoReason(c.Base.Reason)
	}
	return "errored in base: " + orNoReason(c.Base.Reason)
}

// orNoReason returns reason, or "no reason given" when it is empty.
func orNoReason(reason string) string {
	if reason == "" {
		return "no reason given"
	}
	return reason
}
