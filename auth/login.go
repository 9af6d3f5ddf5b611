package auth

import (
	"context"
	"crypto/subtle"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"runtime"
	"strings"
	"sync"
	"time"
)

// The login form is guarded twice: against another site posting it (a
// login CSRF, which would have the victim work logged in as the
// attacker), and against guessing passwords.

const loginCookie = "gavel_login" // the login form's CSRF token

// ErrForeignLogin is returned by CheckLoginForm for a login posted from
// another site, or without the token of the form it was given.
var ErrForeignLogin = errors.New("this login form is stale or came from another site: reload the page and try again")

// LoginForm gives the visitor about to log in a token that the login form
// must send back (CheckLoginForm): it sets it in a cookie, and returns it
// for the form's hidden field.
func (a *Authenticator) LoginForm(w http.ResponseWriter, r *http.Request) string {
	if c, err := r.Cookie(loginCookie); err == nil && len(c.Value) >= 32 {
		return c.Value
	}
	token, _ := NewToken()
	c := a.cookie(loginCookie, token, a.c.Now(), 24*time.Hour)
	c.SameSite = http.SameSiteStrictMode // never sent with another site's post
	http.SetCookie(w, c)
	return token
}

// CheckLoginForm refuses a login posted from another origin (by its Origin
// or Sec-Fetch-Site header), or without the token LoginForm gave: another
// site can neither read the token nor, with a strict cookie, send it.
func (a *Authenticator) CheckLoginForm(r *http.Request) error {
	if origin := r.Header.Get("Origin"); origin != "" {
		if u, err := url.Parse(origin); err != nil || u.Host != r.Host {
			return ErrForeignLogin
		}
	}
	if r.Header.Get("Sec-Fetch-Site") == "cross-site" {
		return ErrForeignLogin
	}
	c, err := r.Cookie(loginCookie)
	sent := r.PostFormValue("csrf")
	if err != nil || c.Value == "" || subtle.ConstantTimeCompare([]byte(sent), []byte(c.Value)) != 1 {
		return ErrForeignLogin
	}
	return nil
}

// A ThrottledError refuses a login attempt while its account or its
// address is held back for failing too often: the password is not even
// checked.
type ThrottledError struct {
	RetryAfter time.Duration
}

func (e *ThrottledError) Error() string {
	return fmt.Sprintf("too many failed logins: try again in %s", e.RetryAfter.Round(time.Second))
}

// The limits of failed logins. An address may fail freeFailures times in
// a row, an account freeAccountFailures times; then each failure holds it
// back for twice as long as the last, from firstHold up to maxHold. A
// success clears the account's and the address's count; an hour without
// failure forgets it.
//
// The address is held back first: one address guessing at an account is
// slowed down long before the account is (its 20 failures take it about
// nine hours), so that nobody can lock a person out by failing logins
// under their name. Guesses from many addresses still hold the account
// back.
const (
	freeFailures        = 5
	freeAccountFailures = 20
	firstHold           = time.Second
	maxHold             = 15 * time.Minute
	forgetAfter         = time.Hour
)

// checkingAtOnce bounds the password checks that run at once: each costs
// a core for a moment, and a flood of them (from many addresses, each
// under its limit) must not take every core from the pages of the people
// already logged in. Half the cores, at least one.
var checkingAtOnce = max(1, runtime.GOMAXPROCS(0)/2)

// A limiter counts failed logins per account and per address.
type limiter struct {
	mu       sync.Mutex
	failures map[string]*failures // "name:vera", "addr:192.0.2.1"
	checking chan struct{}
}

type failures struct {
	count int
	last  time.Time // of the last failure
	until time.Time // held back until
}

func newLimiter() *limiter {
	return &limiter{failures: map[string]*failures{}, checking: make(chan struct{}, checkingAtOnce)}
}

// keys are the counters a login attempt of name from addr counts on.
func limiterKeys(name, addr string) []string {
	if host, _, err := net.SplitHostPort(addr); err == nil {
		addr = host
	}
	return []string{"name:" + name, "addr:" + addr}
}

// held returns how much longer the longest hold on keys lasts; 0 when
// none holds.
func (l *limiter) held(now time.Time, keys []string) time.Duration {
	l.mu.Lock()
	defer l.mu.Unlock()
	var wait time.Duration
	for _, k := range keys {
		if f := l.failures[k]; f != nil {
			wait = max(wait, f.until.Sub(now))
		}
	}
	return wait
}

// fail counts a failure on keys.
func (l *limiter) fail(now time.Time, keys []string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	for _, k := range keys {
		f := l.failures[k]
		if f == nil || now.Sub(f.last) > forgetAfter {
			f = &failures{}
			l.failures[k] = f
		}
		f.count++
		f.last = now
		free := freeFailures
		if strings.HasPrefix(k, "name:") {
			free = freeAccountFailures
		}
		if n := f.count - free; n > 0 {
			hold := maxHold
			if n < 20 { // 2^20 s is far past maxHold
				hold = min(maxHold, firstHold<<(n-1))
			}
			f.until = now.Add(hold)
		}
	}
	if len(l.failures) > 100_000 { // a flood of names: keep the memory bounded
		for k, f := range l.failures {
			if now.Sub(f.last) > forgetAfter || now.After(f.until) {
				delete(l.failures, k)
			}
		}
	}
}

// succeed clears the counts of keys.
func (l *limiter) succeed(keys []string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	for _, k := range keys {
		delete(l.failures, k)
	}
}

// check runs a password check, at most checkingAtOnce at a time; a check
// that cannot start before ctx ends is refused.
func (l *limiter) check(ctx context.Context, f func() bool) (bool, error) {
	select {
	case l.checking <- struct{}{}:
		defer func() { <-l.checking }()
		return f(), nil
	case <-ctx.Done():
		return false, ctx.Err()
	}
}
