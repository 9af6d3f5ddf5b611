package orders

import (
	"context"
	"fmt"
	"time"
)

// ReasonConfirmationRequired is the Reason of a cancellation asked for
// without confirmation.
const ReasonConfirmationRequired = "confirmation required"

// A CancelResult is the outcome of a request to cancel an order.
type CancelResult struct {
	OrderID string
	// Cancelled reports whether this request cancelled the order.
	Cancelled bool
	// Reason says why the order was not cancelled: "" when it was.
	Reason string
}

// Cancel cancels the order with the given id if confirmation is true and
// the order is still processing. Otherwise it changes nothing and the
// result's Reason says why: ReasonConfirmationRequired when confirmation
// is false (whatever the order's status), or the status that rules a
// cancellation out. An unknown id is an error that wraps ErrNotFound,
// with or without confirmation.
func (db *DB) Cancel(ctx context.Context, id string, confirmation bool) (CancelResult, error) {
	if !confirmation {
		if _, err := db.Status(ctx, id); err != nil {
			return CancelResult{}, err
		}
		return CancelResult{OrderID: id, Reason: ReasonConfirmationRequired}, nil
	}

	// One conditional UPDATE, so that the check of the status and the
	// change cannot be split by another writer. An ETA means nothing once
	// the order will never arrive.
	now := time.Now().UTC().Format(time.RFC3339)
	res, err := db.sqldb.ExecContext(ctx,
		"UPDATE orders SET status = ?, eta = NULL, updated_at = ? WHERE id = ? AND status = ?",
		StatusCancelled, now, id, StatusProcessing)
	if err != nil {
		return CancelResult{}, fmt.Errorf("cancel order %s: %w", id, err)
	}
	n, err := res.RowsAffected()
	if err != nil {
		return CancelResult{}, fmt.Errorf("cancel order %s: %w", id, err)
	}
	if n == 1 {
		return CancelResult{OrderID: id, Cancelled: true}, nil
	}

	// Nothing changed: the order is unknown or past cancelling.
	o, err := db.Status(ctx, id)
	if err != nil {
		return CancelResult{}, err
	}
	return CancelResult{OrderID: id, Reason: refusal(o.Status)}, nil
}

// refusal says why an order with the given status cannot be cancelled.
func refusal(status string) string {
	switch status {
	case StatusShipped:
		return "order has already shipped"
	case StatusDelivered:
		return "order has already been delivered"
	case StatusCancelled:
		return "order is already cancelled"
	}
	return fmt.Sprintf("order is %s; only a processing order can be cancelled", status)
}
