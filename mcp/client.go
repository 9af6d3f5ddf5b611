package mcp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"time"

	"github.com/gavelhq/gavel/judge"
	"github.com/gavelhq/gavel/llm"
	"github.com/gavelhq/gavel/secret"
	mcpsdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// implementation is how Gavel introduces itself to MCP servers.
var implementation = &mcpsdk.Implementation{Name: "gavel", Version: "0.1.0"}

// clientOptions advertise no capability: Gavel answers no request of a
// server's (roots, sampling, elicitation). The SDK's default advertises
// roots, and a server that believes it asks for them before it runs a
// tool (Microsoft's Playwright server does), then waits for an answer
// that never comes: every call hung until its timeout.
var clientOptions = &mcpsdk.ClientOptions{Capabilities: &mcpsdk.ClientCapabilities{}}

// A Client is a session with one MCP server. Its methods may be called from
// several goroutines at once.
type Client struct {
	label   string
	timeout time.Duration
	session *mcpsdk.ClientSession
	proc    *process        // a stdio server's process, or nil
	http    *http.Transport // an HTTP server's connections, or nil
	refused refusal         // an HTTP server's last 4xx answer
	taps    *toolTap        // the tool fields the SDK does not know
	end     context.CancelFunc
}

// Connect starts or reaches the server s describes and opens an MCP
// session with it. ctx bounds connecting only, as does s.Timeout; the
// session lasts until Close.
//
// Errors say what went wrong in terms of s: a command that is not found,
// or that exits at once (with the tail of its stderr); a URL that cannot be
// reached (named, without the values of s.Headers).
func Connect(ctx context.Context, s Server) (*Client, error) {
	transport, err := s.transport()
	if err != nil {
		return nil, fmt.Errorf("mcp server %s: %w", s.label(), err)
	}
	c := &Client{label: s.label(), timeout: s.timeout()}
	var t mcpsdk.Transport
	switch transport {
	case TransportStdio:
		c.proc, err = startProcess(s)
		if err != nil {
			return nil, fmt.Errorf("mcp server %s: %w", c.label, err)
		}
		t = c.proc.transport()
	case TransportStreamable:
		var hc *http.Client
		hc, c.http = newHTTPClient(s, &c.refused)
		// Gavel does not follow notifications, so it opens no standalone
		// stream for them.
		t = &mcpsdk.StreamableClientTransport{Endpoint: s.URL, HTTPClient: hc, DisableStandaloneSSE: true}
	case TransportSSE:
		var hc *http.Client
		hc, c.http = newHTTPClient(s, &c.refused)
		t = &mcpsdk.SSEClientTransport{Endpoint: s.URL, HTTPClient: hc}
	}
	err = c.connect(ctx, t)
	if err != nil && s.Transport == "" && transport == TransportStreamable {
		// The MCP spec's backwards compatibility: a server that refuses
		// the streamable POST of initialize with a 4xx may speak the
		// older HTTP+SSE transport at the same URL.
		if status, _ := c.refused.get(); status >= 400 && status <= 499 {
			sse := s
			sse.Transport = TransportSSE
			if fallback, sseErr := Connect(ctx, sse); sseErr == nil {
				return fallback, nil
			}
		}
	}
	if err != nil {
		return nil, c.connectError(s, transport, err)
	}
	return c, nil
}

// connect opens the session over t, within the client's timeout.
func (c *Client) connect(ctx context.Context, t mcpsdk.Transport) error {
	ctx, cancel := context.WithTimeout(ctx, c.timeout)
	defer cancel()
	// The SDK gives the context of Connect to the transport, and the SSE
	// transport's stream lives only as long as it: give the transport one
	// that lasts until Close, unless connecting fails or times out.
	life, end := context.WithCancel(context.WithoutCancel(ctx))
	stop := context.AfterFunc(ctx, end)
	c.taps = &toolTap{}
	session, err := mcpsdk.NewClient(implementation, clientOptions).Connect(ctx, lifetime{t, life, c.taps}, nil)
	if err == nil && !stop() {
		session.Close()
		err = ctx.Err()
	}
	if err != nil {
		end()
		c.release()
		return err
	}
	c.session, c.end = session, end
	return nil
}

// lifetime is a transport that connects with a context of its own, and
// whose connection's tools/list answers tap reads.
type lifetime struct {
	t   mcpsdk.Transport
	ctx context.Context
	tap *toolTap
}

func (l lifetime) Connect(context.Context) (mcpsdk.Connection, error) {
	conn, err := l.t.Connect(l.ctx)
	if err != nil {
		return nil, err
	}
	return tappedConnection{conn, l.tap}, nil
}

