package providers

import (
	"github.com/gavelhq/gavel/llm"
	"github.com/gavelhq/gavel/telemetry"
)

// Wrap wraps model, opened from ref, as the gavel command and package
// gaveltest wrap every model they open: telemetry.Model, outermost,
// traces every call while tracing is on, answers from the cache included;
// meter (if not nil) counts each call, outside the cache, so that an
// answer from the cache counts as a call that cost nothing; cache (if not
// nil) answers a request asked before, keyed by Namespace(ref, getenv)
// and the trial (see llm.Cache); retries, innermost, absorb vendors'
// transient failures.
func Wrap(model llm.Model, ref llm.Ref, getenv func(string) string, meter *llm.Meter, cache *llm.Cache) llm.Model {
	mw := []llm.Middleware{telemetry.Model(ref)}
	if meter != nil {
		mw = append(mw, meter.Meter())
	}
	if cache != nil {
		mw = append(mw, cache.Middleware(Namespace(ref, getenv)))
	}
	mw = append(mw, llm.Retry(llm.RetryConfig{}))
	return llm.Chain(model, mw...)
}
