package web

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/cookiejar"
	"net/http/httptest"
	"net/url"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gavelhq/gavel/auth"
	"github.com/gavelhq/gavel/store"
	"github.com/gavelhq/gavel/store/sqlstore"
)

// The attacks tried on a Gavel served beyond loopback, where everyone
// logs in, and the answer each must get. Each one was seen to work before
// it was fixed (issue 16).

// attackServer serves the fixture with login required, with one viewer
// (vera) and one editor (eddie), on a clock the test moves. The clients'
// cookie jars keep the machine's clock, as browsers do.
type attackServer struct {
	*httptest.Server
	clock *fakeClock
}

type fakeClock struct {
	mu  sync.Mutex
	now time.Time
}

func (c *fakeClock) Now() time.Time      { c.mu.Lock(); defer c.mu.Unlock(); return c.now }
func (c *fakeClock) Add(d time.Duration) { c.mu.Lock(); defer c.mu.Unlock(); c.now = c.now.Add(d) }
func newFakeClock() *fakeClock {
	return &fakeClock{now: time.Date(2026, 11, 25, 12, 0, 0, 0, time.UTC)}
}
func (s *attackServer) client() *http.Client {
	jar, _ := cookiejar.New(nil)
	return &http.Client{Jar: jar, CheckRedirect: noRedirects}
}

func noRedirects(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }

func newAttackServer(t *testing.T) *attackServer {
	t.Helper()
	f := newFixture(t, Config{})
	accounts := f.store.(store.Accounts)
	for name, role := range map[string]store.Role{"vera": store.Viewer, "eddie": store.Editor} {
		hash, _ := auth.HashPassword("a long password")
		if _, err := accounts.CreateUser(context.Background(), name, role, hash); err != nil {
			t.Fatal(err)
		}
	}
	clock := newFakeClock()
	f.store.(*sqlstore.DB).SetClock(clock.Now) // sessions expire by the server's clock
	srv := httptest.NewServer(New(f.store, Config{Auth: auth.New(auth.Config{Accounts: accounts, Required: true, Now: clock.Now})}))
	t.Cleanup(srv.Close)
	return &attackServer{Server: srv, clock: clock}
}

// loginForm gets the login page, as a browser does before posting it,
// and returns its hidden fields.
func (s *attackServer) loginForm(t *testing.T, c *http.Client) url.Values {
	t.Helper()
	resp, err := c.Get(s.URL + "/login")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	form := url.Values{}
	for _, m := range regexp.MustCompile(`<input type="hidden" name="(\w+)" value="([^"]*)">`).FindAllStringSubmatch(string(body), -1) {
		form.Set(m[1], m[2])
	}
	return form
}

