package store

import (
	"context"
	"errors"
	"fmt"
	"time"
)

// Accounts is a Store that also keeps the web app's accounts: users
// with their roles, their login sessions and their API tokens. It is
// found on a Store by type assertion, like Migrator:
//
//	accounts, ok := st.(store.Accounts)
//
// store/sqlstore implements it, so the SQLite and PostgreSQL stores
// both do.
//
// An Accounts keeps no secret in clear: the caller (the web app) hashes
// passwords (with a slow, salted hash) and the tokens of sessions and API
// tokens (with a fast one, SHA-256: they are long and random) before
// handing them over, and looks sessions and tokens up by their hash.
// Hashing and making tokens are the caller's job, as is comparing a
// password with its hash.
//
// Users are never deleted, only disabled, so that what they did keeps a
// name: a disabled user's sessions and tokens no longer work. Methods
// given an unknown user, session or token return an error wrapping
// ErrNotFound; a name or a hash already taken, one wrapping ErrExists.
type Accounts interface {
	// CreateUser adds a user with a role and a password hash (not
	// empty), and returns the user with their ID and creation time set.
	// Names are unique regardless of case ("Ada" and "ada" are one
	// user): a name taken is an error wrapping ErrExists. A name is 1 to
	// 64 characters, printable, without spaces at either end.
	CreateUser(ctx context.Context, name string, role Role, passwordHash string) (User, error)
	// UserByName returns a user, found by name regardless of case, and
	// their password hash, to check a password against. A disabled user
	// is returned too, with Disabled set: refuse them.
	UserByName(ctx context.Context, name string) (user User, passwordHash string, err error)
	// Users returns every user, disabled ones too, by name regardless of
	// case.
	Users(ctx context.Context) ([]User, error)
	// SetPassword replaces a user's password hash (not empty), and ends
	// the user's sessions: whoever knew the old password is logged out.
	SetPassword(ctx context.Context, userID int64, passwordHash string) error
	// SetRole changes a user's role; their sessions and tokens carry the
	// new one at once.
	SetRole(ctx context.Context, userID int64, role Role) error
	// DisableUser disables a user for good and ends their sessions;
	// their tokens no longer work. Disabling a disabled user is no error.
	DisableUser(ctx context.Context, userID int64) error

	// CreateSession records a login session of a user (a disabled user's
	// is refused; an unknown user is ErrNotFound). Its TokenHash (taken:
	// ErrExists), CSRF and Expires are required; Created defaults to now.
	CreateSession(ctx context.Context, s Session) error
	// SessionByToken returns a session, by its token's hash, and its user.
	// A session that expired, or whose user is disabled, is ErrNotFound.
	SessionByToken(ctx context.Context, tokenHash string) (Session, User, error)
	// DeleteSession ends a session (logging out). A session that is not
	// there is no error.
	DeleteSession(ctx context.Context, tokenHash string) error
	// DeleteExpiredSessions deletes the sessions that expired at or
	// before now, and returns how many it deleted.
	DeleteExpiredSessions(ctx context.Context, now time.Time) (int, error)

	// CreateToken records an API token of a user (a disabled user's is
	// refused; an unknown user is ErrNotFound) and returns it with its ID
	// set (and Created set to now when zero). Its Hash (taken: ErrExists)
	// is required; LastUsed is ignored.
	CreateToken(ctx context.Context, t Token) (Token, error)
	// TokenByHash returns a token, by its hash, and its user, and records
	// that it was used: LastUsed is now, to within a minute (it is
	// written at most once a minute, so that scripts calling the API do
	// not each write to the database). A token of a disabled user is
	// ErrNotFound.
	TokenByHash(ctx context.Context, hash string) (Token, User, error)
	// Tokens returns a user's tokens, oldest first, without their hashes.
	Tokens(ctx context.Context, userID int64) ([]Token, error)
	// DeleteToken revokes a token. It is any user's token: the caller
	// checks that it is the current user's (Tokens), unless an admin
	// revokes it.
	DeleteToken(ctx context.Context, id int64) error
}

// ErrExists is returned, wrapped, for a user name or a hash that is
// already taken.
var ErrExists = errors.New("already exists")

// Role is what a user may do in the web app. Each role may do what the
// ones before it may, and more; the web app says what each allows.
type Role string

// The roles, from the least to the most allowed.
const (
	Viewer Role = "viewer"
	Editor Role = "editor"
	Admin  Role = "admin"
)

// rank orders the roles; 0 is no role.
func (r Role) rank() int {
	switch r {
	case Viewer:
		return 1
	case Editor:
		return 2
	case Admin:
		return 3
	}
	return 0
}

// AtLeast reports whether r may do what min may: Admin.AtLeast(Editor)
// is true, Viewer.AtLeast(Editor) false. An unknown role, r or min, is
// allowed nothing.
func (r Role) AtLeast(min Role) bool {
	return r.rank() > 0 && min.rank() > 0 && r.rank() >= min.rank()
}

// ParseRole returns the role named s: viewer, editor or admin.
func ParseRole(s string) (Role, error) {
	if r := Role(s); r.rank() > 0 {
		return r, nil
	}
	return "", fmt.Errorf("unknown role %q: want viewer, editor or admin", s)
}

// A User is someone who logs in to the web app. Their password hash is
// not part of it (see Accounts.UserByName), so a User may be shown.
type User struct {
	// ID is set by CreateUser.
	ID   int64
	Name string
	Role Role
	// Created is set by CreateUser.
	Created time.Time
	// Disabled users cannot log in; their sessions and tokens do not
	// work.
	Disabled bool
}

// A Session is a user's login, kept while its cookie lives.
type Session struct {
	// TokenHash is the hash of the session's token, which the cookie
	// holds: the store never sees the token itself.
	TokenHash string
	UserID    int64
	// CSRF is the session's anti-forgery token, which state-changing
	// requests must carry. Pages hold it, so it is kept as it is.
	CSRF    string
	Created time.Time
	// Expires is when the session ends; it must be after Created.
	Expires time.Time
}

// A Token is an API token, for scripts: it acts as its user.
type Token struct {
	// ID is set by CreateToken.
	ID     int64
	UserID int64
	// Name says what the token is for ("ci"), for its user.
	Name string
	// Hash is the hash of the token, which only its user sees, once:
	// the store never sees the token itself.
	Hash    string
	Created time.Time
	// LastUsed is when the token was last used, to within a minute;
	// zero if never.
	LastUsed time.Time
	// Role, when set, is what the token may do, below its user's role (a
	// viewer token of an editor, for a dashboard); CreateToken refuses a
	// role above it. Empty: the user's. Whichever is lower applies, should
	// the user's role be lowered later.
	Role Role
	// Expires, when set, is when the token stops working: TokenByHash
	// finds no expired token. Zero: never.
	Expires time.Time
}
