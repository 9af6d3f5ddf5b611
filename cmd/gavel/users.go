package main

import (
	"context"
	"fmt"
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
	name, out := fs.Arg(0), std.out
	fail := func(code int, err error) int { fmt.Fprintf(std.err, "gavel users %s: %v\n", verb, err); return code }
	switch verb {
	case "add":
		r, err := store.ParseRole(*role)
		if err != nil {
			return fail(eval.ExitUsage, fmt.Errorf("--role: %w", err))
		}
		password := auth.MakePassword()
		if *fromStdin {
			if password, err = auth.ReadPassword(std.in); err != nil {
				return fail(eval.ExitUsage, err)
			}
		}
		user, err := auth.AddUser(ctx, accounts, name, r, password)
		if err != nil {
			return fail(eval.ExitUsage, err)
		}
		fmt.Fprintf(out, "Added %s (%s).\n", user.Name, user.Role)
		if !*fromStdin {
			fmt.Fprintf(out, "Password: %s\n(shown once: pass it on safely)\n", password)
		}
	case "disable":
		user, err := auth.DisableUser(ctx, accounts, name)
		if err != nil {
			return fail(eval.ExitUsage, err)
		}
		fmt.Fprintf(out, "Disabled %s: their sessions and tokens no longer work.\n", user.Name)
	case "token":
		t := store.Token{Name: *tokenName}
		user, _, err := accounts.UserByName(ctx, name)
		if err != nil {
			return fail(eval.ExitUsage, err)
		}
		if fs.Changed("role") {
			if t.Role, err = store.ParseRole(*role); err != nil {
				return fail(eval.ExitUsage, fmt.Errorf("--role: %w", err))
			}
		}
		if t.Expires, err = auth.ParseExpiry(*expires, time.Now()); err != nil {
			return fail(eval.ExitUsage, fmt.Errorf("--expires %w", err))
		}
		token, user, err := auth.IssueToken(ctx, accounts, user.Name, t)
		if err != nil {
			return fail(eval.ExitUsage, err)
		}
		return exitOK(auth.WriteIssued(out, token, user, t))
	case "tokens":
		user, list, err := auth.UserTokens(ctx, accounts, name)
		if err != nil {
			return fail(eval.ExitUsage, err)
		}
		return exitOK(auth.WriteTokens(out, user, list, time.Now()))
	case "revoke":
		user, t, err := auth.UserToken(ctx, accounts, name, fs.Arg(1))
		if err != nil {
			return fail(eval.ExitUsage, err)
		}
		if err := accounts.DeleteToken(ctx, t.ID); err != nil {
			return fail(eval.ExitInfra, err)
		}
		fmt.Fprintf(out, "Revoked token %d (%q) of %s: it no longer works.\n", t.ID, t.Name, user.Name)
	default:
		users, err := accounts.Users(ctx)
		if err != nil {
			return fail(eval.ExitInfra, err)
		}
		return exitOK(auth.WriteUsers(out, users))
	}
	return eval.ExitPassed
}
