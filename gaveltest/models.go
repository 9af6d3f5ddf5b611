package gaveltest

import (
	"github.com/gavelhq/gavel/llm"
	"github.com/gavelhq/gavel/llm/providers"
)

// models wraps every model a suite opens, as the gavel command does: a
// meter prices each call, a cache (when a directory is given) answers
// repeated requests, and retries absorb vendors' transient failures.
type models struct {
	meter  *llm.Meter
	cache  *llm.Cache
	getenv func(string) string
}

func newModels(cacheDir string, getenv func(string) string) (*models, error) {
	m := &models{meter: llm.NewMeter(llm.DefaultPrices()), getenv: getenv}
	if cacheDir != "" {
		c, err := llm.OpenCache(llm.CacheConfig{Dir: cacheDir})
		if err != nil {
			return nil, err
		}
		m.cache = c
	}
	return m, nil
}

// wrap is spec.Env.Wrap. The meter sits outside the cache, so a cached
// answer counts as a call that cost nothing. The cache keys each model's
// answers by its whole reference and the server getenv names for it, and
// by the trial each call belongs to (llm.Cache).
func (m *models) wrap(_ string, ref llm.Ref, model llm.Model) llm.Model {
	mw := []llm.Middleware{m.meter.Meter()}
	if m.cache != nil {
		mw = append(mw, m.cache.Middleware(providers.Namespace(ref, m.getenv)))
	}
	mw = append(mw, llm.Retry(llm.RetryConfig{}))
	return llm.Chain(model, mw...)
}

func (m *models) Close() error {
	if m.cache == nil {
		return nil
	}
	return m.cache.Close()
}
