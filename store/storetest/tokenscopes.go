package storetest

import (
	"testing"
	"time"

	"github.com/gavelhq/gavel/store"
)

// testTokenScopes: a token may have a role below its user's (a read-only
// token for a dashboard; never above) and an expiry, after which it is
// no token; listing says both.
func testTokenScopes(t *testing.T, s store.Store) {
	a, ctx := accounts(t, s), ctx(t)
	ada, err := a.CreateUser(ctx, "ada", store.Editor, "hash")
	check(t, "CreateUser", err)
	far := time.Date(2100, 1, 1, 0, 0, 0, 0, time.UTC) // after now, whatever the clock says
	past := time.Date(2020, 1, 1, 0, 0, 0, 0, time.UTC)

	dash, err := a.CreateToken(ctx, store.Token{UserID: ada.ID, Name: "dashboard", Hash: "d1", Role: store.Viewer, Expires: far})
	check(t, "CreateToken", err)
	_, err = a.CreateToken(ctx, store.Token{UserID: ada.ID, Name: "too much", Hash: "d2", Role: store.Admin})
	wantRefused(t, "CreateToken of a role above its user's", err)
	_, err = a.CreateToken(ctx, store.Token{UserID: ada.ID, Name: "stale", Hash: "d3", Expires: past})
	check(t, "CreateToken", err)

	got, _, err := a.TokenByHash(ctx, "d1")
	check(t, "TokenByHash", err)
	if got.Role != store.Viewer || !got.Expires.Equal(far) {
		t.Errorf("TokenByHash: role %q, expires %v; want viewer, %v", got.Role, got.Expires, far)
	}
	_, _, err = a.TokenByHash(ctx, "d3")
	wantNotFound(t, "TokenByHash of an expired token", err)

	list, err := a.Tokens(ctx, ada.ID)
	check(t, "Tokens", err)
	if len(list) != 2 || list[0].ID != dash.ID || list[0].Role != store.Viewer || !list[0].Expires.Equal(far) || !list[1].Expires.Equal(past) {
		t.Errorf("Tokens: %+v, want the dashboard's (viewer, expiring in 2100) and the stale one (expired in 2020)", list)
	}
}
