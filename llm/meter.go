package llm

import (
	"context"
	"maps"
	"regexp"
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

// DefaultPrices returns the vendors' list prices of their current models
// (standard tier, prompts of at most 200K tokens), as published when this
// Gavel was released. Prices change: users override them (and add models)
// in the suite file (prices:) or with gavel run --prices, and a model
// missing from the table is reported as unpriced rather than free. A price
// the authors were not sure of is left out, so that its model shows as
// unpriced. Local models (Ollama, scripts) cost nothing: see Local.
func DefaultPrices() Prices {
	return Prices{
		// OpenAI
		"gpt-5":        {Input: 1.25, Output: 10, CachedInput: 0.125},
		"gpt-5.1":      {Input: 1.25, Output: 10, CachedInput: 0.125},
		"gpt-5-mini":   {Input: 0.25, Output: 2, CachedInput: 0.025},
		"gpt-5-nano":   {Input: 0.05, Output: 0.4, CachedInput: 0.005},
		"gpt-4.1":      {Input: 2, Output: 8, CachedInput: 0.5},
		"gpt-4.1-mini": {Input: 0.4, Output: 1.6, CachedInput: 0.1},
		"gpt-4.1-nano": {Input: 0.1, Output: 0.4, CachedInput: 0.025},
		"gpt-4o":       {Input: 2.5, Output: 10, CachedInput: 1.25},
		"gpt-4o-mini":  {Input: 0.15, Output: 0.6, CachedInput: 0.075},
		"o3":           {Input: 2, Output: 8, CachedInput: 0.5},
		"o4-mini":      {Input: 1.1, Output: 4.4, CachedInput: 0.275},
		// Anthropic: CachedInput is the price of a cache hit.
		"claude-opus-4-5":   {Input: 5, Output: 25, CachedInput: 0.5},
		"claude-sonnet-4-5": {Input: 3, Output: 15, CachedInput: 0.3},
		"claude-haiku-4-5":  {Input: 1, Output: 5, CachedInput: 0.1},
		"claude-opus-4-1":   {Input: 15, Output: 75, CachedInput: 1.5},
		"claude-opus-4":     {Input: 15, Output: 75, CachedInput: 1.5},
		"claude-opus-4-0":   {Input: 15, Output: 75, CachedInput: 1.5},
		"claude-sonnet-4":   {Input: 3, Output: 15, CachedInput: 0.3},
		"claude-sonnet-4-0": {Input: 3, Output: 15, CachedInput: 0.3},
		"claude-3-7-sonnet": {Input: 3, Output: 15, CachedInput: 0.3},
		"claude-3-5-haiku":  {Input: 0.8, Output: 4, CachedInput: 0.08},
		"claude-3-haiku":    {Input: 0.25, Output: 1.25, CachedInput: 0.03},
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

// Has reports whether model has a price: its name is in p, or is a name
// in p followed by a date ("gpt-5-mini-2025-08-07", "claude-sonnet-4-20250514").
func (p Prices) Has(model string) bool {
	_, ok := p.lookup(model)
	return ok
}

// Cost returns what usage costs with model, and whether the model has a
// price (see Has).
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

// lookup finds model's price: by its name, or by the name before a date
// suffix. Only a date is taken off: "gpt-4.1-turbo" is not "gpt-4.1", and
// a model the table does not know is unpriced, not given another's price.
func (p Prices) lookup(model string) (Price, bool) {
	if price, ok := p[model]; ok {
		return price, true
	}
	if m := datedName.FindStringSubmatch(model); m != nil {
		price, ok := p[m[1]]
		return price, ok
	}
	return Price{}, false
}

// datedName matches a model name ending in a date, -2025-08-07 or
// -20250514, and captures the name before it.
var datedName = regexp.MustCompile(`^(.+)-(?:\d{4}-\d{2}-\d{2}|\d{8})$`)

// Local returns an Opener that opens models with open and marks their
// responses Local: they run on the user's own machine (an Ollama server, a
// script), so a Meter counts their tokens at no cost and never reports them
// unpriced.
func Local(open Opener) Opener {
	return func(ref Ref, getenv func(string) string) (Model, error) {
		m, err := open(ref, getenv)
		if err != nil {
			return nil, err
		}
		return Func(func(ctx context.Context, req *Request) (*Response, error) {
			resp, err := m.Generate(ctx, req)
			if resp != nil {
				resp.Local = true
			}
			return resp, err
		}), nil
	}
}

// A Meter counts the calls, tokens and cost of the models it wraps, and
// sets each response's Usage.CostUSD, Usage.Calls (1, when nothing below
// counted the call) and Usage.Unpriced when the model has no price (its
// cost is unknown, not zero). A response served from a cache, or by a
// Local model, costs nothing. Each call is also added to the Tally its
// context carries, if any (WithTally). It is safe for concurrent use; one
// Meter may wrap many models (use one per role to count agent, judge and
// simulated user apart).
type Meter struct {
	prices Prices

	mu      sync.Mutex
	byModel map[string]MeterLine
}

// A MeterLine is what a Meter counted for one model.
type MeterLine struct {
	Calls       int `json:"calls"`
	CachedCalls int `json:"cached_calls,omitempty"`
	// Usage is what the calls spent; Usage.Unpriced is true when the model
	// has no price: its cost is unknown, not zero.
	Usage Usage `json:"usage"`
}

// NewMeter returns a Meter that prices calls with prices.
func NewMeter(prices Prices) *Meter {
	return &Meter{prices: prices, byModel: map[string]MeterLine{}}
}

// SetPrices makes the Meter price the calls it counts from now on with
// prices: a program that learns its prices after wrapping its models (a
// suite's own prices: are read when it is opened) sets them before the
// first call.
func (m *Meter) SetPrices(prices Prices) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.prices = prices
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
			m.mu.Lock()
			cost, priced := m.prices.Cost(model, resp.Usage)
			if resp.Cached || resp.Local {
				cost, priced = 0, true
			}
			resp.Usage.CostUSD, resp.Usage.Unpriced = cost, !priced
			line := m.byModel[model]
			line.Calls++
			if resp.Cached {
				line.CachedCalls++
			}
			line.Usage = line.Usage.Add(resp.Usage) // a cached answer's tokens are 0
			m.byModel[model] = line
			m.mu.Unlock()
			if t := TallyFrom(ctx); t != nil {
				t.Add(model, resp.Usage)
			}
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
