package storetest

import (
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gavelhq/gavel/store"
)

// accounts returns the store's store.Accounts, and skips the test for a
// store that keeps none.
func accounts(t *testing.T, s store.Store) store.Accounts {
	t.Helper()
	a, ok := s.(store.Accounts)
	if !ok {
		t.Skipf("%T keeps no accounts (store.Accounts)", s)
	}
	return a
}

// wantExists fails the test unless err wraps store.ErrExists.
func wantExists(t *testing.T, what string, err error) {
	t.Helper()
	if !errors.Is(err, store.ErrExists) {
		t.Errorf("%s: got error %v, want one wrapping store.ErrExists", what, err)
	}
}

// wantRefused fails the test unless err is an error other than
// ErrNotFound and ErrExists: the call was wrong.
func wantRefused(t *testing.T, what string, err error) {
	t.Helper()
	if err == nil || errors.Is(err, store.ErrNotFound) || errors.Is(err, store.ErrExists) {
		t.Errorf("%s: got error %v, want one saying what is wrong", what, err)
	}
}

// wantNow fails the test unless tm is a stored time of about now.
func wantNow(t *testing.T, what string, tm time.Time) {
	t.Helper()
	if d := time.Since(tm); d < -time.Minute || d > time.Minute || tm.Location() != time.UTC || tm.Nanosecond()%1000 != 0 {
		t.Errorf("%s: %v, want now, in UTC, to the microsecond", what, tm)
	}
}

// missingID is a user, session or token ID no store has.
const missingID = 987654321

