package agent

import (
	"context"
	"sync"
)

// A Scope is a part of a run that ends: one trial, or every trial of one
// case. What a tool source opens for it alone (an MCP server process of
// its own, mcp share: trial or case) is closed when it ends. The runner
// puts a trial's and its case's scopes in the trial's context
// (WithScopes); a context without them is the whole run's.
type Scope struct {
	// Key names the scope uniquely within its run: "case_005" for a
	// case, "case_005#2" for its second trial.
	Key string

	mu    sync.Mutex
	ended bool
	onEnd []func()
}

// NewScope returns a scope named key.
func NewScope(key string) *Scope { return &Scope{Key: key} }

// OnEnd has f called when the scope ends, or at once if it has ended.
func (s *Scope) OnEnd(f func()) {
	s.mu.Lock()
	if !s.ended {
		s.onEnd = append(s.onEnd, f)
		s.mu.Unlock()
		return
	}
	s.mu.Unlock()
	f()
}

// End ends the scope: what OnEnd was given runs, last given first. Ending
// it again does nothing.
func (s *Scope) End() {
	s.mu.Lock()
	fs := s.onEnd
	s.onEnd, s.ended = nil, true
	s.mu.Unlock()
	for i := len(fs) - 1; i >= 0; i-- {
		fs[i]()
	}
}

type scopesKey struct{}

type scopes struct{ trial, cases *Scope }

// WithScopes returns a context that carries a trial's scope and its
// case's.
func WithScopes(ctx context.Context, trial, ofCase *Scope) context.Context {
	return context.WithValue(ctx, scopesKey{}, scopes{trial, ofCase})
}

// TrialScope returns the scope of the trial ctx is of; nil outside a
// trial.
func TrialScope(ctx context.Context) *Scope {
	s, _ := ctx.Value(scopesKey{}).(scopes)
	return s.trial
}

// CaseScope returns the scope of the case whose trial ctx is of; nil
// outside a trial.
func CaseScope(ctx context.Context) *Scope {
	s, _ := ctx.Value(scopesKey{}).(scopes)
	return s.cases
}
