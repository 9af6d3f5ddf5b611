package mcp

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	mcpsdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/gavelhq/gavel/judge"
)

// A Proxy is an MCP server that stands between an agent and its real MCP
// server (the upstream) and records every tool call that passes through,
// for agents that do not report their tool calls themselves.
//
// It exposes exactly the tools the upstream listed when the proxy was made
// (same names, descriptions, input and output schemas, annotations),
// forwards each call unchanged to the upstream, returns the upstream's
// result unchanged (isError included) and tells its Recorder. It
// introduces itself with the upstream's name, version and instructions.
//
// A call of a tool the upstream does not list is refused, as the
// upstream would refuse it, and recorded as a failed call.
//
// Limits: the tool list is read once, by NewProxy; changes upstream are
// not followed (the proxy does not announce listChanged). A tool's
// fields the MCP SDK does not know (execution) are passed on as the
// upstream gave them. Only tools are
// forwarded: not resources, prompts, notifications (progress, logging),
// nor the upstream's requests to the agent (sampling, elicitation). A
// call's _meta is not forwarded. Every session the agent opens, over HTTP
// or stdio, shares the one upstream session.
type Proxy struct {
	upstream *Client    // nil for a ToolSource's server
	source   ToolSource // the tools of a server of Gavel's own (NewToolServer)
	rec      Recorder
	server   *mcpsdk.Server
	handler  http.Handler
	listed   map[string]bool                       // the tools' names; read only once made
	faults   Faults                                // the faults calls suffer on purpose, or nil
	replay   Replay                                // answers calls instead of the upstream, or nil
	within   func(context.Context) context.Context // gives a call the values of its trial, or nil
}

// SetFaults makes the calls faults chooses suffer their fault, marked
// in their records (judge.ToolCall.Injected). Call it before serving.
func (p *Proxy) SetFaults(faults Faults) { p.faults = faults }

// injected makes a call suffer the fault p's faults choose for it, if
// any: run is the real call. ok is false when no fault is chosen.
func (p *Proxy) injected(ctx context.Context, req *mcpsdk.CallToolRequest, run func(context.Context) (judge.ToolCall, error)) (res *mcpsdk.CallToolResult, ok bool, err error) {
	if p.faults == nil {
		return nil, false, nil
	}
	f, ok := p.faults(ctx, req.Params.Name)
	if !ok {
		return nil, false, nil
	}
	call, err := f.Apply(ctx, judge.ToolCall{Name: req.Params.Name, Arguments: argsOf(req)}, run)
	if p.rec != nil {
		p.rec.Record(call)
	}
	if err != nil {
		var wire *jsonrpc.Error
		if errors.As(err, &wire) {
			return nil, true, wire
		}
		return nil, true, err
	}
	return resultOf(call), true, nil
}

// NewProxy connects to upstream, reads its tools and returns a proxy in
// front of it that tells rec of every call (rec may be nil: nothing is
// recorded). Connecting is bounded by upstream.Timeout, and so is each
// forwarded call. Close the proxy to close the upstream.
func NewProxy(upstream Server, rec Recorder) (*Proxy, error) {
	ctx := context.Background()
	c, err := Connect(ctx, upstream)
	if err != nil {
		return nil, err
	}
	p, err := newProxy(ctx, c, rec)
	if err != nil {
		c.Close()
		return nil, err
	}
	return p, nil
}

// newProxy makes a proxy in front of a connected client.
func newProxy(ctx context.Context, c *Client, rec Recorder) (*Proxy, error) {
	tools, err := c.listTools(ctx)
	if err != nil {
		return nil, err
	}
	impl := &mcpsdk.Implementation{Name: "gavel-mcp-proxy", Version: implementation.Version}
	opts := &mcpsdk.ServerOptions{
		// Tools only, and no listChanged: the list is fixed.
		Capabilities: &mcpsdk.ServerCapabilities{Tools: &mcpsdk.ToolCapabilities{}},
	}
	if init := c.session.InitializeResult(); init != nil {
		if init.ServerInfo != nil {
			info := *init.ServerInfo
			impl = &info
		}
		opts.Instructions = init.Instructions
	}
	p := &Proxy{upstream: c, rec: rec, server: mcpsdk.NewServer(impl, opts), listed: map[string]bool{}}
	p.server.AddReceivingMiddleware(p.recordUnlisted, p.keepToolFields)
	for _, t := range tools {
		p.listed[t.Name] = true
		tool := *t
		if err := addTool(p.server, &tool, p.forward); err != nil {
			return nil, fmt.Errorf("mcp server %s: proxy tool %q: %w", c.label, t.Name, err)
		}
	}
	p.handler = mcpsdk.NewStreamableHTTPHandler(func(*http.Request) *mcpsdk.Server { return p.server }, nil)
	return p, nil
}

