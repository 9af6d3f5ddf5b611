package sqlstore

import (
	"cmp"
	"context"
	"database/sql"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/gavelhq/gavel/store"
)

var _ store.Accounts = (*DB)(nil)

const (
	// maxUserName is the longest a user's name may be, in characters.
	maxUserName = 64
	// lastUsedEvery is how often, at most, TokenByHash writes a token's
	// last use: once a minute keeps scripts polling the API from queueing
	// writes behind runs (SQLite takes one writer at a time).
	lastUsedEvery = time.Minute
)

// userColumns are the columns scanUser reads, of users aliased u.
const userColumns = "u.id, u.name, u.role, u.disabled, u.created_us"

// CreateUser adds a user and returns it with its ID and creation time.
// A name taken, regardless of case, is an error wrapping
// store.ErrExists.
func (db *DB) CreateUser(ctx context.Context, name string, role store.Role, passwordHash string) (store.User, error) {
	err := validUserName(name)
	if err == nil {
		err = validRole(role)
	}
	if err == nil {
		err = validPasswordHash(passwordHash)
	}
	if err != nil {
		return store.User{}, fmt.Errorf("store: create user %q: %w", name, err)
	}
	u := store.User{Name: name, Role: role, Created: normalTime(db.now())}
	err = db.write(ctx, func(tx *sql.Tx) error {
		err := tx.QueryRowContext(ctx, db.q(`INSERT INTO users (name, name_key, role, password_hash, created_us)
			VALUES (?, ?, ?, ?, ?)
			ON CONFLICT (name_key) DO NOTHING
			RETURNING id`), name, nameKey(name), string(role), passwordHash, micros(u.Created)).Scan(&u.ID)
		if errors.Is(err, sql.ErrNoRows) {
			return fmt.Errorf("a user of that name %w (names are unique regardless of case)", store.ErrExists)
		}
		return err
	})
	if err != nil {
		return store.User{}, fmt.Errorf("store: create user %q: %w", name, err)
	}
	return u, nil
}

// nameKey is what makes a user's name unique: the name in lower case.
func nameKey(name string) string { return strings.ToLower(name) }

func validUserName(name string) error {
	switch {
	case name == "":
		return errors.New("a user needs a name")
	case !utf8.ValidString(name):
		return errors.New("the name is not valid UTF-8")
	case utf8.RuneCountInString(name) > maxUserName:
		return fmt.Errorf("the name is longer than %d characters", maxUserName)
	case strings.TrimSpace(name) != name:
		return errors.New("the name starts or ends with a space")
	}
	for _, r := range name {
		if !unicode.IsPrint(r) {
			return fmt.Errorf("the name holds a character that does not print (%U)", r)
		}
	}
	return nil
}

func validRole(r store.Role) error {
	_, err := store.ParseRole(string(r))
	return err
}

func validPasswordHash(hash string) error {
	if hash == "" {
		return errors.New("the password hash is empty")
	}
	return nil
}

// UserByName returns a user, found by name regardless of case, with
// their password hash. A disabled user is returned too.
func (db *DB) UserByName(ctx context.Context, name string) (store.User, string, error) {
	var hash string
	u, err := scanUser(db.sql.QueryRowContext(ctx, db.q("SELECT "+userColumns+", u.password_hash FROM users u WHERE u.name_key = ?"), nameKey(name)), &hash)
	if errors.Is(err, sql.ErrNoRows) {
		err = notFound("no such user")
	}
	if err != nil {
		return store.User{}, "", fmt.Errorf("store: user %q: %w", name, err)
	}
	return u, hash, nil
}

// Users returns every user, disabled ones too, by name regardless of
// case. They are sorted here, not by the database, whose collation
// (PostgreSQL's is the server's locale) would order them differently.
func (db *DB) Users(ctx context.Context) ([]store.User, error) {
	rows, err := db.sql.QueryContext(ctx, "SELECT "+userColumns+" FROM users u")
	if err != nil {
		return nil, fmt.Errorf("store: users: %w", err)
	}
	defer rows.Close()
	var out []store.User
	for rows.Next() {
		u, err := scanUser(rows)
		if err != nil {
			return nil, fmt.Errorf("store: users: %w", err)
		}
		out = append(out, u)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("store: users: %w", err)
	}
	slices.SortFunc(out, func(a, b store.User) int {
		return cmp.Or(strings.Compare(nameKey(a.Name), nameKey(b.Name)), cmp.Compare(a.ID, b.ID))
	})
	return out, nil
}

