package runner

import (
	"context"
	"iter"

	"github.com/gavelhq/gavel"
	"github.com/gavelhq/gavel/agent"
)

// RunCases runs the cases cases yields, in that order, as Run runs a
// suite's, and returns the results in that order; s gives the agent, the
// trials and the name, and its Cases are not read. A case is asked for
// when the run is ready to start its trials (one case ahead of the
// workers), so that a suite read and built as it runs (spec.Stream)
// starts at once and needs no more than the cases a run keeps. total is
// how many trials the cases have in all, for Started and
// Progress.Total: 0 when it is not known beforehand.
//
// When the run stops early (Stop, the context, the budget, FailFast),
// the cases not yielded yet are still asked for, to be reported as
// skipped.
//
// Once a case's trials are all done, its result keeps a copy of the case
// without its Judge and Agent (what reports read of a case is kept), so
// that a long run lets go of the judges of the cases it finished.
func RunCases(ctx context.Context, s *gavel.Suite, cases iter.Seq[*gavel.Case], total int, c Config) *gavel.Run {
	return run(ctx, s, cases, total, c.withDefaults(), true)
}

// feed adds each case of cases to the run, in order, and hands its
// trials to the workers on queue, one at a time; trials that Reuse gives
// are recorded as they are. Once the run must stop, the trials left are
// skipped, and so are those of the cases still to come.
func (r *runState) feed(ctx context.Context, cases iter.Seq[*gavel.Case], queue chan<- job) {
	var cause gavel.StopCause
	var why string
	for cs := range cases {
		jobs, reused := r.add(cs)
		for _, j := range reused {
			t, _ := r.c.reuse(j.c.ID, j.n)
			r.finish(j, t, true)
		}
		for i, j := range jobs {
			if cause == "" {
				if cause, why = r.stopReason(ctx); cause == "" {
					select {
					case queue <- j:
						continue
					case <-ctx.Done():
					case <-r.c.Stop:
					}
					cause, why = r.stopReason(ctx)
				}
			}
			r.skip(jobs[i:], cause, why)
			break
		}
	}
}

// add adds case cs to the run, after those before it, and returns its
// trials to run and those Reuse gives; with Replay, a case without
// stored trials is skipped, for Replay's reason. A case Select chooses
// no trial of is left out of the run.
func (r *runState) add(cs *gavel.Case) (jobs, reused []job) {
	c := r.c
	if c.Select != nil && c.Replay == nil && c.TrialsOf(r.suite, cs) == 0 {
		return nil, nil
	}
	r.mu.Lock()
	i := len(r.run.Cases)
	r.run.Cases = append(r.run.Cases, gavel.CaseResult{Case: cs})
	scope := agent.NewScope(cs.ID)
	r.mu.Unlock()
	defer func() {
		for k := range jobs {
			jobs[k].scope = scope
		}
		r.mu.Lock()
		if n := len(jobs) + len(reused); n > 0 {
			r.left[i], r.scopes[i] = n, scope
		}
		r.mu.Unlock()
	}()
	if c.Replay != nil {
		stored, why := c.Replay(cs.ID)
		if len(stored) == 0 {
			r.mu.Lock()
			r.run.Cases[i].SkipReason = why
			r.mu.Unlock()
		}
		for _, t := range stored {
			jobs = append(jobs, job{index: i, c: cs, n: t.N, stored: &t})
		}
		return jobs, nil
	}
	for n := 1; n <= c.trials(r.suite, cs); n++ {
		if c.Select != nil && !c.Select(cs.ID, n) {
			continue
		}
		j := job{index: i, c: cs, n: n}
		if _, ok := c.reuse(cs.ID, n); ok {
			reused = append(reused, j)
		} else {
			jobs = append(jobs, j)
		}
	}
	return jobs, reused
}

// done notes that a trial of the case at index i finished or was
// skipped, and once its trials are all done, returns the case's scope,
// for the caller to end once it lets go of r.mu, and lets go of the
// case's judge and agent when the run releases them (see RunCases); r.mu
// is held.
func (r *runState) done(i int) *agent.Scope {
	left, ok := r.left[i]
	if !ok {
		return nil
	}
	if left > 1 {
		r.left[i] = left - 1
		return nil
	}
	scope := r.scopes[i]
	delete(r.left, i)
	delete(r.scopes, i)
	if r.release {
		light := *r.run.Cases[i].Case
		light.Judge, light.Agent = nil, nil
		r.run.Cases[i].Case = &light
	}
	return scope
}
