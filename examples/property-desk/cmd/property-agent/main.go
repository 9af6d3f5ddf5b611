package main

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"

	"github.com/gavelhq/gavel/agent"
	"github.com/gavelhq/gavel/judge"
	"github.com/gavelhq/gavel/llm"
	"github.com/gavelhq/gavel/llm/providers"
	"github.com/gavelhq/gavel/mcp"
)

// systemPrompt is seed 000's harness, with the example's clock.
const systemPrompt = `You are a helpful assistant for a property management platform.
You help users understand their listings, bookings, and revenue data.
Always be concise and accurate. Use the tools available to fetch real data.
Today's date is {today}. Respond in {locale}.`

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := run(ctx, os.Args[1:], os.Stdin, os.Stdout, os.Stderr); err != nil && !errors.Is(err, flag.ErrHelp) {
		fmt.Fprintln(os.Stderr, "property-agent:", err)
		os.Exit(1)
	}
}

// run serves the exec protocol on stdin and stdout until stdin ends.
func run(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	flags := flag.NewFlagSet("property-agent", flag.ContinueOnError)
	flags.SetOutput(stderr)
	dbPath := flags.String("db", "", "the SQLite `PATH` where conversations are kept (required)")
	mcpURL := flags.String("mcp", "", "the `URL` of the listings MCP server (required)")
	transport := flags.String("transport", "streamable", "the MCP transport: streamable or sse")
	modelRef := flags.String("model", "script:models/agent.yaml", "the agent's model, as provider:model")
	keep := flags.String("checkpoints", "sqlite", "where conversations are kept: sqlite (in -db, surviving a restart) or memory (lost with the process: a broken checkpointer, for showing what a revival test catches)")
	if err := flags.Parse(args); err != nil {
		return err
	}
	if *dbPath == "" || *mcpURL == "" {
		flags.Usage()
		return errors.New("-db and -mcp are required")
	}
	var checkpoints agent.Checkpoints
	switch *keep {
	case "sqlite":
		threads, err := openThreads(ctx, *dbPath)
		if err != nil {
			return err
		}
		defer threads.Close()
		checkpoints = threads
	case "memory":
		checkpoints = agent.MemoryCheckpoints()
	default:
		return fmt.Errorf("-checkpoints %q: want sqlite or memory", *keep)
	}
	ag, err := newAgent(*modelRef, mcp.Server{Name: "listings", URL: *mcpURL, Transport: *transport}, checkpoints)
	if err != nil {
		return err
	}
	return serve(ctx, ag, stdin, stdout)
}

// newAgent is the property agent on the model ref names, with the tools
// of server and its conversations kept in threads.
func newAgent(ref string, server mcp.Server, threads agent.Checkpoints) (agent.Agent, error) {
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
		Locale:       "English",
		Model:        llm.Chain(model, llm.NewMeter(llm.DefaultPrices()).Meter(), llm.Retry(llm.RetryConfig{})),
		Tools:        []agent.Toolbox{&lazyTools{server: server}},
		Checkpoints:  threads,
		MaxTurns:     6,
	})
}

// A request is one line of the exec protocol from Gavel.
type request struct {
	Type     string            `json:"type"`
	ID       string            `json:"id"`
	Session  string            `json:"session"`
	Text     string            `json:"text"`
	Metadata map[string]string `json:"metadata"`
}

// An answer is one line to Gavel.
type answer struct {
	Type    string     `json:"type"`
	ID      string     `json:"id"`
	Text    string     `json:"text,omitempty"`
	Usage   *wireUsage `json:"usage,omitempty"`
	Message string     `json:"message,omitempty"`
}

type wireUsage struct {
	InputTokens  int64    `json:"input_tokens"`
	OutputTokens int64    `json:"output_tokens"`
	CachedTokens int64    `json:"cached_tokens"`
	CostUSD      *float64 `json:"cost_usd,omitempty"` // absent when unknown: unpriced, not free
}

func newWireUsage(u judge.Usage) *wireUsage {
	w := &wireUsage{InputTokens: u.InputTokens, OutputTokens: u.OutputTokens, CachedTokens: u.CachedTokens}
	if !u.Unpriced {
		w.CostUSD = &u.CostUSD
	}
	return w
}

// serve answers requests one at a time, in order, until stdin ends.
// Sessions still open then are closed, so their conversations are saved.
func serve(ctx context.Context, ag agent.Agent, stdin io.Reader, stdout io.Writer) error {
	sessions := map[string]agent.Session{}
	defer func() {
		for _, s := range sessions {
			s.Close(context.WithoutCancel(ctx))
		}
	}()
	out := json.NewEncoder(stdout) // one object per line
	in := bufio.NewScanner(stdin)
	in.Buffer(make([]byte, 64<<10), 16<<20)
	for in.Scan() {
		if len(in.Bytes()) == 0 {
			continue
		}
		var req request
		if err := json.Unmarshal(in.Bytes(), &req); err != nil {
			return fmt.Errorf("read a request: %w", err)
		}
		ans, err := handle(ctx, ag, sessions, req)
		if err != nil {
			ans = answer{Type: "error", Message: err.Error()}
		}
		ans.ID = req.ID
		if err := out.Encode(ans); err != nil {
			return fmt.Errorf("answer request %s: %w", req.ID, err)
		}
	}
	return in.Err()
}

func handle(ctx context.Context, ag agent.Agent, sessions map[string]agent.Session, req request) (answer, error) {
	switch req.Type {
	case "open":
		if _, ok := sessions[req.Session]; !ok {
			s, err := ag.Open(ctx, req.Session) // loads the saved conversation, if any
			if err != nil {
				return answer{}, fmt.Errorf("open session %s: %w", req.Session, err)
			}
			sessions[req.Session] = s
		}
		return answer{Type: "ok"}, nil
	case "message":
		s, ok := sessions[req.Session]
		if !ok {
			return answer{}, fmt.Errorf("session %s is not open", req.Session)
		}
		reply, err := s.Send(ctx, agent.Message{Text: req.Text, Metadata: req.Metadata})
		if err != nil {
			return answer{}, err
		}
		return answer{Type: "reply", Text: reply.Text, Usage: newWireUsage(reply.Usage)}, nil
	case "close":
		s, ok := sessions[req.Session]
		if !ok {
			return answer{Type: "ok"}, nil
		}
		delete(sessions, req.Session)
		if err := s.Close(ctx); err != nil { // saves the conversation
			return answer{}, fmt.Errorf("close session %s: %w", req.Session, err)
		}
		return answer{Type: "ok"}, nil
	case "reset":
		return answer{Type: "ok"}, nil
	}
	return answer{}, fmt.Errorf("unknown request type %q", req.Type)
}

// lazyTools is an MCP server's toolbox, connected on first use and again
// after a failed connection.
type lazyTools struct {
	server mcp.Server
	client *mcp.Client
}

func (t *lazyTools) connect(ctx context.Context) (*mcp.Client, error) {
	if t.client == nil {
		c, err := mcp.Connect(ctx, t.server)
		if err != nil {
			return nil, err
		}
		t.client = c
	}
	return t.client, nil
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
