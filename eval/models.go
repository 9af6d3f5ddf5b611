package eval

import (
	"os"
	"path/filepath"

	"github.com/gavelhq/gavel/llm"
	"github.com/gavelhq/gavel/llm/providers"
)

// Models wraps every model a run opens: a meter prices each call, retries
// absorb vendors' transient failures, and a cache (unless disabled)
// answers repeated requests without a call.
type Models struct {
	// Getenv reads the keys and settings of the providers (see
	// providers.Wrap). Defaults to os.Getenv.
	Getenv func(string) string

	cache *llm.Cache
}

// OpenModels opens the cache in cacheDir, unless noCache. With fresh, the
// cache answers nothing but still keeps the answers: what --retry-errors
// needs, since a trial that ended in ERROR on the answers it got (a judge
// whose answers were malformed) would get the same answers again.
func OpenModels(cacheDir string, noCache, fresh bool) (*Models, error) {
	m := &Models{}
	if !noCache {
		c, err := llm.OpenCache(llm.CacheConfig{Dir: cacheDir, Bypass: fresh})
		if err != nil {
			return nil, err
		}
		m.cache = c
	}
	return m, nil
}

// Wrapper returns a spec.Env.Wrap that counts calls on meter, behind the
// cache (see providers.Wrap).
func (m *Models) Wrapper(meter *llm.Meter) func(role string, ref llm.Ref, model llm.Model) llm.Model {
	return func(_ string, ref llm.Ref, model llm.Model) llm.Model {
		getenv := m.Getenv
		if getenv == nil {
			getenv = os.Getenv
		}
		return providers.Wrap(model, ref, getenv, meter, m.cache)
	}
}

// Close closes the cache.
func (m *Models) Close() error {
	if m.cache == nil {
		return nil
	}
	return m.cache.Close()
}

// DefaultCacheDir is .gavel/cache in the working directory.
func DefaultCacheDir() string {
	wd, err := os.Getwd()
	if err != nil {
		wd = "."
	}
	return filepath.Join(wd, ".gavel", "cache")
}
