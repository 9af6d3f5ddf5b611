package spec

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"net/url"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/gavelhq/gavel/agent"
	"github.com/gavelhq/gavel/conversation"
	"github.com/gavelhq/gavel/internal/suggest"
	"github.com/gavelhq/gavel/judge"
	"github.com/gavelhq/gavel/llm"
	"github.com/gavelhq/gavel/mcp"
	"github.com/gavelhq/gavel/mock"
)

// agent builds the agent under test: exactly one kind. Nothing starts
// here: processes, MCP servers and recording proxies start when the first
// trial needs them.
func (b *builder) agent(a AgentSpec, models map[string]string, suite string) agent.Agent {
	switch countTrue(a.Builtin != nil, a.HTTP != nil, a.Exec != nil, a.Go != "") {
	case 0:
		b.fail("agent: say which kind: builtin, http, exec or go")
		return nil
	case 1:
	default:
		b.fail("agent: give one kind of agent: builtin, http, exec or go")
		return nil
	}
	box, faults, replay := b.mockTools(a.MockTools), b.faults(a.Faults), b.replay(a.ReplayTools, suite)
	b.mocks = box
	b.replayNothing(a)
	var ag agent.Agent
	switch {
	case a.Go != "":
		ag = b.goAgent(a.Go)
	case a.HTTP != nil:
		ag = b.httpAgent(*a.HTTP)
	case a.Exec != nil:
		e := a.Exec
		exec, err := agent.NewExec(agent.ExecConfig{Command: b.expandAll("agent.exec.command", e.Command, secretValue), Dir: b.l.Dir,
			Env: b.expandAll("agent.exec.env", e.Env, secretValue), Mode: e.Mode,
			Timeout: b.duration("agent.exec.timeout", e.Timeout), Stderr: b.env.Stderr})
		ag = b.keepAgent("agent.exec", exec, err)
	default:
		if len(a.MCPProxy) > 0 {
			b.fail("agent.mcp_proxy: a builtin agent reports its tool calls itself: list its servers under agent.builtin.mcp")
		}
		if a.MockListen != "" {
			b.fail("agent.mock_listen: a builtin agent calls its mock tools itself: remove mock_listen")
		}
		if a.ModelEndpoint != nil {
			b.fail("agent.model_endpoint: a builtin agent calls its model (agent.builtin.model) itself, counted and traced: remove model_endpoint")
		}
		ag = b.builtinAgent(*a.Builtin, models, box, faults, replay)
	}
	if ag != nil && len(a.MCPProxy) > 0 {
		ag = b.recordTools(ag, a.MCPProxy, faults, replay)
	}
	if ag != nil && box != nil && a.Builtin == nil {
		if a.MockListen == "" {
			b.fail("agent.mock_tools: an http or exec agent reaches mock tools as an MCP server: give agent.mock_listen, the host:port Gavel serves them on")
		} else {
			ag = b.serveMocks(ag, box, a.MockListen, faults)
		}
	}
	if ag != nil && a.ModelEndpoint != nil && a.Builtin == nil {
		ag = b.modelEndpoint(ag, *a.ModelEndpoint, models)
	}
	if ag != nil && a.Restart != nil {
		ag = b.restart(ag, a)
	}
	if ag != nil {
		b.revival(ag, a)
		b.events(ag, a)
	}
	return ag
}

// events notes why the agent cannot take events, if it cannot, in the
// suite's words, for the cases that send it some (checkEvents).
func (b *builder) events(ag agent.Agent, a AgentSpec) {
	err := agent.TakesEvents(ag)
	switch {
	case err == nil:
	case a.HTTP != nil:
		b.noEvents = "the http agent takes no events: add agent.http.event_url (where events are POSTed)"
	default:
		b.noEvents = err.Error()
	}
}

// checkEvents reports a case whose script sends an event to an agent that
// cannot take events.
func (b *builder) checkEvents(s conversation.Script) {
	if b.noEvents == "" {
		return
	}
	for i, r := range s.Rounds {
		if r.Event != nil {
			b.fail("round %d sends the event %q, but %s", i+1, r.Event.Name, b.noEvents)
			return
		}
	}
}

