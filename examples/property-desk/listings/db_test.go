package listings

import (
	"errors"
	"path/filepath"
	"testing"
)

func open(t *testing.T) *DB {
	t.Helper()
	db, err := Open(t.Context(), filepath.Join(t.TempDir(), "property.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

// The seed data give the numbers the example's cases expect.
func TestSeed(t *testing.T) {
	db := open(t)
	ls, err := db.Listings(t.Context())
	if err != nil || len(ls) != 3 || ls[0].Name != "Beach House" {
		t.Fatalf("listings %+v, %v", ls, err)
	}
	for _, tc := range []struct{ id, rate string }{{"L-101", "45%"}, {"L-102", "58%"}, {"L-103", "71%"}} {
		d, err := db.Listing(t.Context(), tc.id, "")
		if err != nil || d.OccupancyRate != tc.rate || d.Month != CurrentMonth {
			t.Errorf("%s: %+v, %v; want occupancy %s", tc.id, d, err, tc.rate)
		}
	}
	r, err := db.Revenue(t.Context(), "2026-03", "")
	if err != nil || r.Total != 9900 || r.ByListing["Beach House"] != 3360 {
		t.Errorf("revenue %+v, %v; want 9900 in all, 3360 for the Beach House", r, err)
	}
	if _, err := db.Listing(t.Context(), "L-999", ""); !errors.Is(err, ErrNotFound) {
		t.Errorf("unknown listing: %v, want ErrNotFound", err)
	}
}

func TestBlock(t *testing.T) {
	db := open(t)
	for _, tc := range []struct {
		name, id, in, out string
		err               error
	}{
		{"free nights", "L-101", "2026-04-10", "2026-04-12", nil},
		{"the same nights again", "L-101", "2026-04-11", "2026-04-13", ErrOverlap},
		{"over a guest's stay", "L-103", "2026-04-16", "2026-04-19", ErrOverlap},
		{"ending the morning a stay begins", "L-103", "2026-04-12", "2026-04-15", nil},
		{"unknown listing", "L-999", "2026-04-10", "2026-04-12", ErrNotFound},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b, err := db.Block(t.Context(), tc.id, tc.in, tc.out, "family")
			if !errors.Is(err, tc.err) {
				t.Fatalf("Block: %v, want %v", err, tc.err)
			}
			if err == nil && (b.ID == 0 || b.Kind != KindOwnerBlock) {
				t.Errorf("Block: %+v", b)
			}
		})
	}
	if _, err := db.Block(t.Context(), "L-101", "2026-04-12", "2026-04-10", ""); err == nil {
		t.Error("a block ending before it begins was accepted")
	}
	bs, err := db.Bookings(t.Context(), "L-101", "2026-04")
	if err != nil || len(bs) != 1 || bs[0].Kind != KindOwnerBlock {
		t.Errorf("April bookings of L-101: %+v, %v; want the one block", bs, err)
	}
}
