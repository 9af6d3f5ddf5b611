package main

import (
	"context"
	"encoding/json"
	"sync"

	"github.com/gavelhq/gavel/judge"
	"github.com/gavelhq/gavel/llm"
	"github.com/gavelhq/gavel/mcp"
)

// tools is an MCP server's toolbox, connected on first use and again
// after a failed connection.
type tools struct {
	server mcp.Server

	mu     sync.Mutex
	client *mcp.Client
}

func (t *tools) connect(ctx context.Context) (*mcp.Client, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.client != nil {
		return t.client, nil
	}
	c, err := mcp.Connect(ctx, t.server)
	if err != nil {
		return nil, err
	}
	t.client = c
	return c, nil
}

func (t *tools) Tools(ctx context.Context) ([]llm.Tool, error) {
	c, err := t.connect(ctx)
	if err != nil {
		return nil, err
	}
	return c.Tools(ctx)
}

func (t *tools) Call(ctx context.Context, name string, args json.RawMessage) (judge.ToolCall, error) {
	c, err := t.connect(ctx)
	if err != nil {
		return judge.ToolCall{}, err
	}
	return c.Call(ctx, name, args)
}
