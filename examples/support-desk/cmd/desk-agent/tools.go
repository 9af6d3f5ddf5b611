package main

import (
	"context"
	"encoding/json"
	"sync"

	"github.com/gavelhq/gavel/judge"
	"github.com/gavelhq/gavel/llm"
	"github.com/gavelhq/gavel/mcp"
)

// tools is an MCP server's toolbox, connected on first use, and again
// when the session fails: the server at the address may be a new one
// (gavel run's recording proxy is started anew for each run), which knows
// nothing of the old session.
type tools struct {
	server mcp.Server

	mu     sync.Mutex
	client *mcp.Client
}

// connect returns the session, opening one if there is none.
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

// drop forgets a session that failed, for the next request to open
// another.
func (t *tools) drop(c *mcp.Client) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.client == c {
		t.client = nil
		c.Close()
	}
}

// retry does f over the session, and once more over a new session when
// it fails at the protocol level (a tool that reports a failure is no
// such failure): what the old session lost is most often the reason.
func retry[T any](ctx context.Context, t *tools, f func(*mcp.Client) (T, error)) (T, error) {
	var zero T
	for attempt := 0; ; attempt++ {
		c, err := t.connect(ctx)
		if err != nil {
			return zero, err
		}
		out, err := f(c)
		if err == nil || attempt == 1 || ctx.Err() != nil {
			return out, err
		}
		t.drop(c)
	}
}

func (t *tools) Tools(ctx context.Context) ([]llm.Tool, error) {
	return retry(ctx, t, func(c *mcp.Client) ([]llm.Tool, error) { return c.Tools(ctx) })
}

func (t *tools) Call(ctx context.Context, name string, args json.RawMessage) (judge.ToolCall, error) {
	return retry(ctx, t, func(c *mcp.Client) (judge.ToolCall, error) { return c.Call(ctx, name, args) })
}
