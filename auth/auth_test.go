package auth_test

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"path/filepath"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gavelhq/gavel/auth"
	"github.com/gavelhq/gavel/store"
	"github.com/gavelhq/gavel/store/sqlite"
)

func TestPasswords(t *testing.T) {
	hash, err := auth.HashPassword("correct horse battery")
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		hash, password string
		want           bool
	}{
		{hash, "correct horse battery", true},
		{hash, "correct horse batterY", false},
		{"pbkdf2-sha256$1$bad$bad", "x", false},
		{"", "", false},
	} {
		if got := auth.CheckPassword(tc.hash, tc.password); got != tc.want {
			t.Errorf("CheckPassword(%.20q, %q) = %v, want %v", tc.hash, tc.password, got, tc.want)
		}
	}
	if _, err := auth.HashPassword("short"); err == nil {
		t.Error("a 5-character password was accepted")
	}
	if strings.Contains(hash, "horse") {
		t.Error("the hash holds the password")
	}
}

// accounts is a SQLite store with a viewer, an editor and a disabled
// user, whose password is "a long password".
func accounts(t *testing.T) store.Accounts {
	t.Helper()
	st, err := sqlite.Open(filepath.Join(t.TempDir(), "gavel.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	hash, _ := auth.HashPassword("a long password")
	for _, u := range []struct {
		name string
		role store.Role
	}{{"vera", store.Viewer}, {"ed", store.Editor}, {"gone", store.Editor}} {
		user, err := st.CreateUser(context.Background(), u.name, u.role, hash)
		if err != nil {
			t.Fatal(err)
		}
		if u.name == "gone" {
			st.DisableUser(context.Background(), user.ID)
		}
	}
	return st
}

func TestLogin(t *testing.T) {
	a := auth.New(auth.Config{Accounts: accounts(t), Required: true})
	if c, err := a.Login(context.Background(), "ED", "a long password", "192.0.2.1:1234"); err != nil || c.Value == "" || !c.HttpOnly {
		t.Errorf("login: %+v, %v", c, err)
	}
	for _, tc := range []struct{ name, password string }{
		{"ed", "wrong password!"}, {"nobody", "a long password"}, {"gone", "a long password"},
	} {
		if _, err := a.Login(context.Background(), tc.name, tc.password, "192.0.2.1:1234"); !errors.Is(err, auth.ErrBadLogin) {
			t.Errorf("login %s/%s: %v, want ErrBadLogin", tc.name, tc.password, err)
		}
	}
}

// app is a handler behind the middleware: it answers with the visitor's
// name; /edit needs an editor.
func app(a *auth.Authenticator) http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		v, _ := auth.VisitorFrom(r.Context())
		w.Write([]byte(v.User.Name))
	})
	mux.Handle("/edit", auth.Require(store.Editor, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Write([]byte("edited"))
	})))
	return a.Middleware(mux, "/login")
}

