package runner

import (
	"context"
	"fmt"
	"iter"
	"math"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/gavelhq/gavel"
	"github.com/gavelhq/gavel/agent"
	"github.com/gavelhq/gavel/conversation"
	"github.com/gavelhq/gavel/judge"
	"github.com/gavelhq/gavel/telemetry"
)

// Config says how to run a suite. The zero value runs every case once,
// four at a time, with a timeout of five minutes per trial.
type Config struct {
	// Concurrency is how many trials talk with the agent at once; as many
	// again may be being judged meanwhile (unless it is 1, or FailFast is
	// set: then each trial is judged before the next starts). Defaults
	// to 4.
	Concurrency int
	// Trials, when positive, overrides the suite's and every case's
	// number of trials.
	Trials int
	// Timeout bounds each trial's conversation. Defaults to 5 minutes.
	Timeout time.Duration
	// FollowUps answers the agent's requests for clarification; nil
	// means never.
	FollowUps conversation.Detector

	// Budget stops scheduling trials once what finished trials spent
	// reaches it; the cases not started are reported as skipped.
	Budget Budget
	// FailFast stops scheduling after the first trial that does not pass
	// (FAIL or ERROR), among those the run runs (not those Reuse gives).
	FailFast bool
	// Stop, when closed, stops scheduling: trials in flight finish, the
	// rest are skipped. Cancelling the context of Run stops the run at
	// once: the trials in flight are cancelled too, and come back as
	// ERRORs whose cause is judge.CauseCancelled.
	Stop <-chan struct{}
	// Why, if set, says why Stop was closed or the context cancelled
	// ("interrupted (SIGTERM)"), for the run's StopReason and the skipped
	// cases. Defaults to "the run was interrupted".
	Why func() string

	// Reuse, if set, gives the trials that are already done (those of a
	// run being resumed): a trial it returns is reported as it is, not
	// run again.
	Reuse func(caseID string, n int) (gavel.Trial, bool)

	// Select, if set, chooses the trials to run (gavel run --shard): a
	// trial it does not choose is neither run nor counted nor reported,
	// and a case none of whose trials it chooses is left out of the run.
	// Reuse is asked about chosen trials only; Replay ignores Select.
	Select func(caseID string, n int) bool

	// Started, if set, is called once before the first trial starts,
	// with how many trials the run has and how many run at once.
	Started func(total, concurrency int)

	// Replay, if set, makes the run a rejudging: the agent is not called,
	// and each case's trials are the stored trials Replay gives for it
	// (their numbers kept), whose transcripts are judged again by the
	// case's judges, as a live trial's would be. A transcript that did
	// not complete stays an ERROR (there is nothing to judge). A case for
	// which Replay gives no trial is skipped, with Replay's reason. Trials
	// and Reuse are ignored. A rejudged trial's Usage and Models are what
	// its judging spent: the conversation's cost was paid by the run that
	// held it (its transcript keeps its usage).
	Replay func(caseID string) (stored []gavel.Trial, skipReason string)

	// Progress, if set, is called after each trial, from one goroutine
	// at a time.
	Progress func(Progress)

	// Now tells the time. Defaults to time.Now.
	Now func() time.Time
}

// A Budget caps what a run may spend; zero fields are no cap. It is
// checked before each trial starts, against what the finished trials
// spent (those the run ran: not those Reuse gave, which an earlier run
// paid for): the trials in flight when it runs out finish, and may spend
// past it.
type Budget struct {
	// MaxCostUSD stops the run once the trials cost this much, or once
	// any of what they spent has no price (judge.Usage.Unpriced): a cost
	// that cannot be counted cannot be capped.
	MaxCostUSD float64
	// MaxTokens stops the run once the trials spent this many tokens.
	MaxTokens int64
}

// exceeded says how u exceeds b, or "".
func (b Budget) exceeded(u judge.Usage) string {
	switch {
	case b.MaxCostUSD > 0 && u.CostUSD >= b.MaxCostUSD:
		limit := dollars(b.MaxCostUSD, 2)
		return fmt.Sprintf("the budget of %s was spent (%s)", limit, dollars(u.CostUSD, max(4, decimals(limit)+1)))
	case b.MaxCostUSD > 0 && u.Unpriced:
		return fmt.Sprintf("the budget of %s cannot be kept: some of what was spent has no price "+
			"(an agent that reports tokens without their cost, or a model without a price)", dollars(b.MaxCostUSD, 2))
	case b.MaxTokens > 0 && u.Tokens() >= b.MaxTokens:
		return fmt.Sprintf("the budget of %d tokens was spent (%s)", b.MaxTokens, atLeast(u.Tokens()))
	}
	return ""
}

// atLeast formats a sum of counts, which saturates at math.MaxInt64
// (judge.Usage.Add): that sum is "at least" so many.
func atLeast(n int64) string {
	if n == math.MaxInt64 {
		return fmt.Sprintf("at least %d", n)
	}
	return strconv.FormatInt(n, 10)
}

