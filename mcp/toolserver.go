package mcp

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"

	mcpsdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/gavelhq/gavel/judge"
	"github.com/gavelhq/gavel/llm"
)

// A ToolSource lists and calls tools: a mock of a suite's (package mock),
// served to an agent as an MCP server by NewToolServer. It is the
// builtin agent's agent.Toolbox, by another name.
type ToolSource interface {
	Tools(ctx context.Context) ([]llm.Tool, error)
	Call(ctx context.Context, name string, args json.RawMessage) (judge.ToolCall, error)
}

// NewToolServer serves src's tools as an MCP server named name, over
// streamable HTTP (Handler) or stdio (ServeStdio), and tells rec of every
// call, as a Proxy does of its upstream's. A call's record is what src
// made of it; the agent gets its result as text, an error result when
// the record's IsError is set.
func NewToolServer(ctx context.Context, name string, src ToolSource, rec Recorder) (*Proxy, error) {
	tools, err := src.Tools(ctx)
	if err != nil {
		return nil, err
	}
	impl := &mcpsdk.Implementation{Name: name, Version: implementation.Version}
	opts := &mcpsdk.ServerOptions{Capabilities: &mcpsdk.ServerCapabilities{Tools: &mcpsdk.ToolCapabilities{}}}
	p := &Proxy{source: src, rec: rec, server: mcpsdk.NewServer(impl, opts), listed: map[string]bool{}}
	p.server.AddReceivingMiddleware(p.recordUnlisted)
	for _, t := range tools {
		p.listed[t.Name] = true
		var schema any = map[string]any{"type": "object"}
		if len(t.Parameters) > 0 {
			schema = t.Parameters
		}
		tool := &mcpsdk.Tool{Name: t.Name, Description: t.Description, InputSchema: schema}
		if err := addTool(p.server, tool, p.forward); err != nil {
			return nil, fmt.Errorf("mcp server %s: tool %q: %w", name, t.Name, err)
		}
	}
	p.handler = mcpsdk.NewStreamableHTTPHandler(func(*http.Request) *mcpsdk.Server { return p.server }, nil)
	return p, nil
}

// answer calls a ToolSource's tool for the agent and records the call.
func (p *Proxy) answer(ctx context.Context, req *mcpsdk.CallToolRequest) (*mcpsdk.CallToolResult, error) {
	if res, ok, err := p.injected(ctx, req, func(ctx context.Context) (judge.ToolCall, error) {
		return p.source.Call(ctx, req.Params.Name, req.Params.Arguments)
	}); ok {
		return res, err
	}
	call, err := p.source.Call(ctx, req.Params.Name, req.Params.Arguments)
	if err != nil {
		call = judge.ToolCall{Name: req.Params.Name, Arguments: req.Params.Arguments, Result: err.Error(), IsError: true}
	}
	if p.rec != nil {
		p.rec.Record(call)
	}
	return resultOf(call), nil
}
