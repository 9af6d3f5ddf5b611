package store_test

import (
	"fmt"
	"testing"

	"github.com/gavelhq/gavel/store"
)

func TestRoleAtLeast(t *testing.T) {
	roles := []store.Role{store.Viewer, store.Editor, store.Admin} // least allowed first
	for i, r := range roles {
		for j, min := range roles {
			if got, want := r.AtLeast(min), i >= j; got != want {
				t.Errorf("%s.AtLeast(%s) = %v, want %v", r, min, got, want)
			}
		}
	}
	unknown := []store.Role{"", "root", "Admin", " admin"}
	for _, u := range unknown {
		for _, r := range roles {
			if u.AtLeast(r) {
				t.Errorf("%q.AtLeast(%s) = true, want an unknown role allowed nothing", u, r)
			}
			if r.AtLeast(u) {
				t.Errorf("%s.AtLeast(%q) = true, want nothing to meet an unknown role", r, u)
			}
		}
	}
}

func TestParseRole(t *testing.T) {
	tests := []struct {
		in      string
		want    store.Role
		wantErr string
	}{
		{"viewer", store.Viewer, ""},
		{"editor", store.Editor, ""},
		{"admin", store.Admin, ""},
		{"Admin", "", `unknown role "Admin": want viewer, editor or admin`},
		{"", "", `unknown role "": want viewer, editor or admin`},
		{"root", "", `unknown role "root": want viewer, editor or admin`},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			got, err := store.ParseRole(tt.in)
			if got != tt.want {
				t.Errorf("ParseRole(%q) = %q, want %q", tt.in, got, tt.want)
			}
			if msg := fmt.Sprint(err); (tt.wantErr == "" && err != nil) || (tt.wantErr != "" && msg != tt.wantErr) {
				t.Errorf("ParseRole(%q): error %v, want %q", tt.in, err, tt.wantErr)
			}
		})
	}
}

func ExampleRole_AtLeast() {
	role, err := store.ParseRole("editor") // as a command line gives it
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("may read:", role.AtLeast(store.Viewer))
	fmt.Println("may write:", role.AtLeast(store.Editor))
	fmt.Println("may manage users:", role.AtLeast(store.Admin))
	// Output:
	// may read: true
	// may write: true
	// may manage users: false
}
