package web

import (
	"context"
	"io"
	"net/http"
	"net/http/cookiejar"
	"net/http/httptest"
	"net/url"
	"regexp"
	"strings"
	"testing"

	"github.com/gavelhq/gavel/auth"
	"github.com/gavelhq/gavel/store"
)

// An app beyond loopback: a viewer logs in, reads, cannot post what needs
// an editor, and logs out.
func TestLogin(t *testing.T) {
	f := newFixture(t, Config{})
	accounts := f.store.(store.Accounts)
	hash, _ := auth.HashPassword("a long password")
	if _, err := accounts.CreateUser(context.Background(), "vera", store.Viewer, hash); err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(New(f.store, Config{Auth: auth.New(auth.Config{Accounts: accounts, Required: true})}))
	defer srv.Close()
	jar, _ := cookiejar.New(nil)
	client := &http.Client{Jar: jar}
	get := func(path string) (*http.Response, string) {
		resp, err := client.Get(srv.URL + path)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp, string(b)
	}
	post := func(path string, form url.Values) (*http.Response, string) {
		if path == "/login" { // the login form's token, as a browser has it
			_, page := get("/login")
			form.Set("csrf", regexp.MustCompile(`name="csrf" value="([^"]+)"`).FindStringSubmatch(page)[1])
		}
		resp, err := client.PostForm(srv.URL+path, form)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp, string(b)
	}

	resp, body := get("/runs/" + f.latest)
	if resp.Request.URL.Path != "/login" || !strings.Contains(body, `name="password"`) {
		t.Fatalf("a page before logging in: %s, want the login form", resp.Request.URL)
	}
	if resp, body := post("/login", url.Values{"name": {"vera"}, "password": {"wrong password!"}}); resp.StatusCode != http.StatusUnauthorized || !strings.Contains(body, "Wrong name or password.") {
		t.Errorf("a wrong password: %d", resp.StatusCode)
	}
	resp, body = post("/login", url.Values{"name": {"vera"}, "password": {"a long password"}, "next": {"/runs/" + f.latest}})
	if resp.Request.URL.Path != "/runs/"+f.latest || !strings.Contains(body, "vera (viewer)") {
		t.Fatalf("after logging in: %s\n%.500s", resp.Request.URL, body)
	}
	if resp, _ := get("/api/runs"); resp.StatusCode != http.StatusOK {
		t.Errorf("the API with a session: %d", resp.StatusCode)
	}
	csrf := regexp.MustCompile(`name="csrf" value="([^"]+)"`).FindStringSubmatch(body)
	if csrf == nil {
		t.Fatal("no CSRF token in the page")
	}
	if resp, _ := post("/logout", url.Values{}); resp.StatusCode != http.StatusForbidden {
		t.Errorf("logging out without the CSRF token: %d, want 403", resp.StatusCode)
	}
	if resp, _ := post("/logout", url.Values{"csrf": {csrf[1]}}); resp.Request.URL.Path != "/login" {
		t.Errorf("after logging out: %s", resp.Request.URL)
	}
	if resp, _ := get("/runs"); resp.Request.URL.Path != "/login" {
		t.Errorf("a page after logging out: %s, want the login form", resp.Request.URL)
	}
}

func TestSafeNext(t *testing.T) {
	for next, want := range map[string]string{
		"/runs/abc":            "/runs/abc",
		"":                     "/",
		"https://evil.example": "/",
		"//evil.example":       "/",
		`/\evil.example`:       "/",
	} {
		if got := safeNext(next); got != want {
			t.Errorf("safeNext(%q) = %q, want %q", next, got, want)
		}
	}
}
