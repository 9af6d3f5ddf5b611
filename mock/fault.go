package mock

import (
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"slices"
	"sync"

	"github.com/gavelhq/gavel/agent"
	"github.com/gavelhq/gavel/judge"
	"github.com/gavelhq/gavel/mcp"
)

// A FaultRule says which calls suffer a fault on purpose: of Tool (every
// tool when empty), the OnCall-th call of each trial, or, without
// OnCall, each call at Rate, drawn from a generator seeded with Seed so
// that runs are alike.
type FaultRule struct {
	Tool   string
	OnCall int
	Rate   float64
	Seed   uint64
	Fault  mcp.Fault
}

// An Injector decides, call by call, which calls suffer which fault (the
// first rule that applies). It counts a tool's calls by trial
// (agent.TrialScope); calls outside any trial are counted together.
type Injector struct {
	rules []FaultRule
	pick  chooser
}

// NewInjector returns an injector of rules. It refuses a rule that
// applies to no call, or of an unknown kind.
func NewInjector(rules []FaultRule) (*Injector, error) {
	in := &Injector{rules: rules}
	for i, r := range rules {
		switch {
		case !slices.Contains(mcp.FaultKinds, r.Fault.Kind):
			return nil, fmt.Errorf("fault %d: kind %q: want one of %v", i+1, r.Fault.Kind, mcp.FaultKinds)
		case r.OnCall < 0 || (r.OnCall == 0 && !(r.Rate > 0 && r.Rate <= 1)):
			return nil, fmt.Errorf("fault %d: say which calls: on_call (the Nth call of the tool in a trial, from 1) or a rate above 0 and at most 1", i+1)
		case r.Fault.Kind == mcp.FaultDelay && r.Fault.Delay <= 0:
			return nil, fmt.Errorf("fault %d: a delay needs how long (delay: 30s)", i+1)
		}
		in.pick.rules = append(in.pick.rules, strike{name: r.Tool, onCall: r.OnCall, rate: r.Rate, seed: r.Seed})
	}
	return in, nil
}

// Fault decides whether this call of tool, in ctx, suffers a fault: it is
// an mcp.Faults.
func (in *Injector) Fault(ctx context.Context, tool string) (mcp.Fault, bool) {
	if i := in.pick.choose(ctx, tool); i >= 0 {
		return in.rules[i].Fault, true
	}
	return mcp.Fault{}, false
}

// A strike says which calls a rule strikes: of name (every name when
// ""), the onCall-th of each trial, or, without onCall, each at rate,
// drawn from a generator seeded with seed.
type strike struct {
	name   string
	onCall int
	rate   float64
	seed   uint64
}

// A chooser picks the rule that strikes a call, counting calls by trial
// (agent.TrialScope) and name; calls outside a trial are counted over
// the run. Set its rules before the first call.
type chooser struct {
	rules []strike

	mu     sync.Mutex
	counts map[string]int // trial + name → calls so far
	rngs   []*rand.Rand   // by rule
}

// choose counts a call of name in ctx's trial and returns the index of
// the first rule that strikes it, or -1.
func (c *chooser) choose(ctx context.Context, name string) int {
	trial := ""
	scope := agent.TrialScope(ctx)
	if scope != nil {
		trial = scope.Key
	}
	key := trial + "\x00" + name
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.counts == nil {
		c.counts = map[string]int{}
		for i, r := range c.rules {
			c.rngs = append(c.rngs, rand.New(rand.NewPCG(r.seed, uint64(i))))
		}
	}
	if _, seen := c.counts[key]; !seen && scope != nil {
		scope.OnEnd(func() { c.mu.Lock(); delete(c.counts, key); c.mu.Unlock() })
	}
	c.counts[key]++
	n := c.counts[key]
	for i, r := range c.rules {
		if r.name != "" && r.name != name {
			continue
		}
		if r.onCall > 0 && r.onCall == n || r.onCall == 0 && c.rngs[i].Float64() < r.rate {
			return i
		}
	}
	return -1
}

// Inject returns box with the faults in chooses injected into its calls,
// each marked in its record (judge.ToolCall.Injected).
func Inject(box agent.Toolbox, in *Injector) agent.Toolbox { return injected{box, in} }

type injected struct {
	agent.Toolbox
	in *Injector
}

func (b injected) Call(ctx context.Context, name string, args json.RawMessage) (judge.ToolCall, error) {
	f, ok := b.in.Fault(ctx, name)
	if !ok {
		return b.Toolbox.Call(ctx, name, args)
	}
	return f.Apply(ctx, judge.ToolCall{Name: name, Arguments: args}, func(ctx context.Context) (judge.ToolCall, error) {
		return b.Toolbox.Call(ctx, name, args)
	})
}