// addTool adds t to s, turning the SDK's panic on a tool it refuses (an
// input schema that is not an object schema) into an error.
func addTool(s *mcpsdk.Server, t *mcpsdk.Tool, h mcpsdk.ToolHandler) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("%v", r)
		}
	}()
	s.AddTool(t, h)
	return nil
}

// SetContext makes each call the proxy serves run in within(ctx): a
// call comes over HTTP, outside any trial, and within gives it the
// values of the trial it belongs to (its agent.Scope), so that faults,
// mocks and replays count and choose by trial and case. Call it before
// serving.
func (p *Proxy) SetContext(within func(context.Context) context.Context) { p.within = within }

// forward calls the upstream's tool (or has the replay answer) and
// records the call. A call that
// fails at the protocol level is recorded too, with IsError set, and its
// JSON-RPC error is passed on as it came.
func (p *Proxy) forward(ctx context.Context, req *mcpsdk.CallToolRequest) (*mcpsdk.CallToolResult, error) {
	if p.within != nil {
		ctx = p.within(ctx)
	}
	if p.source != nil {
		return p.answer(ctx, req)
	}
	if res, ok, err := p.injected(ctx, req, func(ctx context.Context) (judge.ToolCall, error) {
		_, call, err := p.call(ctx, req)
		return call, err
	}); ok {
		return res, err
	}
	res, call, err := p.call(ctx, req)
	if p.rec != nil {
		p.rec.Record(call)
	}
	if err != nil {
		var wire *jsonrpc.Error
		if errors.As(err, &wire) {
			return nil, wire
		}
		return nil, err
	}
	return res, nil
}

// recordUnlisted records a call of a tool the proxy does not list (an
// agent may make one up) as a failed call, with the error the SDK's server
// refuses it with, which the agent gets as it would from the upstream.
// Without it, no judge would see the call.
func (p *Proxy) recordUnlisted(next mcpsdk.MethodHandler) mcpsdk.MethodHandler {
	return func(ctx context.Context, method string, req mcpsdk.Request) (mcpsdk.Result, error) {
		call, ok := req.(*mcpsdk.CallToolRequest)
		if !ok || call.Params == nil || p.listed[call.Params.Name] || p.rec == nil {
			return next(ctx, method, req)
		}
		start := time.Now()
		res, err := next(ctx, method, req)
		why := fmt.Sprintf("unknown tool %q: the server lists no such tool", call.Params.Name)
		if err != nil {
			why += " (" + err.Error() + ")"
		}
		p.rec.Record(judge.ToolCall{Name: call.Params.Name, Arguments: call.Params.Arguments, Result: why, IsError: true, Duration: time.Since(start)})
		return res, err
	}
}

// keepToolFields adds to the proxy's tools/list answers the fields of its
// upstream's tools that the SDK does not know (execution, and whatever
// the spec adds next), as the upstream gave them.
func (p *Proxy) keepToolFields(next mcpsdk.MethodHandler) mcpsdk.MethodHandler {
	return func(ctx context.Context, method string, req mcpsdk.Request) (mcpsdk.Result, error) {
		res, err := next(ctx, method, req)
		if list, ok := res.(*mcpsdk.ListToolsResult); ok && err == nil && p.upstream != nil {
			return toolsWithExtras{list, p.upstream.taps}, nil
		}
		return res, err
	}
}

// Handler returns an http.Handler that serves the proxy over MCP's
// streamable HTTP transport, at whatever path it is mounted on. Like the
// SDK's, it refuses requests to a loopback address whose Host header is
// not a loopback name (DNS rebinding).
func (p *Proxy) Handler() http.Handler { return p.handler }

// ServeStdio serves one MCP session over in and out (newline-delimited
// JSON-RPC, as on a stdio server's stdin and stdout). It returns nil when
// the agent closes the session or in ends, and ctx's error when ctx is done
// first. It closes neither in nor out; a read of in that is under way when
// ctx is done is abandoned, not interrupted.
func (p *Proxy) ServeStdio(ctx context.Context, in io.Reader, out io.Writer) error {
	t := &mcpsdk.IOTransport{Reader: io.NopCloser(in), Writer: nopWriteCloser{out}}
	err := p.server.Run(ctx, t)
	if ctxErr := ctx.Err(); ctxErr != nil {
		return ctxErr
	}
	if err == nil || errors.Is(err, io.EOF) || errors.Is(err, mcpsdk.ErrConnectionClosed) || errors.Is(err, io.ErrClosedPipe) {
		return nil
	}
	return fmt.Errorf("mcp proxy: serve stdio: %w", err)
}

type nopWriteCloser struct{ io.Writer }

func (nopWriteCloser) Close() error { return nil }

// Close closes the upstream session (a forwarded call under way fails) and
// then the agents' sessions.
func (p *Proxy) Close() error {
	var err error
	if p.upstream != nil {
		err = p.upstream.Close()
	}
	for ss := range p.server.Sessions() {
		ss.Close()
	}
	return err
}