// goAgent is the Go agent the program passed by name (Env.Agents).
func (b *builder) goAgent(name string) agent.Agent {
	if ag, ok := b.env.Agents[name]; ok && ag != nil {
		return ag
	}
	if len(b.env.Agents) == 0 {
		const why = "a Go agent is passed by the Go test that runs the suite (gaveltest.Run with gaveltest.Config.Agents), and the gavel command has none: run this suite under go test"
		if b.env.DryRun {
			b.out.Warnings = append(b.out.Warnings, Problem{File: b.atFile, Line: b.atLine, Message: fmt.Sprintf("warning: agent.go %q: %s", name, why)})
			return missingGoAgent(name)
		}
		b.fail("agent.go %q: %s", name, why)
		return nil
	}
	names := slices.Sorted(maps.Keys(b.env.Agents))
	msg := fmt.Sprintf("agent.go %q: no Go agent has that name: the Go test passes %s", name, strings.Join(names, ", "))
	if s, ok := suggest.Closest(name, names); ok {
		msg += fmt.Sprintf(": did you mean %q?", s)
	}
	b.fail("%s", msg)
	return nil
}

// missingGoAgent stands for a Go agent a dry run was not given: it is
// trusted to take events and be revived, and cannot be opened.
type missingGoAgent string

func (name missingGoAgent) Open(context.Context, string) (agent.Session, error) {
	return nil, fmt.Errorf("the Go agent %q was not passed to this program (spec.Env.Agents)", string(name))
}

// restart wraps ag so that revivals restart it with the command a.Restart
// names.
func (b *builder) restart(ag agent.Agent, a AgentSpec) agent.Agent {
	r := a.Restart
	ready := b.expand("agent.restart.ready", r.Ready, addressValue)
	if ready == "" && a.HTTP != nil {
		ready = b.expand("agent.http.url", a.HTTP.URL, addressValue)
	}
	restarting, err := agent.WithRestart(ag, agent.RestartConfig{
		Command: b.expandAll("agent.restart.command", r.Command, secretValue), Dir: b.l.Dir, Env: b.expandAll("agent.restart.env", r.Env, secretValue), Ready: ready,
		Timeout: b.duration("agent.restart.timeout", r.Timeout), Stderr: b.env.Stderr,
	})
	return b.keepAgent("agent.restart", restarting, err)
}

// revival notes why the agent cannot be revived, if it cannot, in the
// suite's words, for the cases that revive it (checkRevival).
func (b *builder) revival(ag agent.Agent, a AgentSpec) {
	_, err := agent.Revival(ag)
	switch {
	case err == nil:
	case a.HTTP != nil:
		b.unrevivable = "the http agent cannot be revived: closing a session sends it nothing, so the agent never lets go of the conversation: " +
			"add agent.http.close (a request that ends the session; agent.http.open too if the API needs one to resume it) " +
			"or agent.restart (a command that restarts the agent's server)"
	default:
		b.unrevivable = err.Error()
	}
}

// checkRevival reports a case whose script revives the session of an
// agent that cannot be revived.
func (b *builder) checkRevival(s conversation.Script) {
	if b.unrevivable == "" {
		return
	}
	for i, r := range s.Rounds {
		if r.Revive {
			b.fail("round %d revives the session, but %s", i+1, b.unrevivable)
			return
		}
	}
}

func (b *builder) httpAgent(h HTTPSpec) agent.Agent {
	r := h.Reply
	ag, err := agent.NewHTTP(agent.HTTPConfig{
		URL: b.expand("agent.http.url", h.URL, addressValue), EventURL: b.expand("agent.http.event_url", h.EventURL, addressValue),
		Headers: h.Headers, Request: h.Request, Getenv: b.secretEnv,
		Timeout: b.duration("agent.http.timeout", h.Timeout),
		Reply: agent.ReplyMapping{Text: r["text"], ToolCalls: r["tool_calls"], InputTokens: r["input_tokens"],
			OutputTokens: r["output_tokens"], CachedTokens: r["cached_tokens"], CostUSD: r["cost_usd"]},
		Open: b.httpRequest("agent.http.open", h.Open), Close: b.httpRequest("agent.http.close", h.Close),
	})
	return b.keepAgent("agent.http", ag, err)
}

// httpRequest is the open or close request r describes, or nil.
func (b *builder) httpRequest(field string, r *HTTPRequestSpec) *agent.HTTPRequest {
	if r == nil {
		return nil
	}
	return &agent.HTTPRequest{Method: r.Method, URL: b.expand(field+".url", r.URL, addressValue), Headers: r.Headers, Body: r.Body}
}