// scanUser scans the userColumns, and then extra.
func scanUser(row interface{ Scan(...any) error }, extra ...any) (store.User, error) {
	var u store.User
	var role string
	var disabled int
	var created int64
	if err := row.Scan(append([]any{&u.ID, &u.Name, &role, &disabled, &created}, extra...)...); err != nil {
		return store.User{}, err
	}
	u.Role, u.Disabled, u.Created = store.Role(role), disabled != 0, fromMicros(created)
	return u, nil
}

// SetPassword replaces a user's password hash and ends their sessions.
func (db *DB) SetPassword(ctx context.Context, userID int64, passwordHash string) error {
	if err := validPasswordHash(passwordHash); err != nil {
		return fmt.Errorf("store: set password of user %d: %w", userID, err)
	}
	if err := db.updateUser(ctx, userID, true, "password_hash = ?", passwordHash); err != nil {
		return fmt.Errorf("store: set password of user %d: %w", userID, err)
	}
	return nil
}

// SetRole changes a user's role.
func (db *DB) SetRole(ctx context.Context, userID int64, role store.Role) error {
	if err := validRole(role); err != nil {
		return fmt.Errorf("store: set role of user %d: %w", userID, err)
	}
	if err := db.updateUser(ctx, userID, false, "role = ?", string(role)); err != nil {
		return fmt.Errorf("store: set role of user %d: %w", userID, err)
	}
	return nil
}

// DisableUser disables a user and ends their sessions.
func (db *DB) DisableUser(ctx context.Context, userID int64) error {
	if err := db.updateUser(ctx, userID, true, "disabled = 1"); err != nil {
		return fmt.Errorf("store: disable user %d: %w", userID, err)
	}
	return nil
}

// updateUser sets columns of a user (set is the SET clause, with its
// arguments), and deletes their sessions when endSessions.
func (db *DB) updateUser(ctx context.Context, userID int64, endSessions bool, set string, args ...any) error {
	return db.write(ctx, func(tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, db.q("UPDATE users SET "+set+" WHERE id = ?"), append(args, userID)...)
		if err != nil {
			return err
		}
		if n, err := res.RowsAffected(); err != nil {
			return err
		} else if n == 0 {
			return notFound("no such user")
		}
		if endSessions {
			_, err = tx.ExecContext(ctx, db.q("DELETE FROM sessions WHERE user_id = ?"), userID)
		}
		return err
	})
}

// enabledUser checks that a user is there and not disabled.
func (db *DB) enabledUser(ctx context.Context, tx *sql.Tx, userID int64) error {
	var disabled int
	err := tx.QueryRowContext(ctx, db.q("SELECT disabled FROM users WHERE id = ?"), userID).Scan(&disabled)
	switch {
	case errors.Is(err, sql.ErrNoRows):
		return notFound("no such user")
	case err != nil:
		return err
	case disabled != 0:
		return errors.New("the user is disabled")
	}
	return nil
}

