package main

import (
	"os"
	"path/filepath"

	"github.com/gavelhq/gavel/llm"
	"github.com/gavelhq/gavel/llm/anthropic"
	"github.com/gavelhq/gavel/llm/llmtest"
	"github.com/gavelhq/gavel/llm/openai"
)

// registry lists the model providers gavel links in.
func registry() llm.Registry {
	return llm.Registry{
		"openai":    openai.Open,
		"ollama":    openai.OpenOllama,
		"anthropic": anthropic.Open,
		"script":    llmtest.OpenScript,
	}
}

// models wraps every model gavel opens: a meter prices each call, retries
// absorb vendors' transient failures, and a cache (unless disabled)
// answers repeated requests without a call.
type models struct {
	meter *llm.Meter
	cache *llm.Cache
}

func newModels(cacheDir string, noCache bool) (*models, error) {
	m := &models{meter: llm.NewMeter(llm.DefaultPrices())}
	if !noCache {
		c, err := llm.OpenCache(llm.CacheConfig{Dir: cacheDir})
		if err != nil {
			return nil, err
		}
		m.cache = c
	}
	return m, nil
}

// wrap is spec.Env.Wrap. The meter sits outside the cache, so a cached
// answer is counted as a call that cost nothing.
func (m *models) wrap(role string, model llm.Model) llm.Model {
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

// defaultCacheDir is .gavel/cache in the working directory.
func defaultCacheDir() string {
	wd, err := os.Getwd()
	if err != nil {
		wd = "."
	}
	return filepath.Join(wd, ".gavel", "cache")
}