func (b *builder) builtinAgent(bs BuiltinSpec, models map[string]string, mocks *mock.Toolbox, faults *mock.Injector, replay *mock.Replay) agent.Agent {
	const field = "agent.builtin.model"
	models["agent"] = b.expand(field, bs.Model, addressValue)
	m := b.model("agent", bs.Model, field)
	if m == nil {
		return nil
	}
	var tools []agent.Toolbox
	for i, s := range bs.MCP {
		field := fmt.Sprintf("agent.builtin.mcp[%d]", i)
		t := &lazyTools{server: b.mcpServer(field, s), share: b.share(field, s.Share)}
		b.out.closers = append(b.out.closers, t.Close)
		if replay != nil {
			tools = append(tools, mock.Replayed(t, replay))
			continue
		}
		tools = append(tools, t)
	}
	if mocks != nil {
		tools = append(tools, mocks)
	}
	if faults != nil {
		for i := range tools {
			tools[i] = mock.Inject(tools[i], faults)
		}
	}
	ag, err := agent.NewBuiltin(agent.BuiltinConfig{
		SystemPrompt: bs.SystemPrompt, Vars: bs.Vars, Locale: bs.Locale, Model: m, Tools: tools, MaxTurns: bs.MaxTurns,
		MaxTokens: bs.MaxTokens, Checkpoints: agent.MemoryCheckpoints(), Now: b.clock("agent.builtin.now", bs.Now),
	})
	return b.keepAgent("agent.builtin", ag, err)
}

// clock is the fixed time a now setting gives, as a clock; nil (the real
// clock) when it is "" or wrong.
func (b *builder) clock(field, now string) func() time.Time {
	t, ok := b.now(field, now)
	if !ok {
		return nil
	}
	return func() time.Time { return t }
}

// now parses a now setting: an RFC 3339 time, or a date for its midnight
// in UTC, after ${VAR} expansion. It reports false when now is "" or
// wrong (a problem, then).
func (b *builder) now(field, now string) (time.Time, bool) {
	now = b.expand(field, now, plainValue)
	if now == "" {
		return time.Time{}, false
	}
	t, err := time.Parse(time.RFC3339, now)
	if err != nil {
		if t, err = time.Parse(time.DateOnly, now); err != nil {
			b.fail("%s %q: want an RFC 3339 time, such as 2024-05-20T09:30:00+02:00, or a date, such as 2024-05-20", field, now)
			return time.Time{}, false
		}
	}
	return t, true
}

// caseNow is the time a case's now: fixes for the agent, or the zero
// time. Only agents in Gavel's process are told it.
func (b *builder) caseNow(now string) time.Time {
	if now == "" {
		return time.Time{}
	}
	if a := b.l.Suite.Agent; a != nil && a.Builtin == nil && a.Go == "" {
		b.fail("now: only a builtin agent, or a Go agent that reads agent.Now, is told the time: an http or exec agent keeps its own clock; remove now")
		return time.Time{}
	}
	t, _ := b.now("now", now)
	return t
}

// mcpServer is the MCP server s describes; field names it in messages.
// A server is a command (stdio, run in the suite's directory) or a URL
// (streamable HTTP or SSE), never both: what applies only to one kind is
// refused on the other, here rather than when the first trial connects.
func (b *builder) mcpServer(field string, s MCPSpec) mcp.Server {
	server := mcp.Server{Name: s.Name, Timeout: b.duration(field+".timeout", s.Timeout)}
	s.Transport = b.expand(field+".transport", s.Transport, plainValue)
	switch {
	case len(s.Command) > 0 && s.URL != "":
		b.fail("%s: give command (a stdio server) or url (an HTTP server), not both", field)
	case len(s.Command) == 0 && s.URL == "":
		b.fail("%s: give command (a stdio server, such as [npx, -y, @modelcontextprotocol/server-memory]) or url (an HTTP server)", field)
	case len(s.Command) > 0:
		if s.Transport != "" {
			b.fail("%s.transport %q: a command server speaks stdio: transport is for a url server; remove it", field, s.Transport)
		}
		if len(s.Headers) > 0 {
			b.fail("%s.headers: headers are sent to a url server only, not to a command; remove them", field)
		}
		server.Command, server.Env, server.Dir = b.expandAll(field+".command", s.Command, secretValue), b.expandAll(field+".env", s.Env, secretValue), b.l.Dir
	default:
		switch s.Transport {
		case "", mcp.TransportStreamable, mcp.TransportSSE:
		default:
			b.fail("%s.transport %q: want %s (the default) or %s", field, s.Transport, mcp.TransportStreamable, mcp.TransportSSE)
		}
		if len(s.Env) > 0 {
			b.fail("%s.env: env is the environment of a command server; a url server runs elsewhere: remove it", field)
		}
		server.URL, server.Transport = b.expand(field+".url", s.URL, addressValue), s.Transport
		if len(s.Headers) > 0 {
			server.Headers = make(map[string]string, len(s.Headers))
			for name, value := range s.Headers {
				server.Headers[name] = b.expand(field+".headers."+name, value, secretValue)
			}
		}
		if u, err := url.Parse(server.URL); server.URL != "" && (err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "") {
			b.fail("%s.url: want an http:// or https:// URL, such as http://127.0.0.1:8931/mcp (or /sse for transport sse)", field)
		}
	}
	return server
}

