package gaveltest

import "github.com/gavelhq/gavel/llm"

// models wraps every model a suite opens, as the gavel command does: a
// meter prices each call, a cache (when a directory is given) answers
// repeated requests, and retries absorb vendors' transient failures.
type models struct {
	meter *llm.Meter
	cache *llm.Cache
}

func newModels(cacheDir string) (*models, error) {
	m := &models{meter: llm.NewMeter(llm.DefaultPrices())}
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
// answer counts as a call that cost nothing.
func (m *models) wrap(_ string, model llm.Model) llm.Model {
	mw := []llm.Middleware{m.meter.Meter()}
	if m.cache != nil {
		mw = append(mw, m.cache.Middleware())
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
