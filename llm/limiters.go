package llm

import "sync"

// Limiters hands out Limiters, one per server, so that every model sent to
// the same server shares one: vendors count requests per account, not per
// model, and an agent and its judges often use the same vendor. A server
// is a provider and its base URL ("openai", "openai@http://127.0.0.1:8000/v1").
// The zero value is ready to use: its Limiters have no cap until a 429
// teaches them one.
type Limiters struct {
	// Config configures every Limiter handed out.
	Config LimitConfig

	mu       sync.Mutex
	byServer map[string]*Limiter
}

// For returns the Limiter of the server ref names, made on first use.
func (ls *Limiters) For(ref Ref) *Limiter {
	server := ref.Provider
	if ref.BaseURL != "" {
		server += "@" + ref.BaseURL
	}
	ls.mu.Lock()
	defer ls.mu.Unlock()
	l, ok := ls.byServer[server]
	if !ok {
		if ls.byServer == nil {
			ls.byServer = map[string]*Limiter{}
		}
		l = NewLimiter(ls.Config)
		ls.byServer[server] = l
	}
	return l
}

// Registry returns a copy of r whose openers put every model they open
// behind the Limiter of its server. The limiter is then the innermost
// middleware of whatever a program wraps around the model (retries, a
// cache, a meter), as the package documentation orders them: a cache hit
// waits for no slot, and every retry waits for its own.
func (ls *Limiters) Registry(r Registry) Registry {
	out := make(Registry, len(r))
	for provider, open := range r {
		out[provider] = func(ref Ref, getenv func(string) string) (Model, error) {
			m, err := open(ref, getenv)
			if err != nil {
				return nil, err
			}
			return ls.For(ref).Limit()(m), nil
		}
	}
	return out
}