// testUsers creates users, reads them by name regardless of case and
// changes their passwords and roles, and disables them; names are
// unique regardless of case, and bad arguments are refused.
func testUsers(t *testing.T, s store.Store) {
	a, ctx := accounts(t, s), ctx(t)
	long := strings.Repeat("é", 64)
	created := map[string]store.User{}
	for _, u := range []struct {
		name string
		role store.Role
	}{{"grace", store.Editor}, {"Ada", store.Admin}, {"linus", store.Viewer}, {long, store.Viewer}, {"Dr. Jo O'Neil-Smith@example.com", store.Viewer}, {"Zoe", store.Viewer}} {
		got, err := a.CreateUser(ctx, u.name, u.role, "hash of "+u.name)
		check(t, "CreateUser "+u.name, err)
		if got.ID == 0 {
			t.Errorf("CreateUser %s: ID 0, want one set", u.name)
		}
		for _, other := range created {
			if other.ID == got.ID {
				t.Errorf("CreateUser %s: ID %d, as %s's", u.name, got.ID, other.Name)
			}
		}
		wantNow(t, "CreateUser "+u.name+": created", got.Created)
		diff(t, "CreateUser "+u.name, got, store.User{ID: got.ID, Name: u.name, Role: u.role, Created: got.Created})
		created[u.name] = got
	}

	for _, name := range []string{"Ada", "ada", "ADA"} {
		got, hash, err := a.UserByName(ctx, name)
		check(t, "UserByName "+name, err)
		diff(t, "UserByName "+name, got, created["Ada"])
		if hash != "hash of Ada" {
			t.Errorf("UserByName %s: password hash %q, want %q", name, hash, "hash of Ada")
		}
	}
	_, _, err := a.UserByName(ctx, "nobody")
	wantNotFound(t, "UserByName of nobody", err)

	// Names are unique regardless of case.
	for _, name := range []string{"Ada", "ada", "GRACE"} {
		_, err := a.CreateUser(ctx, name, store.Viewer, "another hash")
		wantExists(t, "CreateUser of a taken name "+name, err)
	}
	if _, hash, err := a.UserByName(ctx, "ada"); err != nil || hash != "hash of Ada" {
		t.Errorf("UserByName after a taken name: %q, %v; want Ada's hash unchanged", hash, err)
	}

	bad := []struct {
		name, user string
		role       store.Role
		hash       string
	}{
		{"no name", "", store.Viewer, "h"},
		{"a space before", " bob", store.Viewer, "h"},
		{"a space after", "bob ", store.Viewer, "h"},
		{"a newline", "bob\nadmin", store.Viewer, "h"},
		{"a control character", "bob\x00", store.Viewer, "h"},
		{"invalid UTF-8", "bob\xff", store.Viewer, "h"},
		{"too long", long + "x", store.Viewer, "h"},
		{"no role", "bob", "", "h"},
		{"an unknown role", "bob", "root", "h"},
		{"a role in capitals", "bob", "Admin", "h"},
		{"no password hash", "bob", store.Viewer, ""},
	}
	for _, b := range bad {
		_, err := a.CreateUser(ctx, b.user, b.role, b.hash)
		wantRefused(t, "CreateUser with "+b.name, err)
	}
	if _, _, err := a.UserByName(ctx, "bob"); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("UserByName after refused users: %v, want none created", err)
	}

	// Changes.
	ada, grace := created["Ada"], created["grace"]
	check(t, "SetPassword", a.SetPassword(ctx, ada.ID, "new hash"))
	if _, hash, err := a.UserByName(ctx, "ada"); err != nil || hash != "new hash" {
		t.Errorf("UserByName after SetPassword: %q, %v; want the new hash", hash, err)
	}
	wantRefused(t, "SetPassword to an empty hash", a.SetPassword(ctx, ada.ID, ""))
	wantNotFound(t, "SetPassword of nobody", a.SetPassword(ctx, missingID, "h"))

	for _, role := range []store.Role{store.Viewer, store.Admin, store.Editor} {
		check(t, "SetRole "+string(role), a.SetRole(ctx, grace.ID, role))
		got, _, err := a.UserByName(ctx, "grace")
		check(t, "UserByName", err)
		if got.Role != role {
			t.Errorf("SetRole %s: role %s", role, got.Role)
		}
	}
	for _, role := range []store.Role{"", "root", "Editor"} {
		wantRefused(t, fmt.Sprintf("SetRole %q", role), a.SetRole(ctx, grace.ID, role))
	}
	if got, _, err := a.UserByName(ctx, "grace"); err != nil || got.Role != store.Editor {
		t.Errorf("UserByName after refused roles: %s, %v; want editor", got.Role, err)
	}
	wantNotFound(t, "SetRole of nobody", a.SetRole(ctx, missingID, store.Admin))

	check(t, "DisableUser", a.DisableUser(ctx, grace.ID))
	check(t, "DisableUser again", a.DisableUser(ctx, grace.ID))
	wantNotFound(t, "DisableUser of nobody", a.DisableUser(ctx, missingID))
	got, _, err := a.UserByName(ctx, "grace")
	check(t, "UserByName of a disabled user", err)
	grace.Role, grace.Disabled = store.Editor, true
	diff(t, "UserByName of a disabled user", got, grace)
	_, err = a.CreateUser(ctx, "Grace", store.Viewer, "h")
	wantExists(t, "CreateUser with a disabled user's name", err)

	// Users lists everyone, by name regardless of case (as Go compares
	// lower-case strings, whatever the database's collation).
	ada.Role = store.Admin
	want := []store.User{ada, created["Dr. Jo O'Neil-Smith@example.com"], grace, created["linus"], created["Zoe"], created[long]}
	all, err := a.Users(ctx)
	check(t, "Users", err)
	diff(t, "Users", all, want)
}

