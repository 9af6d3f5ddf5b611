package agentjudge

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"sync"

	"github.com/gavelhq/gavel/agent"
	"github.com/gavelhq/gavel/judge"
	"github.com/gavelhq/gavel/llm"
)

// allowed is the tool sources of a judge seen through Config.AllowedTools:
// it offers only the tools named, and refuses to call any other.
type allowed struct {
	names   []string
	sources []agent.Toolbox

	mu     sync.Mutex
	owners map[string]agent.Toolbox // allowed tool name → its source, once listed
}

// Tools lists the allowed tools of every source, in the sources' order. A
// tool offered by two sources, or an allowed name no source offers, is an
// error that lists the tools there are.
func (a *allowed) Tools(ctx context.Context) ([]llm.Tool, error) {
	owners := map[string]agent.Toolbox{}
	var all []string
	var tools []llm.Tool
	for _, box := range a.sources {
		listed, err := box.Tools(ctx)
		if err != nil {
			return nil, err
		}
		for _, t := range listed {
			all = append(all, t.Name)
			if !slices.Contains(a.names, t.Name) {
				continue
			}
			if _, dup := owners[t.Name]; dup {
				return nil, fmt.Errorf("two tool servers offer a tool named %q: rename one", t.Name)
			}
			owners[t.Name] = box
			tools = append(tools, t)
		}
	}
	for _, name := range a.names {
		if _, ok := owners[name]; !ok {
			slices.Sort(all)
			return nil, fmt.Errorf("allowed_tools names %q, which no tool source offers: the tools are %s", name, strings.Join(all, ", "))
		}
	}
	a.mu.Lock()
	a.owners = owners
	a.mu.Unlock()
	return tools, nil
}

// Call calls an allowed tool; any other is a failed call.
func (a *allowed) Call(ctx context.Context, name string, args json.RawMessage) (judge.ToolCall, error) {
	a.mu.Lock()
	box := a.owners[name]
	a.mu.Unlock()
	if box == nil {
		return judge.ToolCall{Name: name, Arguments: args, Result: fmt.Sprintf("the tool %q is not allowed to the judge: the tools are %s", name, strings.Join(a.names, ", ")), IsError: true}, nil
	}
	return box.Call(ctx, name, args)
}