// dollars formats an amount with at least minDecimals decimals, and as
// many more as it has: a cap of $0.005 is shown as such, never rounded to
// $0.01. Amounts summed from many calls are cut at minDecimals+4 at most.
func dollars(v float64, minDecimals int) string {
	s := strconv.FormatFloat(v, 'f', -1, 64)
	if d := decimals(s); d < minDecimals {
		s = strconv.FormatFloat(v, 'f', minDecimals, 64)
	} else if d > minDecimals+4 {
		s = strconv.FormatFloat(v, 'f', minDecimals+4, 64)
	}
	return "$" + s
}

// decimals counts the digits after the point of a formatted number.
func decimals(s string) int {
	if i := strings.IndexByte(s, '.'); i >= 0 {
		return len(s) - i - 1
	}
	return 0
}

// Progress is the state of a run after a trial finished.
type Progress struct {
	// Trial is the trial that just finished.
	Trial gavel.Trial
	// Reused is true when the trial was not run but given by Reuse.
	Reused bool
	// Done and Total count trials; Passed, Failed and Errored count
	// finished trials by verdict.
	Done, Total             int
	Passed, Failed, Errored int
	Usage                   gavel.RoleUsage
	Elapsed                 time.Duration
}

// A conversedTrial is a trial whose conversation is over, to be judged.
type conversedTrial struct {
	job     job
	trial   gavel.Trial
	started time.Time
	// ctx carries the trial's span (telemetry.StartTrial), which end
	// ends once the trial is judged.
	ctx context.Context
	end func(judge.Judgment, *judge.Transcript)
}

// A job is one trial to run.
type job struct {
	index int // of the case in the suite
	c     *gavel.Case
	n     int // trial number, from 1
	// stored, when set, is the stored trial whose transcript this job
	// judges again (Config.Replay), instead of a conversation.
	stored *gavel.Trial
	// scope is the case's (agent.CaseScope), which ends when its last
	// trial is done; nil for a trial run alone (RunTrial).
	scope *agent.Scope
}

// Run runs every case of s and returns the results in suite order.
func Run(ctx context.Context, s *gavel.Suite, c Config) *gavel.Run {
	c = c.withDefaults()
	total := 0
	for _, cs := range s.Cases {
		total += c.TrialsOf(s, cs)
	}
	return run(ctx, s, slices.Values(s.Cases), total, c, false)
}

// run runs the cases of cases, as many trials in all as total says (for
// Progress and Started; 0 when unknown), on c with its defaults; release
// says whether to let go of a case's judge once its trials are done.
func run(ctx context.Context, s *gavel.Suite, cases iter.Seq[*gavel.Case], total int, c Config, release bool) *gavel.Run {
	r := &runState{suite: s, c: c, run: &gavel.Run{Suite: s, Started: c.Now()}, left: map[int]int{}, scopes: map[int]*agent.Scope{}, release: release}
	r.progress.Total = total
	if c.Started != nil {
		c.Started(total, c.Concurrency)
	}

	// A pipeline: Concurrency trials in conversation with the agent, and
	// as many being judged, so that the agent never waits for a judge.
	// One at a time, or with FailFast, each trial is judged before the
	// next starts, so that nothing starts that a verdict would stop.
	sequential := c.Concurrency == 1 || c.FailFast
	queue := make(chan job)
	conversed := make(chan conversedTrial)
	var talking, judging sync.WaitGroup
	workers := c.Concurrency
	if total > 0 {
		workers = min(workers, total)
	}
	for range workers {
		talking.Go(func() {
			for j := range queue {
				// Checked again here: the budget may have run out while
				// the job waited for a worker.
				if cause, why := r.stopReason(ctx); cause != "" {
					r.skip([]job{j}, cause, why)
					continue
				}
				started := c.Now()
				tctx, end := startTrial(ctx, s, j)
				var t gavel.Trial
				if j.stored != nil {
					t = replayed(*j.stored)
				} else {
					t = converse(tctx, s, j, c)
				}
				t.TraceID = telemetry.TraceID(tctx)
				if sequential { // no trial starts before this one's verdict is known
					r.finish(j, judgeTraced(tctx, end, j, t, started, c), false)
					continue
				}
				conversed <- conversedTrial{j, t, started, tctx, end}
			}
		})
		judging.Go(func() {
			for ct := range conversed {
				r.finish(ct.job, judgeTraced(ct.ctx, ct.end, ct.job, ct.trial, ct.started, c), false)
			}
		})
	}
	r.feed(ctx, cases, queue)
	close(queue)
	talking.Wait()
	close(conversed)
	judging.Wait()

	for _, scope := range r.scopes { // of cases whose trials were never all done
		scope.End()
	}
	for i := range r.run.Cases {
		cr := &r.run.Cases[i]
		slices.SortFunc(cr.Trials, func(a, b gavel.Trial) int { return a.N - b.N })
		cr.Summarize()
		if cr.Outcome != gavel.Skipped {
			cr.SkipReason = "" // some trials ran: the case is judged on them
		}
	}
	r.run.Models = r.run.ModelUsage()
	r.run.Duration = c.Now().Sub(r.run.Started)
	return r.run
}