func TestMiddleware(t *testing.T) {
	acc := accounts(t)
	a := auth.New(auth.Config{Accounts: acc, Required: true})
	h := app(a)
	login := func(name string) (*http.Cookie, string) {
		c, err := a.Login(context.Background(), name, "a long password", "192.0.2.1:1234")
		if err != nil {
			t.Fatal(err)
		}
		s, _, _ := acc.SessionByToken(context.Background(), auth.HashToken(c.Value))
		return c, s.CSRF
	}
	vera, veraCSRF := login("vera")
	ed, edCSRF := login("ed")
	token, hash := auth.NewToken()
	user, _, _ := acc.UserByName(context.Background(), "ed")
	acc.CreateToken(context.Background(), store.Token{UserID: user.ID, Name: "ci", Hash: hash})
	// A read-only token of the same editor, for a dashboard.
	readOnly, readOnlyHash := auth.NewToken()
	if _, err := acc.CreateToken(context.Background(), store.Token{UserID: user.ID, Name: "dashboard", Hash: readOnlyHash, Role: store.Viewer}); err != nil {
		t.Fatal(err)
	}

	form := func(csrf string) string { return url.Values{"csrf": {csrf}}.Encode() }
	for _, tc := range []struct {
		name           string
		method, path   string
		cookie         *http.Cookie
		body, origin   string
		bearer         string
		status         int
		bodyOrLocation string
	}{
		{"a page, no one", "GET", "/runs", nil, "", "", "", http.StatusSeeOther, "/login?next=%2Fruns"},
		{"the API, no one", "GET", "/api/runs", nil, "", "", "", http.StatusUnauthorized, "Bearer"},
		{"the login page, no one", "GET", "/login", nil, "", "", "", http.StatusOK, ""},
		{"a page, logged in", "GET", "/runs", vera, "", "", "", http.StatusOK, "vera"},
		{"a viewer cannot edit", "POST", "/edit", vera, form(veraCSRF), "", "", http.StatusForbidden, "editor role"},
		{"an editor can", "POST", "/edit", ed, form(edCSRF), "", "", http.StatusOK, "edited"},
		{"no CSRF token", "POST", "/edit", ed, "", "", "", http.StatusForbidden, "stale"},
		{"another session's token", "POST", "/edit", ed, form(veraCSRF), "", "", http.StatusForbidden, "stale"},
		{"another site", "POST", "/edit", ed, form(edCSRF), "https://evil.example", "", http.StatusForbidden, "another site"},
		{"an API token", "POST", "/edit", nil, "", "", token, http.StatusOK, "edited"},
		{"a wrong API token", "GET", "/api/runs", nil, "", "", "nope", http.StatusUnauthorized, ""},
		{"a viewer token of an editor reads", "GET", "/runs", nil, "", "", readOnly, http.StatusOK, "ed"},
		{"a viewer token of an editor cannot edit", "POST", "/edit", nil, "", "", readOnly, http.StatusForbidden, "editor role"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := httptest.NewRequest(tc.method, tc.path, strings.NewReader(tc.body))
			if tc.body != "" {
				r.Header.Set("Content-Type", "application/x-www-form-urlencoded")
			}
			if tc.cookie != nil {
				r.AddCookie(tc.cookie)
			}
			if tc.origin != "" {
				r.Header.Set("Origin", tc.origin)
			}
			if tc.bearer != "" {
				r.Header.Set("Authorization", "Bearer "+tc.bearer)
			}
			w := httptest.NewRecorder()
			h.ServeHTTP(w, r)
			if w.Code != tc.status {
				t.Fatalf("status %d, want %d: %s", w.Code, tc.status, w.Body)
			}
			got := w.Body.String() + w.Header().Get("Location") + w.Header().Get("WWW-Authenticate")
			if !strings.Contains(got, tc.bodyOrLocation) {
				t.Errorf("got %q, want it to contain %q", got, tc.bodyOrLocation)
			}
		})
	}
}

