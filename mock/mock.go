// Package mock serves tools whose results a suite writes: an agent under
// test sees them as it would see an MCP server's, and no server process or
// code of the user's is needed to test how it uses tools. A suite's
// mock_tools are the builtin agent's tools (a Toolbox is an
// agent.Toolbox), and an http or exec agent's MCP server at an address
// Gavel serves (mcp.NewToolServer). Calls to a mock are recorded and
// judged as real ones.
//
// A Replay answers the calls of real tools (MCP servers, through a
// builtin agent's toolboxes or a recording proxy) with the results a
// stored run recorded, so that two runs, or two versions of an agent,
// meet the same environment.
//
// Faults on purpose are here too: an Injector makes tool calls fail,
// wait, come back empty or cut; ModelFaults makes the model calls an http
// or exec agent makes through Gavel's model endpoint rate limited (429),
// failed (500) or cut off by the token limit.
//
// Mocks are for the answers of the tools around the agent, never for the
// agent under test: a run against mocks says how the agent uses tools
// whose answers are known, not that the real tools answer so.
package mock

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/gavelhq/gavel/agent"
	"github.com/gavelhq/gavel/judge"
	"github.com/gavelhq/gavel/llm"
	"github.com/gavelhq/gavel/rule"
)

// A Tool is a mock tool: what the agent is told of it, and its results.
type Tool struct {
	Name        string
	Description string
	// InputSchema is the JSON Schema of its arguments. Defaults to any
	// object.
	InputSchema json.RawMessage
	// Results are tried in order for each call; the first that matches
	// answers it. None matching, the call is an error result that says
	// so.
	Results []Result
}

// A Result is one answer of a mock tool.
type Result struct {
	// When matches the call's arguments (as an expected call's args do);
	// the zero ArgsMatcher matches any.
	When rule.ArgsMatcher
	// Once makes the result answer one call of a trial only: results in
	// a row, each once, answer the calls in order.
	Once bool
	// Text is the result, as the agent reads it; Error makes it an error
	// result (a failed call).
	Text  string
	Error bool
}

// A Toolbox serves mock tools. Its Once results are counted by trial
// (agent.TrialScope), and forgotten when the trial ends.
type Toolbox struct {
	tools map[string]Tool
	order []string

	mu    sync.Mutex
	cases map[string]map[string][]Result // case id → tool → the case's own results
	used  map[string]map[string]bool     // trial → "tool#result" answered once
}

// New returns a toolbox of tools. It refuses a tool without a name, and
// two of one name.
func New(tools []Tool) (*Toolbox, error) {
	b := &Toolbox{tools: map[string]Tool{}, cases: map[string]map[string][]Result{}, used: map[string]map[string]bool{}}
	for i, t := range tools {
		switch _, dup := b.tools[t.Name]; {
		case strings.TrimSpace(t.Name) == "":
			return nil, fmt.Errorf("mock tool %d has no name", i+1)
		case dup:
			return nil, fmt.Errorf("two mock tools are named %q: rename one", t.Name)
		}
		b.tools[t.Name] = t
		b.order = append(b.order, t.Name)
	}
	return b, nil
}

// SetCase gives the case caseID results of its own for the tool name,
// tried before the tool's own in that case's trials (agent.CaseScope): a
// tool that fails in one case only, an order only that case knows. A
// case cannot add a tool: the agent's tools are the toolbox's.
func (b *Toolbox) SetCase(caseID, name string, results []Result) error {
	if _, ok := b.tools[name]; !ok {
		return fmt.Errorf("%w %q: a case gives answers of the suite's mock tools (%s); declare the tool there", ErrUnknownTool, name, strings.Join(b.order, ", "))
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.cases[caseID] == nil {
		b.cases[caseID] = map[string][]Result{}
	}
	b.cases[caseID][name] = results
	return nil
}

// Tools lists the mock tools, in the order given.
func (b *Toolbox) Tools(context.Context) ([]llm.Tool, error) {
	out := make([]llm.Tool, 0, len(b.order))
	for _, name := range b.order {
		t := b.tools[name]
		schema := t.InputSchema
		if len(schema) == 0 {
			schema = json.RawMessage(`{"type":"object"}`)
		}
		out = append(out, llm.Tool{Name: t.Name, Description: t.Description, Parameters: schema})
	}
	return out, nil
}

// ErrUnknownTool is the error of a call to a tool the toolbox does not
// have: an agent made the tool up.
var ErrUnknownTool = errors.New("no such mock tool")

// Call answers a call of a mock tool with the first of its results that
// matches; with none, the call is an error result that says so.
func (b *Toolbox) Call(ctx context.Context, name string, args json.RawMessage) (judge.ToolCall, error) {
	start := time.Now()
	call := judge.ToolCall{Name: name, Arguments: args}
	t, ok := b.tools[name]
	if !ok {
		return call, fmt.Errorf("%w %q", ErrUnknownTool, name)
	}
	r, ok := b.choose(ctx, t, args)
	switch {
	case ok:
		call.Result, call.IsError = r.Text, r.Error
	default:
		call.Result, call.IsError = fmt.Sprintf("the mock tool %s has no result for these arguments", name), true
	}
	call.Duration = time.Since(start)
	return call, nil
}

// choose returns the first result of t that matches args and, if Once,
// has not answered in the trial of ctx yet: the case's own results
// first (SetCase), then the tool's.
func (b *Toolbox) choose(ctx context.Context, t Tool, args json.RawMessage) (Result, bool) {
	trial, caseID := "", ""
	scope := agent.TrialScope(ctx)
	if scope != nil {
		trial = scope.Key
	}
	if c := agent.CaseScope(ctx); c != nil {
		caseID = c.Key
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	used := b.used[trial]
	if used == nil {
		used = map[string]bool{}
		b.used[trial] = used
		if scope != nil {
			scope.OnEnd(func() { b.mu.Lock(); delete(b.used, trial); b.mu.Unlock() })
		}
	}
	pick := func(results []Result, prefix string) (Result, bool) {
		for i, r := range results {
			key := fmt.Sprintf("%s%s#%d", prefix, t.Name, i)
			if r.Once && used[key] {
				continue
			}
			if ok, _ := r.When.Match(args); !ok {
				continue
			}
			if r.Once {
				used[key] = true
			}
			return r, true
		}
		return Result{}, false
	}
	if own, ok := b.cases[caseID][t.Name]; ok && caseID != "" {
		if r, ok := pick(own, "case:"); ok {
			return r, true
		}
	}
	return pick(t.Results, "")
}
