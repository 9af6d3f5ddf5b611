package report

import (
	"time"

	"github.com/gavelhq/gavel"
	"github.com/gavelhq/gavel/judge"
)

// suiteName returns the run's suite name, or "suite" when there is none.
func suiteName(run *gavel.Run) string {
	if run.Suite == nil || run.Suite.Name == "" {
		return "suite"
	}
	return run.Suite.Name
}

// threshold returns the pass rate the run had to reach: the suite's
// threshold, or 1 when there is no suite or it sets none.
func threshold(run *gavel.Run) float64 {
	if run.Suite == nil || run.Suite.Threshold == 0 {
		return 1
	}
	return run.Suite.Threshold
}

// caseFacts are what every report says about one case, computed once.
type caseFacts struct {
	ID, Name, Description string
	Input, Expected       string
	Outcome               gavel.Outcome
	// Passed counts the trials that passed, Ran those that ran, Judged
	// those of them that were judged (see gavel.Trial.Judged).
	Passed, Ran, Judged int
	// Score is the mean normalised score of the trial verdicts that
	// count (see judge.Judgment.Normalized); Scored is false when none do.
	Score  float64
	Scored bool
	Usage  gavel.RoleUsage
	// Duration adds up the trials' durations.
	Duration time.Duration
	// Aspects grade the tool checks and the response checks apart.
	Aspects aspectGrades
}

// factsOf sums up a case result. A result without its Case (read back
// from storage, say) takes its id from its first trial (see
// gavel.CaseResult.ID).
func factsOf(r *gavel.CaseResult) caseFacts {
	f := caseFacts{ID: r.ID(), Outcome: r.Outcome, Ran: len(r.Trials)}
	if c := r.Case; c != nil {
		f.Name, f.Description = c.Name, c.Description
		f.Input, f.Expected = c.Input(), c.Expected
	}
	if f.ID == "" {
		f.ID = "(unnamed case)"
	}
	var sum float64
	counted := 0
	for _, t := range r.Trials {
		if t.Verdict.Passed() {
			f.Passed++
		}
		if t.Judged() {
			f.Judged++
		}
		if v, ok := t.Verdict.Normalized(); ok {
			sum += v
			counted++
		}
		f.Usage = f.Usage.Add(t.Usage)
		f.Duration += t.Duration
	}
	if counted > 0 {
		f.Score, f.Scored = sum/float64(counted), true
	}
	f.Aspects = gradeAspects(r.Trials)
	return f
}

// title returns "id: name", or the id alone when the case has no name.
func (f caseFacts) title() string {
	if f.Name == "" {
		return f.ID
	}
	return f.ID + ": " + f.Name
}

// needsDetail reports whether a case's failures are worth showing: it
// ran and did not pass.
func needsDetail(o gavel.Outcome) bool {
	return o == gavel.Failed || o == gavel.Flaky || o == gavel.Errored
}

// notPassed returns the trials whose verdict is not PASS, in order.
func notPassed(trials []gavel.Trial) []gavel.Trial {
	var out []gavel.Trial
	for _, t := range trials {
		if !t.Verdict.Passed() {
			out = append(out, t)
		}
	}
	return out
}

// trialsToShow returns the trials of a case that a text or Markdown
// report details: the first that did not pass, or every one (passed ones
// too) when verbose; and how many more did not pass.
func trialsToShow(trials []gavel.Trial, verbose bool) (shown []gavel.Trial, more int) {
	if verbose {
		return trials, 0
	}
	bad := notPassed(trials)
	if len(bad) <= 1 {
		return bad, 0
	}
	return bad[:1], len(bad) - 1
}

// completed reports whether a trial's conversation ran to its end. A
// transcript that does not say how it ended counts as completed: there is
// no error to show.
func completed(t *judge.Transcript) bool {
	return t == nil || t.Status == "" || t.Status == judge.ExecSuccess
}
