package main

import (
	"bufio"
	"context"
	"crypto/rand"
	"encoding/base64"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	flag "github.com/spf13/pflag"

	"github.com/gavelhq/gavel/auth"
	"github.com/gavelhq/gavel/eval"
	"github.com/gavelhq/gavel/store"
)

const usersHelp = `Usage: gavel users add [flags] NAME
       gavel users list
       gavel users disable NAME
       gavel users token [flags] NAME

Manages who may use the web app (gavel serve), in the results database.
Roles: viewer (reads), editor (also writes cases, starts runs, labels
judgments), admin (everything). add makes up a password and prints it
once, unless --password-stdin reads one; token prints a new API token for
scripts once (send it as "Authorization: Bearer TOKEN").

Examples:
  gavel users add --role admin ada
  echo "$PASSWORD" | gavel users add --role editor --password-stdin pat
  gavel users token --name ci ada

Flags:
`

func usersCommand(args []string, std stdio) int {
	if len(args) == 0 {
		fmt.Fprint(std.err, usersHelp)
		return eval.ExitUsage
	}
	verb := args[0]
	switch verb {
	case "add", "list", "disable", "token":
	case "-h", "-help", "--help", "help":
		fmt.Fprint(std.out, usersHelp)
		return eval.ExitPassed
	default:
		fmt.Fprintf(std.err, "gavel users: unknown action %q: want add, list, disable or token\n\n%s", verb, usersHelp)
		return eval.ExitUsage
	}
	fs := flag.NewFlagSet("users "+verb, flag.ContinueOnError)
	fs.SetOutput(std.err)
	fs.Usage = func() { fmt.Fprint(std.err, usersHelp); fs.PrintDefaults() }
	db := dbFlag(fs)
	role := fs.String("role", "viewer", "add: the user's role: viewer, editor or admin")
	fromStdin := fs.Bool("password-stdin", false, "add: read the password from standard input instead of making one up")
	tokenName := fs.String("name", "api", "token: what the token is for")
	if code, ok := parse(fs, args[1:]); !ok {
		return code
	}
	if (verb == "list") != (fs.NArg() == 0) || fs.NArg() > 1 {
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
		return u.token(ctx, fs.Arg(0), *tokenName)
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

func (u usersCmd) token(ctx context.Context, name, tokenName string) int {
	user, _, err := u.accounts.UserByName(ctx, name)
	if err != nil {
		fmt.Fprintln(u.std.err, "gavel users token:", err)
		return eval.ExitUsage
	}
	token, hash := auth.NewToken()
	if _, err := u.accounts.CreateToken(ctx, store.Token{UserID: user.ID, Name: tokenName, Hash: hash}); err != nil {
		fmt.Fprintln(u.std.err, "gavel users token:", err)
		return eval.ExitUsage
	}
	fmt.Fprintf(u.std.out, "API token %q of %s (%s):\n%s\n(shown once: keep it in your CI's secrets)\n", tokenName, user.Name, user.Role, token)
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
