package main

import (
	"bufio"
	"cmp"
	"context"
	"crypto/rand"
	"encoding/base64"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	flag "github.com/spf13/pflag"

	"github.com/gavelhq/gavel/auth"
	"github.com/gavelhq/gavel/eval"
	"github.com/gavelhq/gavel/store"
)

const usersHelp = `Usage: gavel users add [flags] NAME
       gavel users list
       gavel users disable NAME
       gavel users token [flags] NAME
       gavel users tokens NAME
       gavel users revoke NAME TOKEN-ID

Manages who may use the web app (gavel serve), in the results database.
Roles: viewer (reads), editor (also writes cases, starts runs, labels
judgments), admin (everything). add makes up a password and prints it
once, unless --password-stdin reads one; token prints a new API token for
scripts once (send it as "Authorization: Bearer TOKEN"), which acts as
its user, with --role no higher than theirs, until --expires; tokens
lists a user's tokens, revoke revokes one.

Examples:
  gavel users add --role admin ada
  echo "$PASSWORD" | gavel users add --role editor --password-stdin pat
  gavel users token --name ci ada
  gavel users token --name dashboard --role viewer --expires never ada
  gavel users tokens ada
  gavel users revoke ada 3

Flags:
`

func usersCommand(args []string, std stdio) int {
	if len(args) == 0 {
		fmt.Fprint(std.err, usersHelp)
		return eval.ExitUsage
	}
	verb := args[0]
	switch verb {
	case "add", "list", "disable", "token", "tokens", "revoke":
	case "-h", "-help", "--help", "help":
		fmt.Fprint(std.out, usersHelp)
		return eval.ExitPassed
	default:
		fmt.Fprintf(std.err, "gavel users: unknown action %q: want add, list, disable, token, tokens or revoke\n\n%s", verb, usersHelp)
		return eval.ExitUsage
	}
	fs := flag.NewFlagSet("users "+verb, flag.ContinueOnError)
	fs.SetOutput(std.err)
	fs.Usage = func() { fmt.Fprint(std.err, usersHelp); fs.PrintDefaults() }
	db := dbFlag(fs)
	role := fs.String("role", "viewer", "add: the user's role: viewer, editor or admin; token: the token's, no higher than its user's (default: the user's)")
	fromStdin := fs.Bool("password-stdin", false, "add: read the password from standard input instead of making one up")
	tokenName := fs.String("name", "api", "token: what the token is for")
	expires := fs.String("expires", "90d", "token: how long the token works, in days (30d) or as a Go duration (12h), or never")
	if code, ok := parse(fs, args[1:]); !ok {
		return code
	}
	want := map[string]int{"list": 0, "revoke": 2}[verb]
	if verb != "list" && verb != "revoke" {
		want = 1
	}
	if fs.NArg() != want {
		fs.Usage()
		return eval.ExitUsage
	}
	ctx := context.Background()
	st, err := eval.OpenStore(ctx, *db)
	if err != nil {
		fmt.Fprintln(std.err, "gavel users: the results database:", err)
		return eval.ExitInfra
	}
	defer st.Close()
	accounts, ok := st.(store.Accounts)
	if !ok {
		fmt.Fprintln(std.err, "gavel users: this database keeps no accounts")
		return eval.ExitInfra
	}
	u := usersCmd{accounts, std}
	switch verb {
	case "add":
		return u.add(ctx, fs.Arg(0), *role, *fromStdin)
	case "disable":
		return u.disable(ctx, fs.Arg(0))
	case "token":
		tokenRole := ""
		if fs.Changed("role") {
			tokenRole = *role
		}
		return u.token(ctx, fs.Arg(0), *tokenName, tokenRole, *expires)
	case "tokens":
		return u.tokens(ctx, fs.Arg(0))
	case "revoke":
		return u.revoke(ctx, fs.Arg(0), fs.Arg(1))
	}
	return u.list(ctx)
}

type usersCmd struct {
	accounts store.Accounts
	std      stdio
}

func (u usersCmd) add(ctx context.Context, name, roleName string, fromStdin bool) int {
	role, err := store.ParseRole(roleName)
	if err != nil {
		fmt.Fprintln(u.std.err, "gavel users add: --role:", err)
		return eval.ExitUsage
	}
	password := madeUpPassword()
	if fromStdin {
		line, err := bufio.NewReader(u.std.in).ReadString('\n')
		if err != nil && err != io.EOF {
			fmt.Fprintln(u.std.err, "gavel users add: reading the password:", err)
			return eval.ExitUsage
		}
		password = strings.TrimRight(line, "\r\n")
	}
	hash, err := auth.HashPassword(password)
	if err != nil {
		fmt.Fprintln(u.std.err, "gavel users add:", err)
		return eval.ExitUsage
	}
	user, err := u.accounts.CreateUser(ctx, name, role, hash)
	if err != nil {
		fmt.Fprintln(u.std.err, "gavel users add:", err)
		return eval.ExitUsage
	}
	fmt.Fprintf(u.std.out, "Added %s (%s).\n", user.Name, user.Role)
	if !fromStdin {
		fmt.Fprintf(u.std.out, "Password: %s\n(shown once: pass it on safely)\n", password)
	}
	return eval.ExitPassed
}

func (u usersCmd) disable(ctx context.Context, name string) int {
	user, _, err := u.accounts.UserByName(ctx, name)
	if err == nil {
		err = u.accounts.DisableUser(ctx, user.ID)
	}
	if err != nil {
		fmt.Fprintln(u.std.err, "gavel users disable:", err)
		return eval.ExitUsage
	}
	fmt.Fprintf(u.std.out, "Disabled %s: their sessions and tokens no longer work.\n", user.Name)
	return eval.ExitPassed
}

