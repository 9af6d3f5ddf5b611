// Package listings is the database of the property-desk example: the
// listings and bookings of a property manager, behind the agent's MCP
// tools (cmd/listings-mcp), as in seed 000 (get_listings,
// get_listing_details, get_bookings, get_revenue_data), plus one tool
// that writes: block_dates, which blocks nights of a listing for the
// owner.
//
// Open creates the SQLite file, its schema and its seed data the first
// time and opens the existing file after that. The schema is
//
//	listings(id TEXT PRIMARY KEY, name TEXT, address TEXT, city TEXT,
//	         nightly_price REAL, bedrooms INTEGER)
//	bookings(id INTEGER PRIMARY KEY, listing_id TEXT, guest TEXT,
//	         check_in TEXT, check_out TEXT, kind TEXT, amount REAL)
//
// with kind "guest" (a stay, amount paid) or "owner_block" (nights the
// owner keeps, amount 0), and dates as "2026-03-14"; check_out is the
// morning the stay ends, so its night is not booked. The seed data are
// the seed's three listings, with March 2026 bookings:
//
//	L-101  Beach House      Santa Cruz     240/night  occupancy in March 2026: 45%
//	L-102  Mountain Cabin   Aspen          180/night  occupancy in March 2026: 58%
//	L-103  City Apartment   San Francisco  150/night  occupancy in March 2026: 71%
//
// Block refuses nights that overlap a booking: nothing is written and
// the error wraps ErrOverlap. A database check after the conversation
// (a suite's checks: - sql:) sees whether a block was really written,
// whatever the agent says.
//
// The file is in WAL mode and every connection waits up to five seconds
// for a lock, so another process (the agent's checkpoints, Gavel's sql
// checks) can use it while the tool server writes.
package listings