// On loopback, no one is the local admin, still protected from other
// sites' forms by a CSRF cookie, and from other sites' names resolving to
// 127.0.0.1 (DNS rebinding) by the Host check.
func TestLocalUser(t *testing.T) {
	h := app(auth.New(auth.Config{Accounts: accounts(t)}))
	w := httptest.NewRecorder()
	first := httptest.NewRequest("GET", "/", nil)
	first.Host = "127.0.0.1:8080"
	h.ServeHTTP(w, first)
	if w.Body.String() != "local" {
		t.Fatalf("visitor %q, want local", w.Body)
	}
	var csrf *http.Cookie
	for _, c := range w.Result().Cookies() {
		if c.Name == "gavel_csrf" {
			csrf = c
		}
	}
	if csrf == nil || !csrf.HttpOnly {
		t.Fatalf("no HttpOnly CSRF cookie: %v", w.Result().Cookies())
	}
	form := "application/x-www-form-urlencoded"
	for _, tc := range []struct {
		name                   string
		method, host, origin   string
		contentType, csrfField string
		want                   int
	}{
		{"a form with its token", "POST", "127.0.0.1:8080", "", form, csrf.Value, http.StatusOK},
		{"a form without a token", "POST", "127.0.0.1:8080", "", form, "", http.StatusForbidden},
		{"localhost", "GET", "localhost:8080", "", "", "", http.StatusOK},
		{"IPv6 loopback", "GET", "[::1]:8080", "", "", "", http.StatusOK},
		{"another name resolving here", "GET", "evil.example:8080", "", "", "", http.StatusForbidden},
		{"a script's JSON, no token", "POST", "127.0.0.1:8080", "", "application/json", "", http.StatusOK},
		{"JSON from another site's page", "POST", "127.0.0.1:8080", "http://evil.example", "application/json", "", http.StatusForbidden},
		{"text/plain, no token", "POST", "127.0.0.1:8080", "", "text/plain", "", http.StatusForbidden},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := httptest.NewRequest(tc.method, "/edit", strings.NewReader(url.Values{"csrf": {tc.csrfField}}.Encode()))
			r.Host = tc.host
			if tc.contentType != "" {
				r.Header.Set("Content-Type", tc.contentType)
			}
			if tc.origin != "" {
				r.Header.Set("Origin", tc.origin)
			}
			r.AddCookie(csrf)
			w := httptest.NewRecorder()
			h.ServeHTTP(w, r)
			if w.Code != tc.want {
				t.Errorf("status %d, want %d: %s", w.Code, tc.want, w.Body)
			}
		})
	}
}

// countingAccounts counts the lookups of users: a login that looks no
// user up checks no password.
type countingAccounts struct {
	store.Accounts
	lookups atomic.Int64
}

func (c *countingAccounts) UserByName(ctx context.Context, name string) (store.User, string, error) {
	c.lookups.Add(1)
	return c.Accounts.UserByName(ctx, name)
}

// TestLoginThrottles holds back an account, and an address, that failed
// too often, with delays that grow; a held attempt checks no password; a
// success clears the count; other accounts from other addresses are not
// held back.
func TestLoginThrottles(t *testing.T) {
	acc := &countingAccounts{Accounts: accounts(t)}
	now := time.Date(2026, 11, 25, 12, 0, 0, 0, time.UTC)
	a := auth.New(auth.Config{Accounts: acc, Required: true, Now: func() time.Time { return now }})
	ctx := context.Background()
	attacker := "198.51.100.7:4000"
	for i := range 5 { // free failures
		if _, err := a.Login(ctx, "vera", "guess", attacker); !errors.Is(err, auth.ErrBadLogin) {
			t.Fatalf("failure %d: %v", i+1, err)
		}
	}
	var holds []time.Duration
	for range 4 {
		_, err := a.Login(ctx, "vera", "guess", attacker) // fails, and holds back
		if !errors.Is(err, auth.ErrBadLogin) {
			t.Fatalf("a failure after a hold ended: %v", err)
		}
		before := acc.lookups.Load()
		_, err = a.Login(ctx, "vera", "a long password", attacker)
		var held *auth.ThrottledError
		if !errors.As(err, &held) {
			t.Fatalf("during the hold: %v, want a ThrottledError", err)
		}
		if acc.lookups.Load() != before {
			t.Error("a held attempt looked the user up (and checked the password)")
		}
		holds = append(holds, held.RetryAfter)
		now = now.Add(held.RetryAfter)
	}
	if want := []time.Duration{time.Second, 2 * time.Second, 4 * time.Second, 8 * time.Second}; !slices.Equal(holds, want) {
		t.Errorf("holds %v, want %v", holds, want)
	}
	// Another account from another address logs in meanwhile, and so does
	// vera herself: one address failing under her name holds back that
	// address, not her account, so it cannot lock her out.
	if _, err := a.Login(ctx, "ed", "a long password", "192.0.2.1:1234"); err != nil {
		t.Errorf("ed, from elsewhere: %v", err)
	}
	if _, err := a.Login(ctx, "vera", "a long password", "192.0.2.1:1234"); err != nil {
		t.Errorf("vera, from elsewhere, while the address guessing at her account is held back: %v", err)
	}
	// Guessing from many addresses holds the account back: past its 20
	// free failures, from 21 addresses, vera's account is held.
	for i := range 21 {
		addr := fmt.Sprintf("203.0.113.%d:1", i+1)
		if _, err := a.Login(ctx, "vera", "guess", addr); !errors.Is(err, auth.ErrBadLogin) {
			t.Fatalf("guess %d from %s: %v", i+1, addr, err)
		}
	}
	var held *auth.ThrottledError
	if _, err := a.Login(ctx, "vera", "a long password", "203.0.113.99:1"); !errors.As(err, &held) {
		t.Errorf("vera from yet another address, after guesses from 21: %v, want held", err)
	}
	// Once the hold is over, the right password works and clears the count.
	now = now.Add(time.Hour)
	if _, err := a.Login(ctx, "vera", "a long password", attacker); err != nil {
		t.Errorf("an hour later: %v", err)
	}
	if _, err := a.Login(ctx, "vera", "guess", attacker); !errors.Is(err, auth.ErrBadLogin) {
		t.Errorf("after a success, a failure is free again: %v", err)
	}
}

