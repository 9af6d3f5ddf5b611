package spec

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"sync"
	"time"

	"github.com/gavelhq/gavel/agent"
	"github.com/gavelhq/gavel/mcp"
	"github.com/gavelhq/gavel/mock"
)

// recordTools puts Gavel's recording proxy between ag and the MCP servers
// specs list, and returns ag recorded: each reply gets the tool calls
// made while the agent produced it (see agent.Recorded). The proxies
// start when the first session opens.
func (b *builder) recordTools(ag agent.Agent, specs []MCPProxySpec, faults *mock.Injector, replay *mock.Replay) agent.Agent {
	log := &mcp.Log{}
	var proxies []*listeningProxy
	for i, s := range specs {
		field := fmt.Sprintf("agent.mcp_proxy[%d]", i)
		listen := b.expand(field+".listen", s.Listen, plainValue)
		if _, _, err := net.SplitHostPort(listen); err != nil {
			b.fail("%s.listen %q: want the host:port the proxy listens on, such as 127.0.0.1:8788", field, listen)
			continue
		}
		if s.Share != "" && s.Share != shareRun {
			b.fail("%s.share %q: a recording proxy serves the whole run at %s, so its server is the run's: remove share, or give the agent its own server in each trial", field, s.Share, listen)
		}
		upstream := b.mcpServer(field, s.MCPSpec)
		p := &listeningProxy{name: "MCP server " + upstream.Name, listen: listen, log: log, announce: b.env.Stderr,
			make: inTurns(log, faulty(faults, replaying(replay, func() (*mcp.Proxy, error) { return mcp.NewProxy(upstream, log) })))}
		b.out.closers = append(b.out.closers, p.Close)
		proxies = append(proxies, p)
	}
	return &proxiedAgent{Agent: agent.Recorded(ag, log), proxies: proxies}
}

// proxiedAgent starts its proxies before opening its first session.
type proxiedAgent struct {
	agent.Agent
	proxies []*listeningProxy
}

// Revival is the recorded agent's.
func (a *proxiedAgent) Revival() (string, error) { return agent.Revival(a.Agent) }

// TakesEvents is the recorded agent's.
func (a *proxiedAgent) TakesEvents() error { return agent.TakesEvents(a.Agent) }

func (a *proxiedAgent) Open(ctx context.Context, sessionID string) (agent.Session, error) {
	for _, p := range a.proxies {
		if err := p.start(); err != nil {
			return nil, err
		}
	}
	return a.Agent.Open(ctx, sessionID)
}

// A listeningProxy is a recording proxy served over streamable HTTP on a
// fixed address, started once, on first use, for the whole run.
type listeningProxy struct {
	// name says what is served, for the announcement; make makes the
	// server (a proxy of an upstream, or mock tools).
	name     string
	make     func() (*mcp.Proxy, error)
	listen   string
	log      *mcp.Log
	announce io.Writer

	once   sync.Once
	err    error
	proxy  *mcp.Proxy
	server *http.Server
}

func (p *listeningProxy) start() error {
	p.once.Do(func() { p.err = p.serve() })
	return p.err
}

func (p *listeningProxy) serve() error {
	ln, err := net.Listen("tcp", p.listen)
	if err != nil {
		return fmt.Errorf("mcp proxy: listen on %s: %w (is another program using the port?)", p.listen, err)
	}
	proxy, err := p.make()
	if err != nil {
		ln.Close()
		return fmt.Errorf("mcp proxy on %s: %w", p.listen, err)
	}
	p.proxy = proxy
	p.server = &http.Server{Handler: proxy.Handler(), ReadHeaderTimeout: 10 * time.Second}
	go p.server.Serve(ln)
	fmt.Fprintf(p.announce, "gavel: recording the tool calls of %s at http://%s/mcp\n", p.name, ln.Addr())
	return nil
}

// Close stops serving, then closes the upstream server.
func (p *listeningProxy) Close() error {
	if p.server == nil {
		return nil
	}
	return errors.Join(p.server.Close(), p.proxy.Close())
}

// inTurns returns make with each server it makes giving its calls the
// trial and case of the turn under way, which log knows (agent.Recorded
// runs one turn at a time): a call through a proxy comes over HTTP,
// outside any trial, and faults, mocks and replays count and choose by
// trial and case.
func inTurns(log *mcp.Log, make func() (*mcp.Proxy, error)) func() (*mcp.Proxy, error) {
	return func() (*mcp.Proxy, error) {
		p, err := make()
		if err == nil {
			p.SetContext(func(ctx context.Context) context.Context {
				if turn := log.Turn(); turn != nil && agent.TrialScope(ctx) == nil {
					return agent.WithScopes(ctx, agent.TrialScope(turn), agent.CaseScope(turn))
				}
				return ctx
			})
		}
		return p, err
	}
}
