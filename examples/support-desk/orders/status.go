package orders

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"
)

// The statuses an order can have.
const (
	StatusProcessing = "processing" // not yet shipped: the only status that can be cancelled
	StatusShipped    = "shipped"
	StatusDelivered  = "delivered"
	StatusCancelled  = "cancelled"
)

// ErrNotFound is wrapped by the error of a method given an order id the
// database does not hold. Its message reads "order 99999 not found".
var ErrNotFound = errors.New("not found")

// An Order is one row of the orders table.
type Order struct {
	ID     string
	Status string // one of the Status constants
	// ETA is the expected delivery date, as "2026-03-15", or "" when there
	// is none (a cancelled order).
	ETA       string
	Customer  string
	Item      string
	UpdatedAt time.Time
}

// Status returns the order with the given id. An unknown id is an error
// that wraps ErrNotFound.
func (db *DB) Status(ctx context.Context, id string) (Order, error) {
	var (
		o       Order
		eta     sql.NullString
		updated string
	)
	err := db.sqldb.QueryRowContext(ctx,
		"SELECT id, status, eta, customer, item, updated_at FROM orders WHERE id = ?", id,
	).Scan(&o.ID, &o.Status, &eta, &o.Customer, &o.Item, &updated)
	switch {
	case errors.Is(err, sql.ErrNoRows):
		return Order{}, fmt.Errorf("order %s %w", id, ErrNotFound)
	case err != nil:
		return Order{}, fmt.Errorf("look up order %s: %w", id, err)
	}
	o.ETA = eta.String
	if o.UpdatedAt, err = time.Parse(time.RFC3339, updated); err != nil {
		return Order{}, fmt.Errorf("look up order %s: updated_at: %w", id, err)
	}
	return o, nil
}
