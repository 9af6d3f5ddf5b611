package llm

import (
	"context"
	"maps"
	"strings"
	"sync"
)

// A Price is what a model costs, in US dollars per million tokens.
type Price struct {
	Input  float64 `json:"input"`
	Output float64 `json:"output"`
	// CachedInput is the price of input tokens read from the vendor's
	// prompt cache. Zero means the Input price.
	CachedInput float64 `json:"cached_input,omitempty"`
}

// Prices maps model names ("gpt-5-mini") to their prices.
type Prices map[string]Price

// DefaultPrices returns the vendors' list prices of common models as
// published when this Gavel was released. Prices change: users override
// them (and add models) in configuration, and a model missing from the
// table is reported as unpriced rather than free. Local models (Ollama)
// cost nothing.
func DefaultPrices() Prices {
	return Prices{
		"gpt-5":             {Input: 1.25, Output: 10, CachedInput: 0.125},
		"gpt-5-mini":        {Input: 0.25, Output: 2, CachedInput: 0.025},
		"gpt-5-nano":        {Input: 0.05, Output: 0.4, CachedInput: 0.005},
		"gpt-4.1":           {Input: 2, Output: 8, CachedInput: 0.5},
		"gpt-4.1-mini":      {Input: 0.4, Output: 1.6, CachedInput: 0.1},
		"gpt-4o":            {Input: 2.5, Output: 10, CachedInput: 1.25},
		"gpt-4o-mini":       {Input: 0.15, Output: 0.6, CachedInput: 0.075},
		"claude-opus-4-5":   {Input: 5, Output: 25, CachedInput: 0.5},
		"claude-sonnet-4-5": {Input: 3, Output: 15, CachedInput: 0.3},
		"claude-haiku-4-5":  {Input: 1, Output: 5, CachedInput: 0.1},
	}
}

// With returns a copy of p with overrides added, replacing p's price of a
// model that both name: the way configuration adjusts the defaults.
func (p Prices) With(overrides Prices) Prices {
	out := maps.Clone(p)
	if out == nil {
		out = Prices{}
	}
	maps.Copy(out, overrides)
	return out
}

// Cost returns what usage costs with model, and whether the model has a
// price. A dated model name ("gpt-5-mini-2025-08-07") takes the price of
// the longest name it starts with.
func (p Prices) Cost(model string, u Usage) (float64, bool) {
	price, ok := p.lookup(model)
	if !ok {
		return 0, false
	}
	cachedPrice := price.CachedInput
	if cachedPrice == 0 {
		cachedPrice = price.Input
	}
	fresh := u.InputTokens - u.CachedTokens
	return (float64(fresh)*price.Input + float64(u.CachedTokens)*cachedPrice + float64(u.OutputTokens)*price.Output) / 1e6, true
}

func (p Prices) lookup(model string) (Price, bool) {
	if price, ok := p[model]; ok {
		return price, true
	}
	best, found := "", false
	for name := range p {
		if strings.HasPrefix(model, name+"-") && len(name) > len(best) {
			best, found = name, true
		}
	}
	return p[best], found
}

// A Meter counts the calls, tokens and cost of the models it wraps, and
// sets each response's Usage.CostUSD (and Usage.Calls to 1 when nothing
// below counted the call). A response served from a cache costs nothing. It is safe for concurrent use; one Meter may wrap many
// models (use one per role to count agent, judge and simulated user apart).
type Meter struct {
	prices Prices

	mu      sync.Mutex
	byModel map[string]MeterLine
}

// A MeterLine is what a Meter counted for one model.
type MeterLine struct {
	Calls       int   `json:"calls"`
	CachedCalls int   `json:"cached_calls,omitempty"`
	Usage       Usage `json:"usage"`
	// Unpriced is true when the model has no price: its cost is unknown,
	// not zero.
	Unpriced bool `json:"unpriced,omitempty"`
}

// NewMeter returns a Meter that prices calls with prices.
func NewMeter(prices Prices) *Meter {
	return &Meter{prices: prices, byModel: map[string]MeterLine{}}
}

// Meter returns the Meter as middleware.
func (m *Meter) Meter() Middleware {
	return func(next Model) Model {
		return Func(func(ctx context.Context, req *Request) (*Response, error) {
			resp, err := next.Generate(ctx, req)
			if err != nil {
				return resp, err
			}
			model := resp.Model
			if model == "" {
				model = req.Model
			}
			if resp.Usage.Calls == 0 {
				resp.Usage.Calls = 1
			}
			cost, priced := 0.0, true // a cached answer was not paid for
			if !resp.Cached {
				cost, priced = m.prices.Cost(model, resp.Usage)
			}
			resp.Usage.CostUSD = cost

			m.mu.Lock()
			line := m.byModel[model]
			line.Calls++
			if resp.Cached {
				line.CachedCalls++
			}
			line.Usage = line.Usage.Add(resp.Usage) // a cached answer's tokens are 0
			line.Unpriced = line.Unpriced || !priced
			m.byModel[model] = line
			m.mu.Unlock()
			return resp, nil
		})
	}
}

// ByModel returns what the Meter counted, by model.
func (m *Meter) ByModel() map[string]MeterLine {
	m.mu.Lock()
	defer m.mu.Unlock()
	return maps.Clone(m.byModel)
}

// Total returns the tokens and cost of every call the Meter counted
// (cached calls spent nothing).
func (m *Meter) Total() Usage {
	m.mu.Lock()
	defer m.mu.Unlock()
	var u Usage
	for _, line := range m.byModel {
		u = u.Add(line.Usage)
	}
	return u
}