func (u usersCmd) token(ctx context.Context, name, tokenName, roleName, expires string) int {
	user, _, err := u.accounts.UserByName(ctx, name)
	if err != nil {
		fmt.Fprintln(u.std.err, "gavel users token:", err)
		return eval.ExitUsage
	}
	t := store.Token{UserID: user.ID, Name: tokenName}
	if roleName != "" {
		if t.Role, err = store.ParseRole(roleName); err != nil {
			fmt.Fprintln(u.std.err, "gavel users token: --role:", err)
			return eval.ExitUsage
		}
	}
	if expires != "never" {
		d, err := days(expires)
		if err != nil || d <= 0 {
			fmt.Fprintf(u.std.err, "gavel users token: --expires %q: want days (30d), a Go duration (12h) or never\n", expires)
			return eval.ExitUsage
		}
		t.Expires = time.Now().Add(d)
	}
	token, hash := auth.NewToken()
	t.Hash = hash
	if _, err := u.accounts.CreateToken(ctx, t); err != nil {
		fmt.Fprintln(u.std.err, "gavel users token:", err)
		return eval.ExitUsage
	}
	role, until := cmp.Or(t.Role, user.Role), "never expires"
	if !t.Expires.IsZero() {
		until = "works until " + t.Expires.Local().Format("2006-01-02 15:04")
	}
	fmt.Fprintf(u.std.out, "API token %q of %s (%s), which %s:\n%s\n(shown once: keep it in your CI's secrets)\n", tokenName, user.Name, role, until, token)
	return eval.ExitPassed
}

// days reads a duration in days (30d) or as Go writes one (12h).
func days(s string) (time.Duration, error) {
	if n, ok := strings.CutSuffix(s, "d"); ok {
		d, err := strconv.Atoi(n)
		return time.Duration(d) * 24 * time.Hour, err
	}
	return time.ParseDuration(s)
}

// tokens lists a user's tokens: id, name, role, created, last used,
// expiry.
func (u usersCmd) tokens(ctx context.Context, name string) int {
	user, _, err := u.accounts.UserByName(ctx, name)
	var list []store.Token
	if err == nil {
		list, err = u.accounts.Tokens(ctx, user.ID)
	}
	if err != nil {
		fmt.Fprintln(u.std.err, "gavel users tokens:", err)
		return eval.ExitUsage
	}
	now := time.Now()
	w := tabwriter.NewWriter(u.std.out, 0, 0, 2, ' ', 0)
	fmt.Fprintln(w, "ID\tNAME\tROLE\tCREATED\tLAST USED\tEXPIRES")
	for _, t := range list {
		used, expires := "never", "never"
		if !t.LastUsed.IsZero() {
			used = t.LastUsed.Local().Format("2006-01-02 15:04")
		}
		switch {
		case t.Expires.IsZero():
		case t.Expires.Before(now):
			expires = "expired " + t.Expires.Local().Format("2006-01-02")
		default:
			expires = fmt.Sprintf("in %d days", int(t.Expires.Sub(now).Hours()/24+0.5))
		}
		fmt.Fprintf(w, "%d\t%s\t%s\t%s\t%s\t%s\n", t.ID, t.Name, cmp.Or(t.Role, user.Role), t.Created.Local().Format("2006-01-02"), used, expires)
	}
	return exitOK(w.Flush())
}

// revoke revokes a token of a user, by its id (gavel users tokens).
func (u usersCmd) revoke(ctx context.Context, name, id string) int {
	user, _, err := u.accounts.UserByName(ctx, name)
	var list []store.Token
	if err == nil {
		list, err = u.accounts.Tokens(ctx, user.ID)
	}
	if err != nil {
		fmt.Fprintln(u.std.err, "gavel users revoke:", err)
		return eval.ExitUsage
	}
	n, _ := strconv.ParseInt(id, 10, 64)
	i := slices.IndexFunc(list, func(t store.Token) bool { return t.ID == n })
	if i < 0 {
		fmt.Fprintf(u.std.err, "gavel users revoke: %s has no token %s (gavel users tokens %s lists them)\n", user.Name, id, user.Name)
		return eval.ExitUsage
	}
	if err := u.accounts.DeleteToken(ctx, n); err != nil {
		fmt.Fprintln(u.std.err, "gavel users revoke:", err)
		return eval.ExitInfra
	}
	fmt.Fprintf(u.std.out, "Revoked token %d (%q) of %s: it no longer works.\n", n, list[i].Name, user.Name)
	return eval.ExitPassed
}

func (u usersCmd) list(ctx context.Context) int {
	users, err := u.accounts.Users(ctx)
	if err != nil {
		fmt.Fprintln(u.std.err, "gavel users list:", err)
		return eval.ExitInfra
	}
	w := tabwriter.NewWriter(u.std.out, 0, 0, 2, ' ', 0)
	fmt.Fprintln(w, "NAME\tROLE\tCREATED\tSTATUS")
	for _, user := range users {
		status := "active"
		if user.Disabled {
			status = "disabled"
		}
		fmt.Fprintf(w, "%s\t%s\t%s\t%s\n", user.Name, user.Role, user.Created.Local().Format("2006-01-02"), status)
	}
	return exitOK(w.Flush())
}

// madeUpPassword is a random password of 20 characters.
func madeUpPassword() string {
	b := make([]byte, 15)
	rand.Read(b)
	return base64.RawURLEncoding.EncodeToString(b)
}
