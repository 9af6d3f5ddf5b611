package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"

	flag "github.com/spf13/pflag"

	"github.com/gavelhq/gavel/eval"
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
	s := eval.Serving{DB: *db, Addr: *addr, TLSCert: *cert, TLSKey: *key, SecureCookies: *secure, Suites: fs.Args(), Limits: limits,
		TraceURL: *traceURL, Version: version, Stdout: stdout, Stderr: stderr}
	return s.Serve(ctx)
}
