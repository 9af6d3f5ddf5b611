package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/signal"
	"syscall"
	"time"

	flag "github.com/spf13/pflag"

	"github.com/gavelhq/gavel/auth"
	"github.com/gavelhq/gavel/eval"
	"github.com/gavelhq/gavel/store"
	"github.com/gavelhq/gavel/web"
)

const serveHelp = `Usage: gavel serve [flags] [SUITE...]

Serves the web app: runs, case results turn by turn, cases to write and
edit, trends, comparisons, and the JSON API scripts use (see web/api.md).
Editors may start runs of the SUITEs given (with the cases written in the
app added), within the limits set here: trials per run, runs at once, and
a cost budget per run. On 127.0.0.1 (the default) anyone on this machine is an admin
without logging in; on any other address everyone logs in, with the
accounts of gavel users. With OTEL_EXPORTER_OTLP_ENDPOINT set, the runs
started there are traced as gavel run's are; --trace-url links each
traced trial to its trace.

Examples:
  gavel serve examples/support-desk
  gavel serve --addr :8080 --db postgres://gavel@db.internal/gavel
  gavel serve --addr :8443 --tls-cert cert.pem --tls-key key.pem
  gavel serve --trace-url 'http://localhost:16686/trace/{trace_id}'

Flags:
`

func serveCommand(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("serve", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() { fmt.Fprint(stderr, serveHelp); fs.PrintDefaults() }
	db := dbFlag(fs)
	addr := fs.String("addr", "127.0.0.1:8080", "the `host:port` to listen on")
	cert := fs.String("tls-cert", "", "serve HTTPS with this certificate `file` (and --tls-key)")
	key := fs.String("tls-key", "", "the certificate's key `file`")
	secure := fs.Bool("secure-cookies", false, "mark cookies Secure: for an app behind a proxy that terminates TLS")
	var limits eval.LaunchLimits
	fs.IntVar(&limits.MaxTrials, "max-trials-per-run", eval.DefaultLaunchLimits.MaxTrials, "the most trials a run started from the app may make (its cases times their trials)")
	fs.IntVar(&limits.MaxRunning, "max-runs-at-once", eval.DefaultLaunchLimits.MaxRunning, "the most runs started from the app that run at once")
	fs.Float64Var(&limits.MaxCostUSD, "max-cost-usd-per-run", 0, "stop starting a run's trials once it spent this many US dollars (0: no budget)")
	traceURL := fs.String("trace-url", os.Getenv("GAVEL_TRACE_URL"), "link traced trials to a tracing UI: a `URL` with {trace_id} where the trace id goes,\nsuch as http://localhost:16686/trace/{trace_id} (Jaeger); defaults to $GAVEL_TRACE_URL")
	if code, ok := parse(fs, args); !ok {
		return code
	}
	if limits.MaxTrials < 1 || limits.MaxRunning < 1 || !(limits.MaxCostUSD >= 0) {
		fmt.Fprintln(stderr, "gavel serve: --max-trials-per-run and --max-runs-at-once want 1 or more, --max-cost-usd-per-run 0 or more")
		return eval.ExitUsage
	}
	if (*cert == "") != (*key == "") {
		fmt.Fprintln(stderr, "gavel serve: give --tls-cert and --tls-key together")
		return eval.ExitUsage
	}
	if err := web.CheckTraceURL(*traceURL); err != nil {
		fmt.Fprintln(stderr, "gavel serve: --trace-url:", err)
		return eval.ExitUsage
	}
	// Runs started from the app are traced as gavel run's are.
	flush, ok := startTracing("gavel serve", stderr)
	if !ok {
		return eval.ExitUsage
	}
	defer flush()
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGINT, syscall.SIGTERM)
	defer stop()
	st, err := eval.OpenStore(ctx, *db)
	if err != nil {
		fmt.Fprintln(stderr, "gavel serve: the results database:", err)
		return eval.ExitInfra
	}
	defer st.Close()
	accounts, ok := st.(store.Accounts)
	if !ok {
		fmt.Fprintln(stderr, "gavel serve: this database keeps no accounts")
		return eval.ExitInfra
	}
	required := !loopback(*addr)
	if required {
		users, err := accounts.Users(ctx)
		if err != nil {
			fmt.Fprintln(stderr, "gavel serve:", err)
			return eval.ExitInfra
		}
		if len(users) == 0 {
			fmt.Fprintf(stderr, "gavel serve: %s is reachable from other machines, so everyone must log in, and no one can yet: add an admin first with\n  gavel users add --role admin NAME\n", *addr)
			return eval.ExitUsage
		}
	}
	cfg := web.Config{Version: version, TraceURL: *traceURL, Auth: auth.New(auth.Config{Accounts: accounts, Required: required, Secure: *secure || *cert != ""})}
	if fs.NArg() > 0 {
		m, err := eval.OpenModels(eval.DefaultCacheDir(), false, false)
		if err != nil {
			fmt.Fprintln(stderr, "gavel serve: the model cache:", err)
			return eval.ExitInfra
		}
		defer m.Close()
		l, err := eval.NewLauncher(fs.Args(), st, m, stderr)
		if err != nil {
			fmt.Fprintln(stderr, err)
			return eval.ExitUsage
		}
		l.Limits = limits
		defer l.Close() // after the server stops: runs under way finish their trials in flight
		cfg.Launcher = l
	}
	srv := &http.Server{Handler: web.New(st, cfg), ReadHeaderTimeout: 10 * time.Second}
	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		fmt.Fprintln(stderr, "gavel serve:", err)
		return eval.ExitInfra
	}
	scheme := "http"
	if *cert != "" {
		scheme = "https"
	}
	login := "no login: loopback only"
	if required {
		login = "everyone logs in"
	}
	fmt.Fprintf(stdout, "Gavel serves %s://%s (%s). Ctrl-C stops it.\n", scheme, ln.Addr(), login)
	go func() {
		<-ctx.Done()
		shutdown, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		srv.Shutdown(shutdown)
	}()
	if *cert != "" {
		err = srv.ServeTLS(ln, *cert, *key)
	} else {
		err = srv.Serve(ln)
	}
	if !errors.Is(err, http.ErrServerClosed) {
		fmt.Fprintln(stderr, "gavel serve:", err)
		return eval.ExitInfra
	}
	return eval.ExitPassed
}

// loopback reports whether addr listens on this machine only.
func loopback(addr string) bool {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return false
	}
	if host == "localhost" {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}
