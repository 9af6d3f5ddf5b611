package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"net"
	"net/http"
	"os"
	"os/signal"
	"path/filepath"
	"syscall"
	"time"

	"github.com/gavelhq/gavel/examples/support-desk/orders"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// shutdownGrace is how long the HTTP server waits, when told to stop, for
// its connections to finish what they are doing. A tool call takes
// milliseconds; the wait is mostly for connections that carry nothing.
const shutdownGrace = 2 * time.Second

// errUsage is returned by run for bad flags, after the usage is printed.
var errUsage = errors.New("usage")

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	// After the first signal, restore the default behaviour, so that a
	// second one kills a shutdown that hangs.
	context.AfterFunc(ctx, stop)

	err := run(ctx, os.Args[1:], os.Stderr)
	switch {
	case err == nil:
	case errors.Is(err, flag.ErrHelp):
	case errors.Is(err, errUsage):
		os.Exit(2)
	default:
		fmt.Fprintln(os.Stderr, "orders-mcp:", err)
		os.Exit(1)
	}
}

// run is the whole program but for the process's signals and exit code:
// it serves until ctx is done or, over stdio, until the client hangs up.
// It writes only to stderr, since stdout is the protocol over stdio.
func run(ctx context.Context, args []string, stderr io.Writer) error {
	flags := flag.NewFlagSet("orders-mcp", flag.ContinueOnError)
	flags.SetOutput(stderr)
	flags.Usage = func() {
		fmt.Fprintln(stderr, "usage: orders-mcp -db PATH [-reset] [-http ADDR]")
		fmt.Fprintln(stderr, "Serves the support-desk example's order tools over MCP, on stdin and stdout by default.")
		flags.PrintDefaults()
	}
	dbPath := flags.String("db", "", "the SQLite orders database `PATH`, created and seeded if missing (required)")
	reset := flags.Bool("reset", false, "start from the seed data: delete the database first (a test run's fresh start)")
	httpAddr := flags.String("http", "", "serve streamable HTTP at `ADDR` (such as 127.0.0.1:8080), path /mcp, instead of stdio")
	if err := flags.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return err
		}
		return errUsage // the flag package has said what is wrong
	}
	switch {
	case *dbPath == "":
		fmt.Fprintln(stderr, "orders-mcp: -db is required")
		flags.Usage()
		return errUsage
	case flags.NArg() > 0:
		fmt.Fprintf(stderr, "orders-mcp: unexpected argument %q\n", flags.Arg(0))
		flags.Usage()
		return errUsage
	}

	log := slog.New(slog.NewTextHandler(stderr, nil))
	if *reset {
		for _, suffix := range []string{"", "-wal", "-shm"} {
			if err := os.Remove(*dbPath + suffix); err != nil && !errors.Is(err, fs.ErrNotExist) {
				return fmt.Errorf("reset: %w", err)
			}
		}
	}
	if err := os.MkdirAll(filepath.Dir(*dbPath), 0o755); err != nil {
		return fmt.Errorf("create the directory of %s: %w", *dbPath, err)
	}
	db, err := orders.Open(ctx, *dbPath)
	if err != nil {
		return err
	}
	defer db.Close()
	server := newServer(db, log)

	if *httpAddr == "" {
		log.Info("serving MCP over stdio", "db", *dbPath)
		return serveStdio(ctx, server)
	}
	l, err := net.Listen("tcp", *httpAddr)
	if err != nil {
		return fmt.Errorf("listen: %w", err)
	}
	// The address, not the flag, so that a port chosen by the system
	// (ADDR ending in ":0") can be read here.
	log.Info("serving MCP over streamable HTTP", "url", "http://"+l.Addr().String()+"/mcp", "db", *dbPath)
	return serveHTTP(ctx, l, server, log)
}

// serveStdio serves one session on stdin and stdout, until the client
// closes stdin or ctx is done. Both are a normal end.
func serveStdio(ctx context.Context, server *mcp.Server) error {
	err := server.Run(ctx, &mcp.StdioTransport{})
	if ctx.Err() != nil || errors.Is(err, io.EOF) || errors.Is(err, mcp.ErrConnectionClosed) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("serve stdio: %w", err)
	}
	return nil
}

// serveHTTP serves the streamable HTTP transport at path /mcp on l, every
// session on the one server, until ctx is done. It then closes l, lets
// the requests under way finish and returns.
func serveHTTP(ctx context.Context, l net.Listener, server *mcp.Server, log *slog.Logger) error {
	mux := http.NewServeMux()
	mux.Handle("/mcp", mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return server }, nil))
	srv := &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second}

	served := make(chan error, 1)
	go func() { served <- srv.Serve(l) }()
	select {
	case err := <-served:
		return fmt.Errorf("serve http: %w", err)
	case <-ctx.Done():
	}

	// Shutdown waits for every connection to be idle, which two kinds
	// never are on their own:
	//   - a session's stream of server messages (a GET that stays open):
	//     ending the sessions ends those;
	//   - a connection a client opened ahead of need and has sent nothing
	//     on, which net/http counts as busy for its first five seconds:
	//     after the grace, Close drops it.
	for session := range server.Sessions() {
		session.Close()
	}
	graceCtx, cancel := context.WithTimeout(context.WithoutCancel(ctx), shutdownGrace)
	defer cancel()
	if err := srv.Shutdown(graceCtx); err != nil {
		log.Warn("closing connections still open after the shutdown grace", "grace", shutdownGrace, "err", err)
		srv.Close()
	}
	<-served // http.ErrServerClosed, now that Shutdown or Close has returned
	return nil
}
