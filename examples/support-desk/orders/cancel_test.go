package orders

import (
	"errors"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

func TestCancel(t *testing.T) {
	tests := []struct {
		name         string
		id           string
		confirmation bool
		want         CancelResult
		wantStatus   string // the order's status afterwards
	}{
		{"processing, confirmed", "67890", true,
			CancelResult{OrderID: "67890", Cancelled: true}, StatusCancelled},
		{"processing, not confirmed", "67890", false,
			CancelResult{OrderID: "67890", Reason: ReasonConfirmationRequired}, StatusProcessing},
		{"shipped, confirmed", "12345", true,
			CancelResult{OrderID: "12345", Reason: "order has already shipped"}, StatusShipped},
		{"shipped, not confirmed", "12345", false,
			CancelResult{OrderID: "12345", Reason: ReasonConfirmationRequired}, StatusShipped},
		{"delivered, confirmed", "24680", true,
			CancelResult{OrderID: "24680", Reason: "order has already been delivered"}, StatusDelivered},
		{"already cancelled, confirmed", "11223", true,
			CancelResult{OrderID: "11223", Reason: "order is already cancelled"}, StatusCancelled},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ctx := testContext(t)
			db, _ := openTemp(t)
			before, err := db.Status(ctx, tt.id)
			if err != nil {
				t.Fatal(err)
			}

			got, err := db.Cancel(ctx, tt.id, tt.confirmation)
			if err != nil {
				t.Fatalf("Cancel(%s, %v): %v", tt.id, tt.confirmation, err)
			}
			if got != tt.want {
				t.Errorf("Cancel(%s, %v): got %+v, want %+v", tt.id, tt.confirmation, got, tt.want)
			}

			after, err := db.Status(ctx, tt.id)
			if err != nil {
				t.Fatal(err)
			}
			if after.Status != tt.wantStatus {
				t.Errorf("status afterwards: got %q, want %q", after.Status, tt.wantStatus)
			}
			if got.Cancelled {
				if after.ETA != "" {
					t.Errorf("ETA of a cancelled order: got %q, want none", after.ETA)
				}
				// updated_at has whole seconds, so it is never after now.
				if age := time.Since(after.UpdatedAt); age < 0 || age > time.Minute {
					t.Errorf("updated_at: got %v, want about now", after.UpdatedAt)
				}
			} else if diff := cmp.Diff(before, after); diff != "" {
				t.Errorf("a refused cancellation changed the order (-before +after):\n%s", diff)
			}
		})
	}
}

func TestCancelNotFound(t *testing.T) {
	db, _ := openTemp(t)
	for _, confirmation := range []bool{true, false} {
		_, err := db.Cancel(testContext(t), "99999", confirmation)
		if !errors.Is(err, ErrNotFound) {
			t.Errorf("Cancel(99999, %v): got error %v, want one wrapping ErrNotFound", confirmation, err)
		}
	}
}
