package eval

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"time"

	"github.com/gavelhq/gavel/auth"
	"github.com/gavelhq/gavel/store"
	"github.com/gavelhq/gavel/web"
)

// Serving serves the web app over a results database (gavel serve).
type Serving struct {
	// DB is the results database, as OpenStore takes it.
	DB string
	// Addr is the host:port to listen on. Beyond loopback, everyone logs
	// in, so the database must have a user.
	Addr string
	// TLSCert and TLSKey, when set, serve HTTPS.
	TLSCert, TLSKey string
	// SecureCookies marks cookies Secure (always so with TLSCert).
	SecureCookies bool
	// Suites, when any, are the suites the app may start runs of, within
	// Limits.
	Suites []string
	Limits LaunchLimits
	// TraceURL links traced trials to a tracing UI (web.Config.TraceURL).
	TraceURL string
	// Version is Gavel's version, which the app shows.
	Version string
	// Stdout hears where the app is served; Stderr, what went wrong.
	Stdout, Stderr io.Writer
}

// Serve serves the web app until ctx is done, and returns the exit code:
// ExitUsage for a mistake of the user's, ExitInfra when the database or
// the network failed.
func (s Serving) Serve(ctx context.Context) int {
	fail := func(code int, format string, a ...any) int {
		fmt.Fprintf(s.Stderr, "gavel serve: "+format+"\n", a...)
		return code
	}
	st, err := OpenStore(ctx, s.DB)
	if err != nil {
		return fail(ExitInfra, "the results database: %v", err)
	}
	defer st.Close()
	accounts, ok := st.(store.Accounts)
	if !ok {
		return fail(ExitInfra, "this database keeps no accounts")
	}
	required := !LoopbackAddr(s.Addr)
	if required {
		users, err := accounts.Users(ctx)
		if err != nil {
			return fail(ExitInfra, "%v", err)
		}
		if len(users) == 0 {
			return fail(ExitUsage, "%s is reachable from other machines, so everyone must log in, and no one can yet: add an admin first with\n  gavel users add --role admin NAME", s.Addr)
		}
	}
	cfg := web.Config{Version: s.Version, TraceURL: s.TraceURL,
		Auth: auth.New(auth.Config{Accounts: accounts, Required: required, Secure: s.SecureCookies || s.TLSCert != ""})}
	if len(s.Suites) > 0 {
		m, err := OpenModels(DefaultCacheDir(), false, false)
		if err != nil {
			return fail(ExitInfra, "the model cache: %v", err)
		}
		defer m.Close()
		l, err := NewLauncher(s.Suites, st, m, s.Stderr)
		if err != nil {
			fmt.Fprintln(s.Stderr, err)
			return ExitUsage
		}
		l.Limits = s.Limits
		defer l.Close() // after the server stops: runs under way finish their trials in flight
		cfg.Launcher = l
	}
	srv := &http.Server{Handler: web.New(st, cfg), ReadHeaderTimeout: 10 * time.Second}
	ln, err := net.Listen("tcp", s.Addr)
	if err != nil {
		return fail(ExitInfra, "%v", err)
	}
	scheme, login := "http", "no login: loopback only"
	if s.TLSCert != "" {
		scheme = "https"
	}
	if required {
		login = "everyone logs in"
	}
	fmt.Fprintf(s.Stdout, "Gavel serves %s://%s (%s). Ctrl-C stops it.\n", scheme, ln.Addr(), login)
	go func() {
		<-ctx.Done()
		shutdown, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		srv.Shutdown(shutdown)
	}()
	if s.TLSCert != "" {
		err = srv.ServeTLS(ln, s.TLSCert, s.TLSKey)
	} else {
		err = srv.Serve(ln)
	}
	if !errors.Is(err, http.ErrServerClosed) {
		return fail(ExitInfra, "%v", err)
	}
	return ExitPassed
}

// LoopbackAddr reports whether addr (host:port) listens on this machine
// alone: localhost or a loopback address.
func LoopbackAddr(addr string) bool {
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
