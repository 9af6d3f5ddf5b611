package llm

// A Middleware wraps a Model in another that adds something: retries,
// limits, a cache, a meter.
type Middleware func(Model) Model

// Chain wraps m in middleware, the first listed outermost:
// Chain(m, a, b) is a(b(m)). A request meets a first and m last.
func Chain(m Model, middleware ...Middleware) Model {
	for i := len(middleware) - 1; i >= 0; i-- {
		m = middleware[i](m)
	}
	return m
}