// connectError explains a failed connection to s in the user's terms.
func (c *Client) connectError(s Server, transport string, err error) error {
	timedOut := errors.Is(err, context.DeadlineExceeded)
	if p := c.proc; p != nil {
		status, exited := p.exitStatus()
		switch {
		case timedOut:
			return fmt.Errorf("mcp server %s: command %q did not complete the MCP handshake within %v (%w); %s",
				c.label, p.program, c.timeout, err, p.stderrNote())
		// An exit after Gavel gave up and closed stdin is no news; an exit
		// that closed the pipes first, or a failure, is the news.
		case exited && (p.hungUp.Load() || status != "exit status 0"):
			return fmt.Errorf("mcp server %s: command %q exited (%s) before completing the MCP handshake (%w); %s",
				c.label, p.program, status, err, p.stderrNote())
		}
		return fmt.Errorf("mcp server %s: MCP handshake with command %q failed (%w); %s",
			c.label, p.program, err, p.stderrNote())
	}
	where := fmt.Sprintf("mcp server %s: %s (%s transport)", c.label, secret.Address(s.URL), transport)
	if s.Name == "" {
		where = fmt.Sprintf("mcp server %s (%s transport)", c.label, transport)
	}
	if timedOut {
		return fmt.Errorf("%s: no MCP handshake within %v: %w", where, c.timeout, err)
	}
	status, says := c.refused.get()
	if status == 0 {
		return fmt.Errorf("%s: connect: %w", where, err)
	}
	why := ""
	if says != "" {
		why = fmt.Sprintf("; the server said: %q", says)
	}
	hint := ""
	switch {
	case s.Transport == "":
		hint = "; neither the streamable nor the older SSE transport was answered at this URL"
	case transport == TransportStreamable && (status == http.StatusNotFound || status == http.StatusMethodNotAllowed):
		hint = "; a server of the older HTTP+SSE transport wants transport: sse (or no transport, to try both)"
	}
	return fmt.Errorf("%s: connect: %w%s%s", where, err, why, hint)
}

// release frees what the client holds besides its session.
func (c *Client) release() {
	if c.proc != nil {
		c.proc.close()
	}
	if c.http != nil {
		c.http.CloseIdleConnections()
	}
}

// Tools returns the server's tools, with their input schemas as JSON.
func (c *Client) Tools(ctx context.Context) ([]llm.Tool, error) {
	tools, err := c.listTools(ctx)
	if err != nil {
		return nil, err
	}
	out := make([]llm.Tool, 0, len(tools))
	for _, t := range tools {
		schema := json.RawMessage(`{"type":"object"}`) // the spec requires one; be lenient
		if t.InputSchema != nil {
			var err error
			if schema, err = json.Marshal(t.InputSchema); err != nil {
				return nil, fmt.Errorf("mcp server %s: tool %q: input schema: %w", c.label, t.Name, err)
			}
		}
		out = append(out, llm.Tool{Name: t.Name, Description: t.Description, Parameters: schema})
	}
	return out, nil
}

// listTools returns the server's tools as the SDK has them, every page.
func (c *Client) listTools(ctx context.Context) ([]*mcpsdk.Tool, error) {
	ctx, cancel := context.WithTimeout(ctx, c.timeout)
	defer cancel()
	var tools []*mcpsdk.Tool
	for t, err := range c.session.Tools(ctx, nil) {
		if err != nil {
			return nil, c.requestError("list tools", err)
		}
		tools = append(tools, t)
	}
	return tools, nil
}

// Call calls the tool name with args (a JSON object; empty means no
// arguments) and returns the record of the call: its name, arguments,
// result as text, whether the tool reported an error, and how long it
// took.
//
// The result's text is its content blocks in order, one per line: text as
// it is, other content summarised ("[image/png, 1234 bytes]", "[resource
// file:///a.txt]" and the resource's text); its structured content is
// the same result, added as JSON only when no text block renders it.
//
// A tool that reports isError is a failed call, not a Go error: the record
// has IsError set and err is nil. A protocol or transport failure (an
// unknown tool, a server that went away, a timeout) is an error; the
// record then holds the name, arguments and duration, with IsError set and
// the error as Result, so a caller that logs every call can log it too.
func (c *Client) Call(ctx context.Context, name string, args json.RawMessage) (judge.ToolCall, error) {
	_, call, err := c.call(ctx, name, args)
	return call, err
}

// call calls a tool and returns both the SDK's result and Gavel's record.
func (c *Client) call(ctx context.Context, name string, args json.RawMessage) (*mcpsdk.CallToolResult, judge.ToolCall, error) {
	call := judge.ToolCall{Name: name, Arguments: args}
	params := &mcpsdk.CallToolParams{Name: name}
	if len(args) > 0 {
		if !json.Valid(args) {
			err := fmt.Errorf("mcp server %s: call %s: arguments are not valid JSON", c.label, name)
			call.IsError, call.Result = true, err.Error()
			return nil, call, err
		}
		params.Arguments = args
	}
	ctx, cancel := context.WithTimeout(ctx, c.timeout)
	defer cancel()
	start := time.Now()
	res, err := c.session.CallTool(ctx, params)
	call.Duration = time.Since(start)
	if err != nil {
		err = c.requestError("call "+name, err)
		call.IsError, call.Result = true, err.Error()
		return nil, call, err
	}
	call.Result = resultText(res)
	call.IsError = res.IsError
	return res, call, nil
}

// requestError wraps the error of a request to the server, adding what
// became of a stdio server's process when it exited.
func (c *Client) requestError(what string, err error) error {
	if errors.Is(err, context.DeadlineExceeded) {
		err = fmt.Errorf("%w (timeout %v)", err, c.timeout)
	}
	err = fmt.Errorf("mcp server %s: %s: %w", c.label, what, err)
	if c.proc != nil {
		err = c.proc.describeExit(err)
	}
	return err
}

// Close ends the session: it closes a stdio server's stdin and waits for it
// to exit (sending SIGTERM, then SIGKILL, to its process group if it does
// not within a few seconds), or ends an HTTP session.
func (c *Client) Close() error {
	err := c.session.Close()
	c.end()
	c.release()
	if errors.Is(err, io.EOF) || errors.Is(err, mcpsdk.ErrConnectionClosed) {
		err = nil // the server was already gone
	}
	if err != nil {
		return fmt.Errorf("mcp server %s: close: %w", c.label, err)
	}
	return nil
}