func (b *builder) keepAgent(field string, a agent.Agent, err error) agent.Agent {
	if err != nil {
		b.fail("%s: %v", field, err)
		return nil
	}
	return a
}

// The values of an MCP server's share: which trials share a connection.
const (
	shareRun   = "run"
	shareCase  = "case"
	shareTrial = "trial"
)

// share checks an MCP server's share setting; "" is shareRun.
func (b *builder) share(field, s string) string {
	switch s {
	case "", shareRun:
		return shareRun
	case shareCase, shareTrial:
		return s
	}
	b.fail("%s.share %q: want run (the default), case or trial", field, s)
	return shareRun
}

// lazyTools is an MCP server's toolbox that connects on first use: once
// for the run, or once for each case or each trial, as share says, its
// connection (a command's process) closed when its case's or trial's
// scope ends (agent.Scope), or at Close.
type lazyTools struct {
	server mcp.Server
	share  string

	mu      sync.Mutex
	clients map[string]*connection // by scope key, "" for the run
}

// A connection is one connection to the server, made once.
type connection struct {
	once   sync.Once
	client *mcp.Client
	err    error
}

// connect returns the connection ctx's trial uses, opening it the first
// time.
func (t *lazyTools) connect(ctx context.Context) (*mcp.Client, error) {
	var scope *agent.Scope
	switch t.share {
	case shareCase:
		scope = agent.CaseScope(ctx)
	case shareTrial:
		scope = agent.TrialScope(ctx)
	}
	key := ""
	if scope != nil {
		key = scope.Key
	}
	t.mu.Lock()
	if t.clients == nil {
		t.clients = map[string]*connection{}
	}
	conn, ok := t.clients[key]
	if !ok {
		conn = &connection{}
		t.clients[key] = conn
		if scope != nil {
			scope.OnEnd(func() { t.release(key) })
		}
	}
	t.mu.Unlock()
	conn.once.Do(func() {
		// The connection outlives the call that made it: it serves its
		// scope, until the scope ends or Close.
		conn.client, conn.err = mcp.Connect(context.WithoutCancel(ctx), t.server)
	})
	return conn.client, conn.err
}

// release closes the connection of a scope that ended.
func (t *lazyTools) release(key string) {
	t.mu.Lock()
	conn := t.clients[key]
	delete(t.clients, key)
	t.mu.Unlock()
	if conn != nil {
		conn.once.Do(func() {}) // a connect under way finishes first
		if conn.client != nil {
			conn.client.Close()
		}
	}
}

func (t *lazyTools) Tools(ctx context.Context) ([]llm.Tool, error) {
	c, err := t.connect(ctx)
	if err != nil {
		return nil, err
	}
	return c.Tools(ctx)
}

func (t *lazyTools) Call(ctx context.Context, name string, args json.RawMessage) (judge.ToolCall, error) {
	c, err := t.connect(ctx)
	if err != nil {
		return judge.ToolCall{}, err
	}
	return c.Call(ctx, name, args)
}

// Close closes every connection still open.
func (t *lazyTools) Close() error {
	t.mu.Lock()
	conns := t.clients
	t.clients = nil
	t.mu.Unlock()
	var errs []error
	for _, conn := range conns {
		conn.once.Do(func() {})
		if conn.client != nil {
			errs = append(errs, conn.client.Close())
		}
	}
	return errors.Join(errs...)
}
