package auth

import (
	"context"
	"crypto/subtle"
	"encoding/json"
	"errors"
	"fmt"
	"mime"
	"net"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"

	"github.com/gavelhq/gavel/store"
)

// The cookies the app sets.
const (
	sessionCookie = "gavel_session"
	csrfCookie    = "gavel_csrf" // the local user's CSRF token
)

// Config configures an Authenticator.
type Config struct {
	// Accounts keeps users, sessions and tokens.
	Accounts store.Accounts
	// Required is true when every request must come from a user: the app
	// listens beyond loopback. When false, a request from no one is the
	// local user, an admin.
	Required bool
	// Secure marks cookies Secure: set it when the app is served over
	// TLS (directly or behind a proxy that terminates it).
	Secure bool
	// SessionTTL is how long a login lasts. Defaults to 7 days.
	SessionTTL time.Duration
	// Now tells the time. Defaults to time.Now.
	Now func() time.Time
}

// An Authenticator logs users in and out and tells who sends a request.
type Authenticator struct {
	c   Config
	lim *limiter
}

// New returns an Authenticator.
func New(c Config) *Authenticator {
	if c.SessionTTL <= 0 {
		c.SessionTTL = 7 * 24 * time.Hour
	}
	if c.Now == nil {
		c.Now = time.Now
	}
	return &Authenticator{c: c, lim: newLimiter()}
}

// ErrBadLogin is returned by Login for an unknown name, a wrong password
// or a disabled user alike, so that a login form tells nothing about
// which names exist.
var ErrBadLogin = errors.New("wrong name or password")

// Login checks a name and password sent from addr (a host, or
// host:port) and starts a session: it returns the cookie to set. An
// account or an address that failed too often is held back for a while
// (a *ThrottledError), its password not even checked.
func (a *Authenticator) Login(ctx context.Context, name, password, addr string) (*http.Cookie, error) {
	keys := limiterKeys(name, addr)
	if wait := a.lim.held(a.c.Now(), keys); wait > 0 {
		return nil, &ThrottledError{RetryAfter: wait}
	}
	user, hash, err := a.c.Accounts.UserByName(ctx, name)
	known := err == nil
	switch {
	case errors.Is(err, store.ErrNotFound):
		hash = dummyHash() // as slow as a real check
	case err != nil:
		return nil, err
	}
	ok, err := a.lim.check(ctx, func() bool { return CheckPassword(hash, password) })
	if err != nil {
		return nil, err
	}
	if !ok || !known || user.Disabled {
		a.lim.fail(a.c.Now(), keys)
		return nil, ErrBadLogin
	}
	a.lim.succeed(keys)
	token, tokenHash := NewToken()
	csrf, _ := NewToken()
	now := a.c.Now()
	s := store.Session{TokenHash: tokenHash, UserID: user.ID, CSRF: csrf, Created: now, Expires: now.Add(a.c.SessionTTL)}
	if err := a.c.Accounts.CreateSession(ctx, s); err != nil {
		return nil, fmt.Errorf("start a session: %w", err)
	}
	return a.cookie(sessionCookie, token, now, a.c.SessionTTL), nil
}

// dummyHash is checked against for unknown names; made on first use, so
// that starting gavel costs nothing.
var dummyHash = sync.OnceValue(func() string {
	h, _ := HashPassword("not a password of anyone")
	return h
})

// Logout ends the request's session, if any, and returns the cookie that
// clears it.
func (a *Authenticator) Logout(r *http.Request) (*http.Cookie, error) {
	if c, err := r.Cookie(sessionCookie); err == nil {
		if err := a.c.Accounts.DeleteSession(r.Context(), HashToken(c.Value)); err != nil {
			return nil, err
		}
	}
	return a.cookie(sessionCookie, "", time.Time{}, 0), nil
}

