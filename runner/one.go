package runner

import (
	"context"

	"github.com/gavelhq/gavel"
	"github.com/gavelhq/gavel/judge"
	"github.com/gavelhq/gavel/telemetry"
)

// RunTrial runs trial n (from 1) of case cs of suite s, as Run runs each
// of its trials: the conversation under c's Timeout and FollowUps, then
// the case's judges, in a span of its own when tracing is on, every model call carrying the trial's number (for
// the cache) and counted in the trial's Models. It is for programs that
// schedule trials one at a time elsewhere (gavel worker takes them from a
// job queue); c's scheduling fields (Concurrency, Budget, FailFast, Stop,
// Reuse, Replay, Progress) are not used.
func RunTrial(ctx context.Context, s *gavel.Suite, cs *gavel.Case, n int, c Config) gavel.Trial {
	c = c.withDefaults()
	j := job{c: cs, n: n}
	started := c.Now()
	tctx, end := startTrial(ctx, s, j)
	t := converse(tctx, s, j, c)
	t.TraceID = telemetry.TraceID(tctx)
	return judgeTraced(tctx, end, j, t, started, c)
}

// Exceeded says how what was spent exceeds b (the reason a run gives for
// stopping), or "" when a trial may still start.
func (b Budget) Exceeded(spent judge.Usage) string { return b.exceeded(spent) }
