package orders_test

import (
	"context"
	"errors"
	"fmt"
	"log"
	"os"
	"path/filepath"

	"github.com/gavelhq/gavel/examples/support-desk/orders"
)

// Look an order up, then cancel it: first without the user's
// confirmation, which changes nothing, then with it.
func Example() {
	dir, err := os.MkdirTemp("", "orders-example")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dir)

	ctx := context.Background()
	db, err := orders.Open(ctx, filepath.Join(dir, "orders.db")) // a new file: created and seeded
	if err != nil {
		log.Fatal(err)
	}
	defer db.Close()

	o, err := db.Status(ctx, "67890")
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("%s: %s, arriving %s\n", o.ID, o.Status, o.ETA)

	for _, confirmation := range []bool{false, true} {
		res, err := db.Cancel(ctx, "67890", confirmation)
		if err != nil {
			log.Fatal(err)
		}
		fmt.Printf("cancel with confirmation=%v: cancelled=%v reason=%q\n", confirmation, res.Cancelled, res.Reason)
	}

	o, err = db.Status(ctx, "67890")
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("%s: %s\n", o.ID, o.Status)

	_, err = db.Status(ctx, "99999")
	fmt.Println(err, errors.Is(err, orders.ErrNotFound))
	// Output:
	// 67890: processing, arriving 2026-03-20
	// cancel with confirmation=false: cancelled=false reason="confirmation required"
	// cancel with confirmation=true: cancelled=true reason=""
	// 67890: cancelled
	// order 99999 not found true
}