// cookie makes a cookie that lives for ttl from now, or, when ttl is not
// positive, one that deletes the cookie of that name. It says its lifetime
// twice: Max-Age, which a browser counts on its own clock (so a browser
// whose clock is wrong still keeps it as long as meant), and Expires, for
// the browsers that know no Max-Age.
func (a *Authenticator) cookie(name, value string, now time.Time, ttl time.Duration) *http.Cookie {
	c := &http.Cookie{Name: name, Value: value, Path: "/", HttpOnly: true, Secure: a.c.Secure, SameSite: http.SameSiteLaxMode}
	if ttl <= 0 {
		c.Expires, c.MaxAge = time.Unix(0, 0), -1
	} else {
		c.Expires, c.MaxAge = now.Add(ttl), int(ttl/time.Second)
	}
	return c
}

// A Visitor is who sends a request.
type Visitor struct {
	User store.User
	// Local is true for the local user of an app on loopback, who did not
	// log in.
	Local bool
	// CSRF is the token the visitor's forms must send back.
	CSRF string
	// Token is true when the request came with an API token.
	Token bool
}

// Can reports whether the visitor's role is at least role.
func (v Visitor) Can(role store.Role) bool { return v.User.Role.AtLeast(role) }

type visitorKey struct{}

// VisitorFrom returns who sent the request of ctx, as Middleware found.
func VisitorFrom(ctx context.Context) (Visitor, bool) {
	v, ok := ctx.Value(visitorKey{}).(Visitor)
	return v, ok
}

// Middleware finds who sends each request and hands it on with the
// Visitor in its context; it refuses a request from no one when login is
// required, and a state-changing browser request without its CSRF token.
// Paths in open (the login page, static files) are served to anyone.
func (a *Authenticator) Middleware(next http.Handler, open ...string) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		v, err := a.visitor(w, r)
		if err != nil {
			http.Error(w, "cannot check who you are: "+err.Error(), http.StatusInternalServerError)
			return
		}
		if v == nil {
			if isOpen(r.URL.Path, open) {
				next.ServeHTTP(w, r)
				return
			}
			refuse(w, r)
			return
		}
		if v.Local && !loopbackHost(r.Host) {
			forbid(w, r, fmt.Sprintf("this Gavel serves without login to loopback only, and this request was sent to %q: "+
				"open it at http://127.0.0.1 or http://localhost, or serve it on another address, where everyone logs in", r.Host))
			return
		}
		if h := proxyHeader(r); v.Local && h != "" {
			forbid(w, r, fmt.Sprintf("this Gavel serves without login to this machine only, and this request came through a proxy (it has %s): "+
				"serve Gavel on an address that is not loopback (gavel serve --addr), where everyone logs in, and put the proxy in front of that", h))
			return
		}
		if !v.Token && !safeMethod(r.Method) && !a.sameOrigin(r, *v) {
			forbid(w, r, "this form is stale or came from another site: reload the page and try again")
			return
		}
		next.ServeHTTP(w, r.WithContext(context.WithValue(r.Context(), visitorKey{}, *v)))
	})
}

// visitor finds who sends r: nil for no one when login is required.
func (a *Authenticator) visitor(w http.ResponseWriter, r *http.Request) (*Visitor, error) {
	ctx := r.Context()
	if bearer, ok := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer "); ok {
		token, user, err := a.c.Accounts.TokenByHash(ctx, HashToken(strings.TrimSpace(bearer)))
		if errors.Is(err, store.ErrNotFound) {
			return nil, nil // no such token, or an expired one
		}
		if err != nil {
			return nil, err
		}
		if token.Role != "" && !token.Role.AtLeast(user.Role) {
			user.Role = token.Role // a token below its user's role acts with its own
		}
		return &Visitor{User: user, Token: true}, nil
	}
	if c, err := r.Cookie(sessionCookie); err == nil {
		s, user, err := a.c.Accounts.SessionByToken(ctx, HashToken(c.Value))
		switch {
		case err == nil:
			return &Visitor{User: user, CSRF: s.CSRF}, nil
		case !errors.Is(err, store.ErrNotFound):
			return nil, err
		}
	}
	if a.c.Required {
		return nil, nil
	}
	// The local user: a CSRF token of their own, in a cookie.
	csrf := ""
	if c, err := r.Cookie(csrfCookie); err == nil && c.Value != "" {
		csrf = c.Value
	} else {
		csrf, _ = NewToken()
		http.SetCookie(w, a.cookie(csrfCookie, csrf, a.c.Now(), 365*24*time.Hour))
	}
	return &Visitor{User: store.User{Name: "local", Role: store.Admin}, Local: true, CSRF: csrf}, nil
}

