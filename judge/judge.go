package judge

import (
	"context"
	"fmt"
	"runtime/debug"
	"time"
)

// A Judge judges one transcript.
//
// It returns a Judgment when it judged, whatever the verdict: a failing
// response is a Judgment with StatusFail, not an error. It returns an error
// only when it could not judge (a provider down, a command that does not
// exist, a cancelled context); callers that need a Judgment either way use
// Run, which turns the error into a StatusError judgment.
//
// Judge must not modify the transcript: the same transcript is handed to
// many judges, some of them at once.
type Judge interface {
	Judge(ctx context.Context, t *Transcript) (Judgment, error)
}

// Func adapts an ordinary function to the Judge interface.
type Func func(ctx context.Context, t *Transcript) (Judgment, error)

// Judge calls f(ctx, t).
func (f Func) Judge(ctx context.Context, t *Transcript) (Judgment, error) {
	return f(ctx, t)
}

// Run calls j and always returns a Judgment: an error from j, a panic in j
// or a judgment with an invalid status or score becomes a StatusError
// judgment whose reasoning says why (and whose Cause classifies j's
// error: see CauseOf). A judgment returned together with an error is an
// ERROR whatever its status, and keeps its name, usage, tool calls and
// duration: a judge that could not judge may still have spent tokens (an
// LLM judge whose answers stayed malformed), and they are counted, and the
// tools an agent judge called before it failed show how far it got. A judgment
// without a duration gets the time Run measured.
//
// Composites call their parts through Run, so one broken part never hides
// the verdicts of its siblings. An Observer in ctx (WithObserver) is told
// of the judge and of the judgment Run returns.
func Run(ctx context.Context, j Judge, t *Transcript) (out Judgment) {
	if o := observerFrom(ctx); o != nil {
		var end func(Judgment)
		ctx, end = o.StartJudge(ctx)
		defer func() { end(out) }() // deferred first, so it sees the judgment as returned
	}
	start := time.Now()
	defer func() {
		if r := recover(); r != nil {
			out = Errored(fmt.Sprintf("judge panicked: %v\n%s", r, debug.Stack()))
		}
		if out.Duration == 0 {
			out.Duration = time.Since(start)
		}
	}()
	if j == nil {
		return Errored("no judge given")
	}
	got, err := j.Judge(ctx, t)
	if err != nil {
		errored := erredAs(got, err.Error())
		errored.Cause = CauseOf(err)
		return errored
	}
	if err := got.Validate(); err != nil {
		return erredAs(got, fmt.Sprintf("judge %q returned an invalid judgment: %v", got.Name, err))
	}
	return got
}

// erredAs returns the ERROR judgment of a judge that returned got and
// could not judge, for reason: got's verdict is dropped, what it spent and
// the tools it called are kept.
func erredAs(got Judgment, reason string) Judgment {
	out := Errored(reason)
	out.Name, out.Usage, out.Duration = got.Name, got.Usage, got.Duration
	out.ToolCalls = got.ToolCalls
	return out
}
