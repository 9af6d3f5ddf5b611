package orders

import (
	"errors"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

func TestStatus(t *testing.T) {
	db, _ := openTemp(t)
	seeded, err := time.Parse(time.RFC3339, seedTime)
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		id   string
		want Order
	}{
		{"12345", Order{ID: "12345", Status: StatusShipped, ETA: "2026-03-15", Customer: "Maya Chen", Item: "Noise-cancelling headphones", UpdatedAt: seeded}},
		{"67890", Order{ID: "67890", Status: StatusProcessing, ETA: "2026-03-20", Customer: "Tom Okafor", Item: "Standing desk", UpdatedAt: seeded}},
		{"24680", Order{ID: "24680", Status: StatusDelivered, ETA: "2026-03-02", Customer: "Priya Nair", Item: "Espresso machine", UpdatedAt: seeded}},
		{"11223", Order{ID: "11223", Status: StatusCancelled, ETA: "", Customer: "Sara Lind", Item: "Mechanical keyboard", UpdatedAt: seeded}},
	}
	for _, tt := range tests {
		t.Run(tt.id, func(t *testing.T) {
			got, err := db.Status(testContext(t), tt.id)
			if err != nil {
				t.Fatalf("Status(%s): %v", tt.id, err)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("Status(%s) mismatch (-want +got):\n%s", tt.id, diff)
			}
		})
	}
}

func TestStatusNotFound(t *testing.T) {
	db, _ := openTemp(t)
	_, err := db.Status(testContext(t), "99999")
	if !errors.Is(err, ErrNotFound) {
		t.Fatalf("Status(99999): got error %v, want one wrapping ErrNotFound", err)
	}
	if got, want := err.Error(), "order 99999 not found"; got != want {
		t.Errorf("Status(99999) error: got %q, want %q", got, want)
	}
}
