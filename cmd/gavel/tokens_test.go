package main

import (
	"bytes"
	"context"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/gavelhq/gavel/auth"
	"github.com/gavelhq/gavel/eval"
	"github.com/gavelhq/gavel/store"
	"github.com/gavelhq/gavel/web"
)

// API tokens have names, a role no higher than their user's (a read-only
// token for a dashboard), an expiry (90 days unless told), and can be
// listed and revoked one at a time: revoking one meant disabling the
// user for good.
func TestTokens(t *testing.T) {
	db := filepath.Join(t.TempDir(), "gavel.db")
	users := func(args ...string) (int, string, string) {
		var out, errs bytes.Buffer
		code := run(append([]string{"users"}, args...), stdio{strings.NewReader(""), &out, &errs})
		return code, out.String(), errs.String()
	}
	if code, out, errs := users("add", "--db", db, "--role", "editor", "ed"); code != eval.ExitPassed {
		t.Fatalf("add: exit %d\n%s%s", code, out, errs)
	}
	tokenOf := func(args ...string) string {
		t.Helper()
		code, out, errs := users(append([]string{"token", "--db", db}, args...)...)
		m := regexp.MustCompile(`(?m)^(gavel_\S+|\S{30,})$`).FindString(out)
		if code != eval.ExitPassed || m == "" {
			t.Fatalf("token %v: exit %d\n%s%s", args, code, out, errs)
		}
		return m
	}
	ci := tokenOf("--name", "ci", "ed")
	dashboard := tokenOf("--name", "dashboard", "--role", "viewer", "--expires", "30d", "ed")
	if code, _, errs := users("token", "--db", db, "--name", "root", "--role", "admin", "ed"); code != eval.ExitUsage || !strings.Contains(errs, "cannot be above its user's, editor") {
		t.Errorf("an admin token of an editor: exit %d, %q", code, errs)
	}
	if code, _, errs := users("token", "--db", db, "--expires", "soon", "ed"); code != eval.ExitUsage || !strings.Contains(errs, `--expires "soon"`) {
		t.Errorf("--expires soon: exit %d, %q", code, errs)
	}

	code, out, _ := users("tokens", "--db", db, "ed")
	if code != eval.ExitPassed || !regexp.MustCompile(`(?m)^1 +ci +editor +\S+ +never +in 90 days`).MatchString(out) ||
		!regexp.MustCompile(`(?m)^2 +dashboard +viewer +\S+ +never +in 30 days`).MatchString(out) {
		t.Errorf("tokens: exit %d\n%s", code, out)
	}

	// The tokens at work, on the web app's API.
	st, err := eval.OpenStore(context.Background(), db)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	srv := httptest.NewServer(web.New(st, web.Config{Auth: auth.New(auth.Config{Accounts: st.(store.Accounts), Required: true})}))
	defer srv.Close()
	status := func(method, path, token string) int {
		req, _ := http.NewRequest(method, srv.URL+path, strings.NewReader(`{"suite": "x", "case": {"id": "a", "input": "hi"}}`))
		req.Header.Set("Authorization", "Bearer "+token)
		req.Header.Set("Content-Type", "application/json")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		return resp.StatusCode
	}
	if got := status("GET", "/api/runs", dashboard); got != http.StatusOK {
		t.Errorf("the dashboard token reads: %d", got)
	}
	if got := status("POST", "/api/cases", dashboard); got != http.StatusForbidden {
		t.Errorf("the dashboard token writes a case: %d, want 403", got)
	}
	if code, out, errs := users("revoke", "--db", db, "ed", "1"); code != eval.ExitPassed || !strings.Contains(out, `Revoked token 1 ("ci") of ed`) {
		t.Errorf("revoke: exit %d\n%s%s", code, out, errs)
	}
	if got := status("GET", "/api/runs", ci); got != http.StatusUnauthorized {
		t.Errorf("a revoked token: %d, want 401", got)
	}
	if got := status("GET", "/api/runs", dashboard); got != http.StatusOK {
		t.Errorf("the other token, after one was revoked: %d", got)
	}
	if code, _, errs := users("revoke", "--db", db, "ed", "7"); code != eval.ExitUsage || !strings.Contains(errs, "ed has no token 7") {
		t.Errorf("revoke of no such token: exit %d, %q", code, errs)
	}
}
