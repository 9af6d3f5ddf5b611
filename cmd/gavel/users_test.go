package main

import (
	"bytes"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gavelhq/gavel/eval"
)

func TestUsers(t *testing.T) {
	db := filepath.Join(t.TempDir(), "gavel.db")
	users := func(stdin string, args ...string) (int, string, string) {
		var out, errs bytes.Buffer
		code := run(append([]string{"users"}, args...), stdio{strings.NewReader(stdin), &out, &errs})
		return code, out.String(), errs.String()
	}
	if code, out, errs := users("", "add", "--db", db, "--role", "admin", "ada"); code != eval.ExitPassed || !strings.Contains(out, "Password: ") {
		t.Fatalf("add: exit %d\n%s%s", code, out, errs)
	}
	if code, out, _ := users("a long password\n", "add", "--db", db, "--password-stdin", "vera"); code != eval.ExitPassed || strings.Contains(out, "Password") {
		t.Errorf("add --password-stdin: exit %d, %q (the password must not be printed)", code, out)
	}
	for _, tc := range []struct {
		stdin string
		args  []string
		want  string
	}{
		{"", []string{"add", "--db", db, "ADA"}, "already exists"},
		{"short\n", []string{"add", "--db", db, "--password-stdin", "sam"}, "too short"},
		{"", []string{"add", "--db", db, "--role", "boss", "sam"}, `unknown role "boss"`},
		{"", []string{"disable", "--db", db, "nobody"}, "not found"},
	} {
		if code, _, errs := users(tc.stdin, tc.args...); code != eval.ExitUsage || !strings.Contains(errs, tc.want) {
			t.Errorf("users %v: exit %d, %q; want 2 and %q", tc.args, code, errs, tc.want)
		}
	}
	if code, out, _ := users("", "token", "--db", db, "--name", "ci", "ada"); code != eval.ExitPassed || !strings.Contains(out, `API token "ci" of ada (admin)`) {
		t.Errorf("token: exit %d, %q", code, out)
	}
	users("", "disable", "--db", db, "vera")
	if code, out, _ := users("", "list", "--db", db); code != eval.ExitPassed || !strings.Contains(out, "vera  viewer") || !strings.Contains(out, "disabled") {
		t.Errorf("list: exit %d\n%s", code, out)
	}
}

func TestServeBeyondLoopbackNeedsUsers(t *testing.T) {
	db := filepath.Join(t.TempDir(), "gavel.db")
	code, _, errs := gavelCmd(t, "serve", "--db", db, "--addr", "0.0.0.0:0")
	if code != eval.ExitUsage || !strings.Contains(errs, "gavel users add --role admin") {
		t.Errorf("exit %d, %q; want 2 and how to add an admin", code, errs)
	}
}