// testUsersConcurrent creates one user from many writers at once, under
// names that differ only in case: one of them wins.
func testUsersConcurrent(t *testing.T, s store.Store) {
	a, ctx := accounts(t, s), ctx(t)
	const writers = 16
	errs := make([]error, writers)
	var wg sync.WaitGroup
	for i := range writers {
		wg.Go(func() {
			name := "ada"
			if i%2 == 1 {
				name = "ADA"
			}
			_, errs[i] = a.CreateUser(ctx, name, store.Viewer, fmt.Sprintf("hash %d", i))
		})
	}
	wg.Wait()
	created := 0
	for i, err := range errs {
		switch {
		case err == nil:
			created++
		case !errors.Is(err, store.ErrExists):
			t.Errorf("writer %d: %v, want success or store.ErrExists", i, err)
		}
	}
	if created != 1 {
		t.Errorf("%d users created, want 1", created)
	}
	all, err := a.Users(ctx)
	check(t, "Users", err)
	if len(all) != 1 {
		t.Errorf("Users: %d, want 1: %+v", len(all), all)
	}
}

// testSessions creates sessions and reads them by their token's hash:
// expired ones, ones of disabled users and ones ended by a new password
// are not found, and bad sessions are refused.
func testSessions(t *testing.T, s store.Store) {
	a, ctx := accounts(t, s), ctx(t)
	ada, err := a.CreateUser(ctx, "ada", store.Editor, "hash")
	check(t, "CreateUser", err)
	grace, err := a.CreateUser(ctx, "grace", store.Viewer, "hash")
	check(t, "CreateUser", err)
	now := time.Now()

	// Created defaults to now; times come back in UTC, to the microsecond.
	check(t, "CreateSession", a.CreateSession(ctx, store.Session{TokenHash: "h1", UserID: ada.ID, CSRF: "csrf1", Expires: now.Add(time.Hour)}))
	got, user, err := a.SessionByToken(ctx, "h1")
	check(t, "SessionByToken", err)
	wantNow(t, "SessionByToken: created", got.Created)
	diff(t, "SessionByToken", got, store.Session{TokenHash: "h1", UserID: ada.ID, CSRF: "csrf1", Created: got.Created, Expires: storedTime(now.Add(time.Hour))})
	diff(t, "SessionByToken: user", user, ada)

	zoned := store.Session{TokenHash: "h2", UserID: grace.ID, CSRF: "csrf2", Created: now.Add(-time.Minute).In(base.Location()),
		Expires: now.Add(30 * 24 * time.Hour).In(base.Location())}
	check(t, "CreateSession", a.CreateSession(ctx, zoned))
	got, user, err = a.SessionByToken(ctx, "h2")
	check(t, "SessionByToken", err)
	zoned.Created, zoned.Expires = storedTime(zoned.Created), storedTime(zoned.Expires)
	diff(t, "SessionByToken", got, zoned)
	diff(t, "SessionByToken: user", user, grace)

	// An expired session is not found.
	check(t, "CreateSession", a.CreateSession(ctx, store.Session{TokenHash: "old", UserID: ada.ID, CSRF: "c", Created: now.Add(-2 * time.Hour), Expires: now.Add(-time.Hour)}))
	_, _, err = a.SessionByToken(ctx, "old")
	wantNotFound(t, "SessionByToken of an expired session", err)
	_, _, err = a.SessionByToken(ctx, "nothing")
	wantNotFound(t, "SessionByToken of no session", err)
	_, _, err = a.SessionByToken(ctx, "")
	wantNotFound(t, "SessionByToken of an empty hash", err)

	// A hash is one session's, expired or not.
	for _, h := range []string{"h1", "h2", "old"} {
		wantExists(t, "CreateSession with the hash of another", a.CreateSession(ctx, store.Session{TokenHash: h, UserID: grace.ID, CSRF: "c", Expires: now.Add(time.Hour)}))
	}
	if _, user, err := a.SessionByToken(ctx, "h1"); err != nil || user.ID != ada.ID {
		t.Errorf("SessionByToken after a taken hash: user %d, %v; want ada's session unchanged", user.ID, err)
	}

	later := now.Add(time.Hour)
	for _, b := range []struct {
		name string
		s    store.Session
	}{
		{"no token hash", store.Session{UserID: ada.ID, CSRF: "c", Expires: later}},
		{"no CSRF token", store.Session{TokenHash: "b", UserID: ada.ID, Expires: later}},
		{"no expiry", store.Session{TokenHash: "b", UserID: ada.ID, CSRF: "c"}},
		{"an expiry before its creation", store.Session{TokenHash: "b", UserID: ada.ID, CSRF: "c", Created: later, Expires: now}},
		{"an expiry at its creation", store.Session{TokenHash: "b", UserID: ada.ID, CSRF: "c", Created: later, Expires: later}},
	} {
		wantRefused(t, "CreateSession with "+b.name, a.CreateSession(ctx, b.s))
	}
	wantNotFound(t, "CreateSession of nobody", a.CreateSession(ctx, store.Session{TokenHash: "b", UserID: missingID, CSRF: "c", Expires: later}))

	// A new role shows at once.
	check(t, "SetRole", a.SetRole(ctx, ada.ID, store.Admin))
	if _, user, err := a.SessionByToken(ctx, "h1"); err != nil || user.Role != store.Admin {
		t.Errorf("SessionByToken after SetRole: role %s, %v; want admin", user.Role, err)
	}

	// Logging out ends a session, once.
	check(t, "DeleteSession", a.DeleteSession(ctx, "h1"))
	_, _, err = a.SessionByToken(ctx, "h1")
	wantNotFound(t, "SessionByToken after DeleteSession", err)
	check(t, "DeleteSession again", a.DeleteSession(ctx, "h1"))
	check(t, "DeleteSession of no session", a.DeleteSession(ctx, "nothing"))
	check(t, "CreateSession with a deleted session's hash", a.CreateSession(ctx, store.Session{TokenHash: "h1", UserID: ada.ID, CSRF: "c", Expires: later}))

	// A new password ends the user's sessions, and no one else's.
	check(t, "CreateSession", a.CreateSession(ctx, store.Session{TokenHash: "h3", UserID: ada.ID, CSRF: "c", Expires: later}))
	check(t, "SetPassword", a.SetPassword(ctx, ada.ID, "new hash"))
	for _, h := range []string{"h1", "h3"} {
		_, _, err = a.SessionByToken(ctx, h)
		wantNotFound(t, "SessionByToken after SetPassword", err)
	}
	if _, _, err := a.SessionByToken(ctx, "h2"); err != nil {
		t.Errorf("SessionByToken of another user's session after SetPassword: %v", err)
	}

	// A disabled user's sessions end, and they get no new one.
	check(t, "DisableUser", a.DisableUser(ctx, grace.ID))
	_, _, err = a.SessionByToken(ctx, "h2")
	wantNotFound(t, "SessionByToken of a disabled user", err)
	wantRefused(t, "CreateSession of a disabled user", a.CreateSession(ctx, store.Session{TokenHash: "h4", UserID: grace.ID, CSRF: "c", Expires: later}))
	_, _, err = a.SessionByToken(ctx, "h4")
	wantNotFound(t, "SessionByToken of a refused session", err)
}

