package main

import (
	"cmp"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/gavelhq/gavel/agent"
	"github.com/gavelhq/gavel/llm"
	"github.com/gavelhq/gavel/llm/providers"
	"github.com/gavelhq/gavel/mcp"
)

// systemPrompt is the builtin agent's, as gavel.yaml writes it.
const systemPrompt = `You are a customer-support agent. Be brief. Ask for explicit confirmation before cancelling.
Today is {today}.`

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := run(ctx, os.Args[1:], os.Stderr); err != nil && !errors.Is(err, flag.ErrHelp) {
		fmt.Fprintln(os.Stderr, "desk-agent:", err)
		os.Exit(1)
	}
}

// defaultAddr is where the agent listens unless told: the host and port
// of DESK_AGENT_URL (http.yaml's agent URL) when it is set, else
// http.yaml's default, 127.0.0.1:8787.
func defaultAddr(agentURL string) string {
	if u, err := url.Parse(agentURL); err == nil && u.Host != "" {
		return u.Host
	}
	return "127.0.0.1:8787"
}

// run serves until ctx is done.
func run(ctx context.Context, args []string, stderr io.Writer) error {
	flags := flag.NewFlagSet("desk-agent", flag.ContinueOnError)
	flags.SetOutput(stderr)
	addr := flags.String("addr", defaultAddr(os.Getenv("DESK_AGENT_URL")), "the `host:port` to listen on (defaults to DESK_AGENT_URL's, as http.yaml reaches the agent)")
	mcpURL := flags.String("mcp", "http://"+cmp.Or(os.Getenv("DESK_TOOLS_ADDR"), "127.0.0.1:8788")+"/mcp",
		"the streamable-HTTP `URL` of the orders MCP server (defaults to Gavel's proxy at DESK_TOOLS_ADDR, as http.yaml starts it)")
	modelRef := flags.String("model", "script:models/agent.yaml", "the agent's model, as provider:model")
	if err := flags.Parse(args); err != nil {
		return err
	}
	if *mcpURL == "" {
		flags.Usage()
		return errors.New("-mcp is required: the URL of the orders MCP server, such as http://127.0.0.1:8788/mcp")
	}
	ag, err := newAgent(*modelRef, *mcpURL)
	if err != nil {
		return err
	}
	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		return err
	}
	fmt.Fprintf(stderr, "desk-agent: listening on http://%s/chat, tools from %s\n", ln.Addr(), *mcpURL)
	srv := &http.Server{Handler: newServer(ag), ReadHeaderTimeout: 10 * time.Second}
	go func() {
		<-ctx.Done()
		shutdown, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		defer cancel()
		srv.Shutdown(shutdown)
	}()
	if err := srv.Serve(ln); !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}

// newAgent is the support-desk agent on the model ref names, with the
// tools of the MCP server at mcpURL.
func newAgent(ref, mcpURL string) (agent.Agent, error) {
	parsed, err := llm.ParseRef(ref)
	if err != nil {
		return nil, err
	}
	open, ok := providers.Registry()[parsed.Provider]
	if !ok {
		return nil, fmt.Errorf("-model %s: unknown provider %q", ref, parsed.Provider)
	}
	model, err := open(parsed, os.Getenv)
	if err != nil {
		return nil, fmt.Errorf("-model %s: %w", ref, err)
	}
	return agent.NewBuiltin(agent.BuiltinConfig{
		SystemPrompt: systemPrompt,
		// The meter prices each call, so that replies say what they cost
		// (or that the model has no price).
		Model:    llm.Chain(model, llm.NewMeter(llm.DefaultPrices()).Meter(), llm.Retry(llm.RetryConfig{})),
		Tools:    []agent.Toolbox{&tools{server: mcp.Server{Name: "orders", URL: mcpURL}}},
		MaxTurns: 6,
	})
}
