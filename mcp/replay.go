package mcp

import (
	"context"
	"encoding/json"

	mcpsdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/gavelhq/gavel/judge"
)

// A Replay answers a call of tool with args, in ctx, instead of the live
// server, from a recorded run (package mock's Replay): it returns the
// call as the agent gets it, marked Replayed, and true; false lets the
// call through to the server.
type Replay func(ctx context.Context, tool string, args json.RawMessage) (judge.ToolCall, bool)

// SetReplay makes replay answer the calls it answers instead of the
// upstream. Call it before serving. Faults (SetFaults) strike the
// replayed calls as they would the upstream's. A server of Gavel's own
// (NewToolServer) does not replay: its answers are written already.
func (p *Proxy) SetReplay(replay Replay) { p.replay = replay }

// call answers a call from the replay, if it answers it, or else calls
// the upstream.
func (p *Proxy) call(ctx context.Context, req *mcpsdk.CallToolRequest) (*mcpsdk.CallToolResult, judge.ToolCall, error) {
	if p.replay != nil {
		if call, ok := p.replay(ctx, req.Params.Name, argsOf(req)); ok {
			return resultOf(call), call, nil
		}
	}
	return p.upstream.call(ctx, req.Params.Name, req.Params.Arguments)
}
