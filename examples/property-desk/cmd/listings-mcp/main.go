// Listings-mcp is the MCP server of the property-desk example: the
// property manager's tools over the SQLite listings database (package
// listings).
//
// Usage:
//
//	listings-mcp -db PATH [-reset] [-http ADDR | -sse ADDR]
//
// It serves MCP on stdin and stdout by default; -http ADDR serves the
// streamable HTTP transport at http://ADDR/mcp and -sse ADDR the SSE
// transport (seed 000's) at http://ADDR/sse (port 0 picks a free port;
// the URL is logged). -reset deletes the database first, so that a run
// starts from the seed data. The tools are:
//
//	get_listings()                                   the listings, with ids
//	get_listing_details(listing_id, month?)          address, price, occupancy in a month
//	get_bookings(listing_id, month?)                 stays and owner blocks
//	get_revenue_data(month, listing_id?)             revenue of the stays that began in a month
//	block_dates(listing_id, check_in, check_out, note?)  keep nights for the owner
//
// An error (an unknown listing, nights already booked) is a tool result
// with isError set and the error as its text, which the agent can read.
// Logs go to stderr. SIGINT or SIGTERM stops the server.
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

	"github.com/gavelhq/gavel/examples/property-desk/listings"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	context.AfterFunc(ctx, stop) // a second signal kills a shutdown that hangs
	if err := run(ctx, os.Args[1:], os.Stderr); err != nil {
		if !errors.Is(err, flag.ErrHelp) {
			fmt.Fprintln(os.Stderr, "listings-mcp:", err)
		}
		os.Exit(2)
	}
}

// run serves until ctx is done or, over stdio, the client hangs up.
func run(ctx context.Context, args []string, stderr io.Writer) error {
	flags := flag.NewFlagSet("listings-mcp", flag.ContinueOnError)
	flags.SetOutput(stderr)
	dbPath := flags.String("db", "", "the SQLite listings database `PATH`, created and seeded if missing (required)")
	reset := flags.Bool("reset", false, "delete the database first: start from the seed data")
	httpAddr := flags.String("http", "", "serve streamable HTTP at `ADDR`, path /mcp, instead of stdio")
	sseAddr := flags.String("sse", "", "serve SSE at `ADDR`, path /sse, instead of stdio")
	if err := flags.Parse(args); err != nil {
		return err
	}
	switch {
	case *dbPath == "":
		return errors.New("-db is required: the SQLite file of the listings, such as .gavel/property.db")
	case *httpAddr != "" && *sseAddr != "":
		return errors.New("give -http or -sse, not both")
	case flags.NArg() > 0:
		return fmt.Errorf("unexpected argument %q", flags.Arg(0))
	}
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
	db, err := listings.Open(ctx, *dbPath)
	if err != nil {
		return err
	}
	defer db.Close()
	log := slog.New(slog.NewTextHandler(stderr, nil))
	server := newServer(db, log)

	switch {
	case *httpAddr != "":
		h := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return server }, nil)
		return serveHTTP(ctx, *httpAddr, "/mcp", h, log)
	case *sseAddr != "":
		h := mcp.NewSSEHandler(func(*http.Request) *mcp.Server { return server }, nil)
		return serveHTTP(ctx, *sseAddr, "/sse", h, log)
	}
	log.Info("serving MCP over stdio", "db", *dbPath)
	err = server.Run(ctx, &mcp.StdioTransport{})
	if ctx.Err() != nil || errors.Is(err, io.EOF) || errors.Is(err, mcp.ErrConnectionClosed) {
		return nil
	}
	return err
}

// serveHTTP serves h at path on addr until ctx is done.
func serveHTTP(ctx context.Context, addr, path string, h http.Handler, log *slog.Logger) error {
	l, err := net.Listen("tcp", addr)
	if err != nil {
		return fmt.Errorf("listen: %w", err)
	}
	mux := http.NewServeMux()
	mux.Handle(path, h)
	srv := &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second}
	log.Info("serving MCP", "url", "http://"+l.Addr().String()+path)
	served := make(chan error, 1)
	go func() { served <- srv.Serve(l) }()
	select {
	case err := <-served:
		return fmt.Errorf("serve: %w", err)
	case <-ctx.Done():
	}
	// Streams of server messages never go idle on their own: after a
	// short grace, close what is left.
	grace, cancel := context.WithTimeout(context.WithoutCancel(ctx), 2*time.Second)
	defer cancel()
	if err := srv.Shutdown(grace); err != nil {
		srv.Close()
	}
	return nil
}