// testExpiredSessions deletes the sessions that expired at or before a
// time, and only those.
func testExpiredSessions(t *testing.T, s store.Store) {
	a, ctx := accounts(t, s), ctx(t)
	ada, err := a.CreateUser(ctx, "ada", store.Viewer, "hash")
	check(t, "CreateUser", err)
	now := time.Now()
	expiries := []time.Time{now.Add(-time.Hour), now.Add(time.Hour), now.Add(2 * time.Hour), now.Add(3 * time.Hour)}
	for i, e := range expiries {
		check(t, "CreateSession", a.CreateSession(ctx, store.Session{TokenHash: fmt.Sprint("h", i), UserID: ada.ID, CSRF: "c", Created: now.Add(-2 * time.Hour), Expires: e}))
	}
	steps := []struct {
		name    string
		now     time.Time
		deleted int
		live    []bool // SessionByToken finds h0, h1, ... (until they expire)
	}{
		{"before any", now.Add(-3 * time.Hour), 0, []bool{false, true, true, true}},
		{"now", now, 1, []bool{false, true, true, true}},
		{"at an expiry", expiries[2], 2, []bool{false, false, false, true}},
		{"again", expiries[2], 0, []bool{false, false, false, true}},
	}
	for _, step := range steps {
		n, err := a.DeleteExpiredSessions(ctx, step.now)
		check(t, "DeleteExpiredSessions "+step.name, err)
		if n != step.deleted {
			t.Errorf("DeleteExpiredSessions %s: %d deleted, want %d", step.name, n, step.deleted)
		}
		for i, live := range step.live {
			_, _, err := a.SessionByToken(ctx, fmt.Sprint("h", i))
			if got := err == nil; got != live {
				t.Errorf("after DeleteExpiredSessions %s: SessionByToken h%d: %v, want found %v", step.name, i, err, live)
			}
		}
	}
	// Only deleted sessions may be created again.
	for i, deleted := range []bool{true, true, true, false} {
		err := a.CreateSession(ctx, store.Session{TokenHash: fmt.Sprint("h", i), UserID: ada.ID, CSRF: "c", Expires: now.Add(time.Hour)})
		if deleted {
			check(t, "CreateSession with a deleted session's hash", err)
		} else {
			wantExists(t, "CreateSession with a live session's hash", err)
		}
	}
}

