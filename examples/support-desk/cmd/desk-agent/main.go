package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
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

// run serves until ctx is done.
func run(ctx context.Context, args []string, stderr io.Writer) error {
	flags := flag.NewFlagSet("desk-agent", flag.ContinueOnError)
	flags.SetOutput(stderr)
	addr := flags.String("addr", "127.0.0.1:8787", "the `host:port` to listen on")
	mcpURL := flags.String("mcp", "", "the streamable-HTTP `URL` of the orders MCP server (required)")
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
