package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/signal"
	"syscall"

	flag "github.com/spf13/pflag"

	"github.com/gavelhq/gavel/eval"
	"github.com/gavelhq/gavel/mcp"
)

const mcpProxyHelp = `Usage: gavel mcp-proxy URL

Serves an MCP session on stdin and stdout and forwards it to the MCP
server at URL (streamable HTTP). It is for agents that start their MCP
servers as commands: give the agent this command instead of the server's,
with URL the recording proxy of a gavel run (agent.mcp_proxy in the suite),
and the run records every tool call the agent makes.

Example, in the agent's MCP configuration:
  {"command": "gavel", "args": ["mcp-proxy", "http://127.0.0.1:8788/mcp"]}
`

func mcpProxyCommand(args []string, std stdio) int {
	fs := flag.NewFlagSet("mcp-proxy", flag.ContinueOnError)
	fs.SetOutput(std.err)
	fs.Usage = func() { fmt.Fprint(std.err, mcpProxyHelp) }
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return eval.ExitPassed
		}
		return eval.ExitUsage
	}
	if fs.NArg() != 1 {
		fmt.Fprint(std.err, "gavel mcp-proxy: give the URL of the MCP server to forward to\n\n", mcpProxyHelp)
		return eval.ExitUsage
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	// The upstream records nothing here: the run's proxy behind URL does.
	p, err := mcp.NewProxy(mcp.Server{Name: "gavel-run", URL: fs.Arg(0)}, nil)
	if err != nil {
		fmt.Fprintln(std.err, "gavel mcp-proxy:", err)
		return eval.ExitInfra
	}
	defer p.Close()
	if err := p.ServeStdio(ctx, std.in, std.out); err != nil && !errors.Is(err, context.Canceled) {
		fmt.Fprintln(std.err, "gavel mcp-proxy:", err)
		return eval.ExitInfra
	}
	return eval.ExitPassed
}