// TestCookiesLastWhateverTheBrowsersClock: every cookie the Authenticator
// sets says how long it lives (Max-Age) as well as until when (Expires),
// so a browser whose clock disagrees with the server's keeps it as long
// as the server means it to. A cookie jar on the machine's clock is such
// a browser for a server on a clock stopped years ago.
func TestCookiesLastWhateverTheBrowsersClock(t *testing.T) {
	stopped := time.Date(2020, 1, 2, 3, 4, 5, 0, time.UTC)
	a := auth.New(auth.Config{Accounts: accounts(t), Required: true, Now: func() time.Time { return stopped }})
	session, err := a.Login(context.Background(), "ed", "a long password", "192.0.2.1:1234")
	if err != nil {
		t.Fatal(err)
	}
	w := httptest.NewRecorder()
	a.LoginForm(w, httptest.NewRequest("GET", "/login", nil))
	local := auth.New(auth.Config{Accounts: accounts(t), Now: func() time.Time { return stopped }})
	lw := httptest.NewRecorder()
	local.Middleware(http.NotFoundHandler(), "/login").ServeHTTP(lw, httptest.NewRequest("GET", "/", nil))
	cookies := append([]*http.Cookie{session}, w.Result().Cookies()...)
	cookies = append(cookies, lw.Result().Cookies()...)
	if len(cookies) != 3 {
		t.Fatalf("got %d cookies, want the session's, the login form's and the local user's CSRF", len(cookies))
	}
	for _, c := range cookies {
		if want := int(c.Expires.Sub(stopped).Seconds()); c.MaxAge != want {
			t.Errorf("cookie %s: Max-Age %d, want %d (Expires %v)", c.Name, c.MaxAge, want, c.Expires)
		}
	}
	gone, err := a.Logout(httptest.NewRequest("GET", "/logout", nil))
	if err != nil {
		t.Fatal(err)
	}
	if gone.MaxAge >= 0 {
		t.Errorf("the logout cookie: Max-Age %d, want it deleted now (negative)", gone.MaxAge)
	}
}

// A request that came through a proxy is not local, whatever its Host: a
// reverse proxy on the same machine sends Host 127.0.0.1 and says whom it
// forwards for, and Gavel served it as the local admin.
func TestLocalUserNotThroughAProxy(t *testing.T) {
	h := app(auth.New(auth.Config{Accounts: accounts(t)}))
	for _, header := range []string{"X-Forwarded-For", "X-Real-Ip", "Forwarded", "X-Forwarded-Host", "Via"} {
		r := httptest.NewRequest("GET", "/", nil)
		r.Host = "127.0.0.1:8080"
		r.Header.Set(header, "203.0.113.9")
		w := httptest.NewRecorder()
		h.ServeHTTP(w, r)
		if w.Code != http.StatusForbidden || !strings.Contains(w.Body.String(), "came through a proxy") {
			t.Errorf("%s: status %d, want 403 saying why: %s", header, w.Code, w.Body)
		}
	}
}
