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

// wrap is spec.Env.Wrap: the meter, the cache and retries (see
// providers.Wrap).
func (m *models) wrap(_ string, ref llm.Ref, model llm.Model) llm.Model {
	return providers.Wrap(model, ref, m.getenv, m.meter, m.cache)
}

func (m *models) Close() error {
	if m.cache == nil {
		return nil
	}
	return m.cache.Close()
}