// testTokens creates API tokens, lists them, finds them by hash (which
// records their use) and revokes them; a disabled user's do not work.
func testTokens(t *testing.T, s store.Store) {
	a, ctx := accounts(t, s), ctx(t)
	ada, err := a.CreateUser(ctx, "ada", store.Editor, "hash")
	check(t, "CreateUser", err)
	grace, err := a.CreateUser(ctx, "grace", store.Viewer, "hash")
	check(t, "CreateUser", err)

	// Created defaults to now; LastUsed is not for the caller to set.
	ci, err := a.CreateToken(ctx, store.Token{UserID: ada.ID, Name: "ci", Hash: "t1", LastUsed: base})
	check(t, "CreateToken", err)
	if ci.ID == 0 {
		t.Error("CreateToken: ID 0, want one set")
	}
	wantNow(t, "CreateToken: created", ci.Created)
	diff(t, "CreateToken", ci, store.Token{ID: ci.ID, UserID: ada.ID, Name: "ci", Hash: "t1", Created: ci.Created})
	past := time.Date(2020, 1, 2, 3, 4, 5, 6789, base.Location()) // before now, whatever the clock says
	laptop, err := a.CreateToken(ctx, store.Token{UserID: ada.ID, Name: "laptop", Hash: "t2", Created: past})
	check(t, "CreateToken", err)
	diff(t, "CreateToken", laptop, store.Token{ID: laptop.ID, UserID: ada.ID, Name: "laptop", Hash: "t2", Created: storedTime(past)})
	unnamed, err := a.CreateToken(ctx, store.Token{UserID: grace.ID, Hash: "t3"})
	check(t, "CreateToken", err)
	if ids := map[int64]bool{ci.ID: true, laptop.ID: true, unnamed.ID: true}; len(ids) != 3 {
		t.Errorf("CreateToken: IDs %d, %d, %d, want three", ci.ID, laptop.ID, unnamed.ID)
	}

	// A hash is one token's, whoever's.
	for _, h := range []string{"t1", "t3"} {
		_, err := a.CreateToken(ctx, store.Token{UserID: grace.ID, Name: "again", Hash: h})
		wantExists(t, "CreateToken with the hash of another", err)
	}
	_, err = a.CreateToken(ctx, store.Token{UserID: ada.ID, Name: "no hash"})
	wantRefused(t, "CreateToken without a hash", err)
	_, err = a.CreateToken(ctx, store.Token{UserID: missingID, Name: "nobody's", Hash: "t4"})
	wantNotFound(t, "CreateToken of nobody", err)

	// Listing, oldest first, without hashes.
	list, err := a.Tokens(ctx, ada.ID)
	check(t, "Tokens", err)
	noHash := func(t store.Token) store.Token { t.Hash = ""; return t }
	diff(t, "Tokens", list, []store.Token{noHash(laptop), noHash(ci)})
	_, err = a.Tokens(ctx, missingID)
	wantNotFound(t, "Tokens of nobody", err)
	linus, err := a.CreateUser(ctx, "linus", store.Viewer, "hash")
	check(t, "CreateUser", err)
	list, err = a.Tokens(ctx, linus.ID)
	check(t, "Tokens", err)
	diff(t, "Tokens of a user without", list, []store.Token(nil), equateEmpty)

	// Using a token records it, at most once a minute.
	got, user, err := a.TokenByHash(ctx, "t1")
	check(t, "TokenByHash", err)
	wantNow(t, "TokenByHash: last used", got.LastUsed)
	used := ci
	used.LastUsed = got.LastUsed
	diff(t, "TokenByHash", got, used)
	diff(t, "TokenByHash: user", user, ada)
	again, _, err := a.TokenByHash(ctx, "t1")
	check(t, "TokenByHash", err)
	diff(t, "TokenByHash again within a minute", again, used)
	list, err = a.Tokens(ctx, ada.ID)
	check(t, "Tokens", err)
	diff(t, "Tokens after a use", list, []store.Token{noHash(laptop), noHash(used)})
	_, _, err = a.TokenByHash(ctx, "nothing")
	wantNotFound(t, "TokenByHash of no token", err)
	_, _, err = a.TokenByHash(ctx, "")
	wantNotFound(t, "TokenByHash of an empty hash", err)

	// A new role shows at once.
	check(t, "SetRole", a.SetRole(ctx, ada.ID, store.Viewer))
	if _, user, err := a.TokenByHash(ctx, "t2"); err != nil || user.Role != store.Viewer {
		t.Errorf("TokenByHash after SetRole: role %s, %v; want viewer", user.Role, err)
	}
	// A new password leaves tokens working.
	check(t, "SetPassword", a.SetPassword(ctx, ada.ID, "new hash"))
	if _, _, err := a.TokenByHash(ctx, "t2"); err != nil {
		t.Errorf("TokenByHash after SetPassword: %v", err)
	}

	// Revoking.
	check(t, "DeleteToken", a.DeleteToken(ctx, ci.ID))
	_, _, err = a.TokenByHash(ctx, "t1")
	wantNotFound(t, "TokenByHash of a revoked token", err)
	wantNotFound(t, "DeleteToken again", a.DeleteToken(ctx, ci.ID))
	wantNotFound(t, "DeleteToken of no token", a.DeleteToken(ctx, missingID))
	list, err = a.Tokens(ctx, ada.ID)
	check(t, "Tokens", err)
	if len(list) != 1 || list[0].ID != laptop.ID {
		t.Errorf("Tokens after DeleteToken: %+v, want the laptop's alone", list)
	}

	// A disabled user's tokens stop working, and they get no new one.
	check(t, "DisableUser", a.DisableUser(ctx, grace.ID))
	_, _, err = a.TokenByHash(ctx, "t3")
	wantNotFound(t, "TokenByHash of a disabled user", err)
	_, err = a.CreateToken(ctx, store.Token{UserID: grace.ID, Name: "new", Hash: "t5"})
	wantRefused(t, "CreateToken of a disabled user", err)
	list, err = a.Tokens(ctx, grace.ID)
	check(t, "Tokens of a disabled user", err)
	diff(t, "Tokens of a disabled user", list, []store.Token{noHash(unnamed)})
	if _, _, err := a.TokenByHash(ctx, "t2"); err != nil {
		t.Errorf("TokenByHash of another user's token: %v", err)
	}
}