// sameOrigin checks a state-changing request: its Origin when it sends
// one, and its CSRF token. The local user's JSON requests (a script on
// the same machine) need no token: a page of another site cannot send a
// JSON body without asking the server first (a CORS preflight), which
// this server never grants.
func (a *Authenticator) sameOrigin(r *http.Request, v Visitor) bool {
	if origin := r.Header.Get("Origin"); origin != "" {
		u, err := url.Parse(origin)
		if err != nil || u.Host != r.Host {
			return false
		}
	}
	if v.Local && IsJSON(r) {
		return true
	}
	csrf := v.CSRF
	sent := r.Header.Get("X-CSRF-Token")
	if sent == "" {
		sent = r.PostFormValue("csrf")
	}
	return csrf != "" && subtle.ConstantTimeCompare([]byte(sent), []byte(csrf)) == 1
}

// IsJSON reports whether r's body is JSON, by its Content-Type: the
// only body the local user may send without a CSRF token.
func IsJSON(r *http.Request) bool {
	mediaType, _, err := mime.ParseMediaType(r.Header.Get("Content-Type"))
	return err == nil && mediaType == "application/json"
}

// proxyHeaders are the headers a proxy adds to the requests it forwards.
var proxyHeaders = []string{"Forwarded", "X-Forwarded-For", "X-Forwarded-Host", "X-Forwarded-Proto", "X-Real-Ip", "Via"}

// proxyHeader returns the first header of r that says it came through a
// proxy; "" when none does. Such a request is not local, though the proxy
// runs here and sends Host 127.0.0.1 (nginx's default).
func proxyHeader(r *http.Request) string {
	for _, h := range proxyHeaders {
		if r.Header.Get(h) != "" {
			return h
		}
	}
	return ""
}

// loopbackHost reports whether a request's Host names this machine:
// localhost or a loopback address. A page of another site that makes its
// own name resolve to 127.0.0.1 (DNS rebinding) sends its own name, so
// it gets no answer from an app that needs no login.
func loopbackHost(hostport string) bool {
	host := hostport
	if h, _, err := net.SplitHostPort(hostport); err == nil {
		host = h
	}
	host = strings.TrimSuffix(strings.TrimPrefix(host, "["), "]")
	if host == "localhost" || strings.HasSuffix(host, ".localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

func safeMethod(m string) bool {
	return m == http.MethodGet || m == http.MethodHead || m == http.MethodOptions
}

func isOpen(path string, open []string) bool {
	for _, p := range open {
		if path == p || (strings.HasSuffix(p, "/") && strings.HasPrefix(path, p)) {
			return true
		}
	}
	return false
}

// refuse answers a request from no one: the API with 401, a page with a
// redirect to the login page, which comes back here after.
func refuse(w http.ResponseWriter, r *http.Request) {
	if strings.HasPrefix(r.URL.Path, "/api/") {
		w.Header().Set("WWW-Authenticate", `Bearer realm="gavel"`)
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusUnauthorized)
		w.Write([]byte(`{"error": "log in, or send an API token: Authorization: Bearer TOKEN"}` + "\n"))
		return
	}
	http.Redirect(w, r, "/login?next="+url.QueryEscape(r.URL.RequestURI()), http.StatusSeeOther)
}

// forbid answers 403 with why: in JSON under /api/, as the API's other
// errors, and as text elsewhere.
func forbid(w http.ResponseWriter, r *http.Request, why string) {
	if strings.HasPrefix(r.URL.Path, "/api/") {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusForbidden)
		json.NewEncoder(w).Encode(map[string]string{"error": why})
		return
	}
	http.Error(w, why, http.StatusForbidden)
}

// Require hands a request on only when its visitor's role is at least
// role; others get 403.
func Require(role store.Role, h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		v, ok := VisitorFrom(r.Context())
		if !ok || !v.Can(role) {
			forbid(w, r, fmt.Sprintf("this needs the %s role", role))
			return
		}
		h.ServeHTTP(w, r)
	})
}