// login posts the login form with the given fields over the page's
// hidden ones (and headers), and returns the answer.
func (s *attackServer) login(t *testing.T, c *http.Client, fields url.Values, header http.Header) *http.Response {
	t.Helper()
	form := s.loginForm(t, c)
	for k, v := range fields {
		form[k] = v
	}
	req, _ := http.NewRequest("POST", s.URL+"/login", strings.NewReader(form.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	for k, v := range header {
		req.Header[k] = v
	}
	resp, err := c.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	return resp
}

func loggedIn(resp *http.Response) bool {
	for _, c := range resp.Cookies() {
		if c.Name == "gavel_session" && c.Value != "" {
			return true
		}
	}
	return false
}

// Open redirects: after logging in, next may only lead to a path of this
// app. Browsers drop tabs and newlines from URLs and read a backslash as a
// slash, so each of these would leave the site.
func TestAttackOpenRedirect(t *testing.T) {
	s := newAttackServer(t)
	for _, next := range []string{
		"/\t/evil.example/phish",
		"/\r/evil.example",
		"/\n/evil.example",
		"/\t\t/evil.example",
		`/\evil.example`,
		`/\/evil.example`,
		"//evil.example",
		"https://evil.example/",
		"javascript:alert(1)",
		"/%5Cevil.example",
		"/%2F/evil.example",
		"/%09/evil.example",
		"/%0d%0a/evil.example",
		"runs", // not a path
	} {
		resp := s.login(t, s.client(), url.Values{"name": {"vera"}, "password": {"a long password"}, "next": {next}}, nil)
		if resp.StatusCode != http.StatusSeeOther || resp.Header.Get("Location") != "/" {
			t.Errorf("next %q: %d to %q, want 303 to the home page", next, resp.StatusCode, resp.Header.Get("Location"))
		}
	}
	resp := s.login(t, s.client(), url.Values{"name": {"vera"}, "password": {"a long password"}, "next": {"/runs/abc?tab=cases"}}, nil)
	if got := resp.Header.Get("Location"); got != "/runs/abc?tab=cases" {
		t.Errorf("a path of the app: to %q", got)
	}
}

// Login CSRF: a page of another site posts the login form with the
// attacker's name and password, so that the victim works logged in as
// the attacker. The form carries a token of its own, and a request from
// another origin is refused.
func TestAttackLoginCSRF(t *testing.T) {
	s := newAttackServer(t)
	for _, tc := range []struct {
		name   string
		header http.Header
		fields url.Values
	}{
		{"from another origin", http.Header{"Origin": {"http://evil.example"}}, nil},
		{"from another site, says the browser", http.Header{"Sec-Fetch-Site": {"cross-site"}}, nil},
		{"without the form's token", nil, url.Values{"csrf": {""}}},
		{"with a token of another visitor", nil, url.Values{"csrf": {"c2VjcmV0LXRva2VuLW9mLWFub3RoZXItdmlzaXRvcg"}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			fields := url.Values{"name": {"vera"}, "password": {"a long password"}}
			for k, v := range tc.fields {
				fields[k] = v
			}
			resp := s.login(t, s.client(), fields, tc.header)
			if resp.StatusCode != http.StatusForbidden || loggedIn(resp) {
				t.Errorf("%d, logged in %v; want 403 and no session", resp.StatusCode, loggedIn(resp))
			}
		})
	}
	// The same form, from the app's own page, logs in.
	if resp := s.login(t, s.client(), url.Values{"name": {"vera"}, "password": {"a long password"}}, http.Header{"Origin": {s.URL}}); !loggedIn(resp) {
		t.Errorf("a login from the app's own page: %d, no session", resp.StatusCode)
	}
}

// Guessing passwords: failed logins are limited per account and per
// address, with growing delays; a refused attempt is answered at once,
// without checking the password (which costs the server its CPU), and
// the right password does not help during the delay.
func TestAttackPasswordGuessing(t *testing.T) {
	s := newAttackServer(t)
	c := s.client()
	wrong := url.Values{"name": {"vera"}, "password": {"not the password"}}
	var refused *http.Response
	for i := range 60 {
		resp := s.login(t, c, wrong, nil)
		if resp.StatusCode == http.StatusTooManyRequests {
			refused = resp
			if i > 10 {
				t.Errorf("the first refusal came after %d wrong passwords", i)
			}
			break
		}
	}
	if refused == nil {
		t.Fatal("60 wrong passwords, and no 429")
	}
	if refused.Header.Get("Retry-After") == "" {
		t.Error("a 429 without Retry-After")
	}
	if resp := s.login(t, c, url.Values{"name": {"vera"}, "password": {"a long password"}}, nil); resp.StatusCode != http.StatusTooManyRequests || loggedIn(resp) {
		t.Errorf("the right password during the delay: %d, logged in %v; want 429", resp.StatusCode, loggedIn(resp))
	}
	// From the same address, other names are limited too.
	if resp := s.login(t, c, url.Values{"name": {"eddie"}, "password": {"guess"}}, nil); resp.StatusCode != http.StatusTooManyRequests {
		t.Errorf("another name from the guessing address: %d, want 429", resp.StatusCode)
	}
	// Once the delay is over, the right password works.
	s.clock.Add(time.Hour)
	if resp := s.login(t, c, url.Values{"name": {"vera"}, "password": {"a long password"}}, nil); !loggedIn(resp) {
		t.Errorf("the right password an hour later: %d", resp.StatusCode)
	}
}

// The API answers its refusals in JSON, as docs say, 403s included.
func TestAttackAPIRefusalsAreJSON(t *testing.T) {
	s := newAttackServer(t)
	c := s.client()
	if resp := s.login(t, c, url.Values{"name": {"vera"}, "password": {"a long password"}}, nil); !loggedIn(resp) {
		t.Fatalf("login: %d", resp.StatusCode)
	}
	for _, tc := range []struct {
		name string
		req  func() *http.Request
	}{
		{"a viewer writes a case", func() *http.Request {
			r, _ := http.NewRequest("POST", s.URL+"/api/cases", strings.NewReader(`{"suite": "x", "case": {"id": "a", "input": "hi"}}`))
			r.Header.Set("Content-Type", "application/json")
			r.Header.Set("X-CSRF-Token", "wrong")
			return r
		}},
		{"a form from another origin", func() *http.Request {
			r, _ := http.NewRequest("POST", s.URL+"/api/runs", strings.NewReader(`{}`))
			r.Header.Set("Content-Type", "application/json")
			r.Header.Set("Origin", "http://evil.example")
			return r
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			resp, err := c.Do(tc.req())
			if err != nil {
				t.Fatal(err)
			}
			defer resp.Body.Close()
			var body struct{ Error string }
			err = json.NewDecoder(resp.Body).Decode(&body)
			if resp.StatusCode != http.StatusForbidden || !strings.HasPrefix(resp.Header.Get("Content-Type"), "application/json") || err != nil || body.Error == "" {
				t.Errorf("%d %s (%v): want 403 with a JSON error", resp.StatusCode, resp.Header.Get("Content-Type"), err)
			}
		})
	}
}
