package auth

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

	"github.com/gavelhq/gavel/store"
)

// MakePassword returns a random password of 20 characters, for a user
// who is given one rather than choosing it.
func MakePassword() string {
	b := make([]byte, 15)
	rand.Read(b)
	return base64.RawURLEncoding.EncodeToString(b)
}

// ReadPassword reads a password, the first line of r.
func ReadPassword(r io.Reader) (string, error) {
	line, err := bufio.NewReader(r).ReadString('\n')
	if err != nil && err != io.EOF {
		return "", fmt.Errorf("reading the password: %w", err)
	}
	return strings.TrimRight(line, "\r\n"), nil
}

// AddUser adds a user with a role and a password, which it hashes.
func AddUser(ctx context.Context, a store.Accounts, name string, role store.Role, password string) (store.User, error) {
	hash, err := HashPassword(password)
	if err != nil {
		return store.User{}, err
	}
	return a.CreateUser(ctx, name, role, hash)
}

// DisableUser disables a user, found by name: their sessions and tokens
// no longer work.
func DisableUser(ctx context.Context, a store.Accounts, name string) (store.User, error) {
	user, _, err := a.UserByName(ctx, name)
	if err == nil {
		err = a.DisableUser(ctx, user.ID)
	}
	return user, err
}

// ParseExpiry reads how long a token works, from now: days (30d), a Go
// duration (12h), or never (the zero time).
func ParseExpiry(s string, now time.Time) (time.Time, error) {
	if s == "never" {
		return time.Time{}, nil
	}
	d, err := days(s)
	if err != nil || d <= 0 {
		return time.Time{}, fmt.Errorf("%q: want days (30d), a Go duration (12h) or never", s)
	}
	return now.Add(d), nil
}

// days reads a duration in days (30d) or as Go writes one (12h).
func days(s string) (time.Duration, error) {
	if n, ok := strings.CutSuffix(s, "d"); ok {
		d, err := strconv.Atoi(n)
		return time.Duration(d) * 24 * time.Hour, err
	}
	return time.ParseDuration(s)
}

// IssueToken makes an API token of a user, found by name, as t says
// (its Name, Role and Expires), and returns the token, which is shown
// once: the store keeps only its hash.
func IssueToken(ctx context.Context, a store.Accounts, name string, t store.Token) (token string, user store.User, err error) {
	if user, _, err = a.UserByName(ctx, name); err != nil {
		return "", user, err
	}
	t.UserID = user.ID
	token, t.Hash = NewToken()
	if _, err := a.CreateToken(ctx, t); err != nil {
		return "", user, err
	}
	return token, user, nil
}

// WriteIssued says which token was issued, to whom, with which role and
// until when, then the token itself.
func WriteIssued(w io.Writer, token string, user store.User, t store.Token) error {
	until := "never expires"
	if !t.Expires.IsZero() {
		until = "works until " + t.Expires.Local().Format("2006-01-02 15:04")
	}
	_, err := fmt.Fprintf(w, "API token %q of %s (%s), which %s:\n%s\n(shown once: keep it in your CI's secrets)\n",
		t.Name, user.Name, cmp.Or(t.Role, user.Role), until, token)
	return err
}

// UserTokens returns a user, found by name, and their tokens.
func UserTokens(ctx context.Context, a store.Accounts, name string) (store.User, []store.Token, error) {
	user, _, err := a.UserByName(ctx, name)
	var list []store.Token
	if err == nil {
		list, err = a.Tokens(ctx, user.ID)
	}
	return user, list, err
}

// UserToken returns a user, found by name, and their token of an id
// (as WriteTokens lists it).
func UserToken(ctx context.Context, a store.Accounts, name, id string) (store.User, store.Token, error) {
	user, list, err := UserTokens(ctx, a, name)
	if err != nil {
		return user, store.Token{}, err
	}
	n, _ := strconv.ParseInt(id, 10, 64)
	i := slices.IndexFunc(list, func(t store.Token) bool { return t.ID == n })
	if i < 0 {
		return user, store.Token{}, fmt.Errorf("%s has no token %s (gavel users tokens %s lists them)", user.Name, id, user.Name)
	}
	return user, list[i], nil
}

// WriteTokens writes a table of a user's tokens: id, name, role,
// created, last used and expiry, as of now.
func WriteTokens(w io.Writer, user store.User, list []store.Token, now time.Time) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "ID\tNAME\tROLE\tCREATED\tLAST USED\tEXPIRES")
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
		fmt.Fprintf(tw, "%d\t%s\t%s\t%s\t%s\t%s\n", t.ID, t.Name, cmp.Or(t.Role, user.Role), t.Created.Local().Format("2006-01-02"), used, expires)
	}
	return tw.Flush()
}

// WriteUsers writes a table of users: name, role, created and status.
func WriteUsers(w io.Writer, users []store.User) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "NAME\tROLE\tCREATED\tSTATUS")
	for _, user := range users {
		status := "active"
		if user.Disabled {
			status = "disabled"
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\n", user.Name, user.Role, user.Created.Local().Format("2006-01-02"), status)
	}
	return tw.Flush()
}
