package auth_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/gavelhq/gavel/auth"
	"github.com/gavelhq/gavel/store"
)

func TestParseExpiry(t *testing.T) {
	now := time.Date(2026, 11, 1, 12, 0, 0, 0, time.UTC)
	for _, tc := range []struct {
		in   string
		want time.Time // zero: never
		bad  bool
	}{
		{in: "never"},
		{in: "30d", want: now.AddDate(0, 0, 30)},
		{in: "12h", want: now.Add(12 * time.Hour)},
		{in: "0d", bad: true},
		{in: "-1h", bad: true},
		{in: "soon", bad: true},
	} {
		got, err := auth.ParseExpiry(tc.in, now)
		if (err != nil) != tc.bad || !got.Equal(tc.want) {
			t.Errorf("ParseExpiry(%q) = %v, %v; want %v (error: %v)", tc.in, got, err, tc.want, tc.bad)
		}
	}
}

func TestTokensOfAUser(t *testing.T) {
	ctx, a := context.Background(), accounts(t)
	token, user, err := auth.IssueToken(ctx, a, "ed", store.Token{Name: "ci", Role: store.Viewer})
	if err != nil || user.Name != "ed" || token == "" {
		t.Fatalf("IssueToken = %q, %v, %v", token, user, err)
	}
	_, list, err := auth.UserTokens(ctx, a, "ed")
	if err != nil || len(list) != 1 || list[0].Name != "ci" {
		t.Fatalf("UserTokens = %+v, %v", list, err)
	}
	var b strings.Builder
	auth.WriteTokens(&b, user, list, time.Now())
	if !strings.Contains(b.String(), "ci    viewer") {
		t.Errorf("WriteTokens wrote\n%s", b.String())
	}
	if _, _, err := auth.UserToken(ctx, a, "ed", "999"); err == nil || !strings.Contains(err.Error(), "ed has no token 999") {
		t.Errorf("UserToken of no token: %v", err)
	}
	if _, got, err := auth.UserToken(ctx, a, "ed", "1"); err != nil || got.ID != list[0].ID {
		t.Errorf("UserToken(1) = %+v, %v", got, err)
	}
}