// CreateSession records a login session of an enabled user.
func (db *DB) CreateSession(ctx context.Context, s store.Session) error {
	if s.Created.IsZero() {
		s.Created = db.now()
	}
	s.Created, s.Expires = normalTime(s.Created), normalTime(s.Expires)
	if err := validSession(s); err != nil {
		return fmt.Errorf("store: create session of user %d: %w", s.UserID, err)
	}
	err := db.write(ctx, func(tx *sql.Tx) error {
		if err := db.enabledUser(ctx, tx, s.UserID); err != nil {
			return err
		}
		res, err := tx.ExecContext(ctx, db.q(`INSERT INTO sessions (token_hash, user_id, csrf, created_us, expires_us)
			VALUES (?, ?, ?, ?, ?)
			ON CONFLICT (token_hash) DO NOTHING`), s.TokenHash, s.UserID, s.CSRF, micros(s.Created), micros(s.Expires))
		if err != nil {
			return err
		}
		if n, err := res.RowsAffected(); err != nil {
			return err
		} else if n == 0 {
			return fmt.Errorf("a session with that token hash %w", store.ErrExists)
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("store: create session of user %d: %w", s.UserID, err)
	}
	return nil
}

func validSession(s store.Session) error {
	switch {
	case s.TokenHash == "":
		return errors.New("the token hash is empty")
	case s.CSRF == "":
		return errors.New("the CSRF token is empty")
	case s.Expires.IsZero():
		return errors.New("the session has no expiry")
	case !s.Expires.After(s.Created):
		return fmt.Errorf("the session expires (%v) before it is created (%v)", s.Expires, s.Created)
	}
	return nil
}

// SessionByToken returns a live session, by its token's hash, and its
// user; an expired session, or one of a disabled user, is not found.
func (db *DB) SessionByToken(ctx context.Context, tokenHash string) (store.Session, store.User, error) {
	var s store.Session
	var created, expires int64
	u, err := scanUser(db.sql.QueryRowContext(ctx, db.q(`SELECT `+userColumns+`, s.token_hash, s.csrf, s.created_us, s.expires_us
		FROM sessions s JOIN users u ON u.id = s.user_id
		WHERE s.token_hash = ? AND s.expires_us > ? AND u.disabled = 0`), tokenHash, micros(db.now())),
		&s.TokenHash, &s.CSRF, &created, &expires)
	if errors.Is(err, sql.ErrNoRows) {
		err = notFound("no such session")
	}
	if err != nil {
		return store.Session{}, store.User{}, fmt.Errorf("store: session: %w", err)
	}
	s.UserID, s.Created, s.Expires = u.ID, fromMicros(created), fromMicros(expires)
	return s, u, nil
}

// DeleteSession ends a session; one that is not there is no error.
func (db *DB) DeleteSession(ctx context.Context, tokenHash string) error {
	err := db.write(ctx, func(tx *sql.Tx) error {
		_, err := tx.ExecContext(ctx, db.q("DELETE FROM sessions WHERE token_hash = ?"), tokenHash)
		return err
	})
	if err != nil {
		return fmt.Errorf("store: delete session: %w", err)
	}
	return nil
}

// DeleteExpiredSessions deletes the sessions that expired at or before
// now, and returns how many.
func (db *DB) DeleteExpiredSessions(ctx context.Context, now time.Time) (int, error) {
	var n int64
	err := db.write(ctx, func(tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, db.q("DELETE FROM sessions WHERE expires_us <= ?"), micros(now))
		if err != nil {
			return err
		}
		n, err = res.RowsAffected()
		return err
	})
	if err != nil {
		return 0, fmt.Errorf("store: delete expired sessions: %w", err)
	}
	return int(n), nil
}

// CreateToken records an API token of an enabled user and returns it
// with its ID.
func (db *DB) CreateToken(ctx context.Context, t store.Token) (store.Token, error) {
	if t.Created.IsZero() {
		t.Created = db.now()
	}
	t.Created, t.LastUsed, t.Expires = normalTime(t.Created), time.Time{}, normalTime(t.Expires)
	if t.Hash == "" {
		return store.Token{}, fmt.Errorf("store: create token %q of user %d: the hash is empty", t.Name, t.UserID)
	}
	if t.Role != "" {
		if _, err := store.ParseRole(string(t.Role)); err != nil {
			return store.Token{}, fmt.Errorf("store: create token %q of user %d: %w", t.Name, t.UserID, err)
		}
	}
	err := db.write(ctx, func(tx *sql.Tx) error {
		if err := db.enabledUser(ctx, tx, t.UserID); err != nil {
			return err
		}
		var role string
		if err := tx.QueryRowContext(ctx, db.q("SELECT role FROM users WHERE id = ?"), t.UserID).Scan(&role); err != nil {
			return err
		}
		if t.Role != "" && !store.Role(role).AtLeast(t.Role) {
			return fmt.Errorf("a token's role, %s, cannot be above its user's, %s", t.Role, role)
		}
		err := tx.QueryRowContext(ctx, db.q(`INSERT INTO api_tokens (user_id, name, hash, created_us, role, expires_us)
			VALUES (?, ?, ?, ?, ?, ?)
			ON CONFLICT (hash) DO NOTHING
			RETURNING id`), t.UserID, t.Name, t.Hash, micros(t.Created), string(t.Role), nullMicros(t.Expires)).Scan(&t.ID)
		if errors.Is(err, sql.ErrNoRows) {
			return fmt.Errorf("a token with that hash %w", store.ErrExists)
		}
		return err
	})
	if err != nil {
		return store.Token{}, fmt.Errorf("store: create token %q of user %d: %w", t.Name, t.UserID, err)
	}
	return t, nil
}

// TokenByHash returns a token of an enabled user, by its hash, and the
// user, and records its use, at most once a minute.
func (db *DB) TokenByHash(ctx context.Context, hash string) (store.Token, store.User, error) {
	t, u, err := db.tokenByHash(ctx, hash)
	if err != nil {
		return store.Token{}, store.User{}, fmt.Errorf("store: token: %w", err)
	}
	now := normalTime(db.now())
	if !t.LastUsed.IsZero() && now.Sub(t.LastUsed) < lastUsedEvery {
		return t, u, nil
	}
	err = db.write(ctx, func(tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, db.q("UPDATE api_tokens SET last_used_us = ? WHERE id = ?"), micros(now), t.ID)
		if err != nil {
			return err
		}
		if n, err := res.RowsAffected(); err != nil {
			return err
		} else if n == 0 {
			return notFound("no such token") // revoked meanwhile
		}
		return nil
	})
	if err != nil {
		return store.Token{}, store.User{}, fmt.Errorf("store: token %d: %w", t.ID, err)
	}
	t.LastUsed = now
	return t, u, nil
}