func (c Config) withDefaults() Config {
	if c.Concurrency <= 0 {
		c.Concurrency = DefaultConcurrency
	}
	if c.Timeout <= 0 {
		c.Timeout = DefaultTimeout
	}
	if c.Now == nil {
		c.Now = time.Now
	}
	return c
}

// reuse returns the trial Reuse gives for a case's n-th trial, if any.
func (c Config) reuse(caseID string, n int) (gavel.Trial, bool) {
	if c.Reuse == nil {
		return gavel.Trial{}, false
	}
	return c.Reuse(caseID, n)
}

// The defaults of a Config's Concurrency and Timeout, when neither the
// caller nor the suite sets them.
const (
	DefaultConcurrency = 4
	DefaultTimeout     = 5 * time.Minute
)

// TrialsOf is how many trials of case cs of suite s a run makes: those
// Replay gives, else Trials, else the case's own number, else the
// suite's, else 1; of those, only the ones Select chooses.
func (c Config) TrialsOf(s *gavel.Suite, cs *gavel.Case) int {
	if c.Replay != nil {
		stored, _ := c.Replay(cs.ID)
		return len(stored)
	}
	if c.Select == nil {
		return c.trials(s, cs)
	}
	chosen := 0
	for n := 1; n <= c.trials(s, cs); n++ {
		if c.Select(cs.ID, n) {
			chosen++
		}
	}
	return chosen
}

// trials is how many times case cs runs.
func (c Config) trials(s *gavel.Suite, cs *gavel.Case) int {
	switch {
	case c.Trials > 0:
		return c.Trials
	case cs.Trials > 0:
		return cs.Trials
	case s.Trials > 0:
		return s.Trials
	}
	return 1
}

// runState is what the workers share.
type runState struct {
	suite *gavel.Suite
	c     Config

	mu       sync.Mutex
	run      *gavel.Run
	progress Progress
	// spent and failed are about the trials this run ran, not those it
	// reused: what the budget counts, and the first trial that did not
	// pass, for FailFast.
	spent  judge.Usage
	failed string
	// left counts the trials of each case (by index) not done yet, and
	// scopes are the cases' scopes, which end once they are; release says
	// to let go of a case's judge then too (RunCases).
	left    map[int]int
	scopes  map[int]*agent.Scope
	release bool
}

// finish records a trial, run or reused, and reports progress.
func (r *runState) finish(j job, t gavel.Trial, reused bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	cr := &r.run.Cases[j.index]
	cr.Trials = append(cr.Trials, t)
	if s := r.done(j.index); s != nil {
		defer s.End() // after r.mu is let go (deferred calls run last first)
	}
	p := &r.progress
	p.Trial, p.Reused, p.Done, p.Usage = t, reused, p.Done+1, p.Usage.Add(t.Usage)
	switch t.Verdict.Status {
	case judge.StatusPass:
		p.Passed++
	case judge.StatusFail:
		p.Failed++
	default:
		p.Errored++
	}
	if !reused {
		r.spent = r.spent.Add(t.Usage.Total())
		if !t.Verdict.Passed() && r.failed == "" {
			r.failed = fmt.Sprintf("%s trial %d did not pass (%s)", t.CaseID, t.N, t.Verdict.Status)
		}
	}
	if t.Cause() == judge.CauseCancelled {
		// Cut short: the run did not finish this trial.
		r.stopped(gavel.StopInterrupted, r.c.why())
	}
	p.Elapsed = r.c.Now().Sub(r.run.Started)
	if r.c.Progress != nil {
		r.c.Progress(*p)
	}
}

// stopReason says why no more trials may start, or "".
func (r *runState) stopReason(ctx context.Context) (gavel.StopCause, string) {
	select {
	case <-r.c.Stop:
		return gavel.StopInterrupted, r.c.why()
	default:
	}
	if ctx.Err() != nil {
		return gavel.StopInterrupted, r.c.why()
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if why := r.c.Budget.exceeded(r.spent); why != "" {
		return gavel.StopBudget, why
	}
	if r.c.FailFast && r.failed != "" {
		return gavel.StopFailFast, "fail-fast: " + r.failed
	}
	return "", ""
}

// why says why the run was stopped from outside.
func (c Config) why() string {
	if c.Why != nil {
		if why := c.Why(); why != "" {
			return why
		}
	}
	return "the run was interrupted"
}

// stopped records that the run is incomplete, for cause, unless it
// already was; r.mu is held.
func (r *runState) stopped(cause gavel.StopCause, why string) {
	if r.run.Stopped == "" {
		r.run.Stopped, r.run.StopReason = cause, why
	}
}

// skip marks the cases of jobs that never ran as skipped, for why, and
// the run as incomplete.
func (r *runState) skip(jobs []job, cause gavel.StopCause, why string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if len(jobs) > 0 {
		r.stopped(cause, why)
	}
	for _, j := range jobs {
		if cr := &r.run.Cases[j.index]; cr.SkipReason == "" {
			cr.SkipReason = why
		}
		if s := r.done(j.index); s != nil {
			defer s.End() // after r.mu is let go
		}
	}
}