func (db *DB) tokenByHash(ctx context.Context, hash string) (store.Token, store.User, error) {
	var t store.Token
	var created int64
	var lastUsed, expires sql.NullInt64
	var role string
	u, err := scanUser(db.sql.QueryRowContext(ctx, db.q(`SELECT `+userColumns+`, t.id, t.name, t.hash, t.created_us, t.last_used_us, t.role, t.expires_us
		FROM api_tokens t JOIN users u ON u.id = t.user_id
		WHERE t.hash = ? AND u.disabled = 0 AND (t.expires_us IS NULL OR t.expires_us > ?)`), hash, micros(db.now())),
		&t.ID, &t.Name, &t.Hash, &created, &lastUsed, &role, &expires)
	if errors.Is(err, sql.ErrNoRows) {
		return store.Token{}, store.User{}, notFound("no such token")
	}
	if err != nil {
		return store.Token{}, store.User{}, err
	}
	t.UserID, t.Created, t.LastUsed = u.ID, fromMicros(created), fromNullMicros(lastUsed)
	t.Role, t.Expires = store.Role(role), fromNullMicros(expires)
	return t, u, nil
}

// nullMicros is micros, and NULL for the zero time.
func nullMicros(t time.Time) sql.NullInt64 {
	if t.IsZero() {
		return sql.NullInt64{}
	}
	return sql.NullInt64{Int64: micros(t), Valid: true}
}

// fromNullMicros is fromMicros, and the zero time for NULL.
func fromNullMicros(us sql.NullInt64) time.Time {
	if !us.Valid {
		return time.Time{}
	}
	return fromMicros(us.Int64)
}

// Tokens returns a user's tokens, oldest first, without their hashes.
func (db *DB) Tokens(ctx context.Context, userID int64) ([]store.Token, error) {
	var out []store.Token
	err := db.read(ctx, func(tx *sql.Tx) error {
		var one int
		err := tx.QueryRowContext(ctx, db.q("SELECT 1 FROM users WHERE id = ?"), userID).Scan(&one)
		if errors.Is(err, sql.ErrNoRows) {
			return notFound("no such user")
		}
		if err != nil {
			return err
		}
		rows, err := tx.QueryContext(ctx, db.q(`SELECT id, user_id, name, created_us, last_used_us, role, expires_us
			FROM api_tokens WHERE user_id = ? ORDER BY created_us, id`), userID)
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			var t store.Token
			var created int64
			var lastUsed, expires sql.NullInt64
			var role string
			if err := rows.Scan(&t.ID, &t.UserID, &t.Name, &created, &lastUsed, &role, &expires); err != nil {
				return err
			}
			t.Created, t.LastUsed = fromMicros(created), fromNullMicros(lastUsed)
			t.Role, t.Expires = store.Role(role), fromNullMicros(expires)
			out = append(out, t)
		}
		return rows.Err()
	})
	if err != nil {
		return nil, fmt.Errorf("store: tokens of user %d: %w", userID, err)
	}
	return out, nil
}

// DeleteToken revokes a token.
func (db *DB) DeleteToken(ctx context.Context, id int64) error {
	err := db.write(ctx, func(tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, db.q("DELETE FROM api_tokens WHERE id = ?"), id)
		if err != nil {
			return err
		}
		if n, err := res.RowsAffected(); err != nil {
			return err
		} else if n == 0 {
			return notFound("no such token")
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("store: delete token %d: %w", id, err)
	}
	return nil
}
