package listings

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"math"
	"strings"
	"time"

	_ "modernc.org/sqlite" // registers the "sqlite" driver
)

// CurrentMonth is the example's "this month": the seed data's bookings
// are in it, and occupancy is measured over it unless a month is given.
const CurrentMonth = "2026-03"

// Kinds of booking.
const (
	KindGuest      = "guest"
	KindOwnerBlock = "owner_block"
)

// ErrNotFound is wrapped by the errors for an unknown listing.
var ErrNotFound = errors.New("not found")

// ErrOverlap is wrapped by Block's error when the nights asked for are
// already booked.
var ErrOverlap = errors.New("overlaps a booking")

// schemaVersion is stored in the file's user_version: 0 in a new file,
// which is how Open tells a file it must set up.
const schemaVersion = 1

// options are the driver's DSN parameters for every connection: wait for
// locks, WAL for readers in other processes, and the write lock taken at
// BEGIN, so that two processes setting up one new file take turns.
const options = "_pragma=busy_timeout(5000)&_pragma=journal_mode(WAL)&_txlock=immediate"

const schema = `
CREATE TABLE listings (
	id            TEXT PRIMARY KEY,
	name          TEXT NOT NULL,
	address       TEXT NOT NULL,
	city          TEXT NOT NULL,
	nightly_price REAL NOT NULL,
	bedrooms      INTEGER NOT NULL
);
CREATE TABLE bookings (
	id         INTEGER PRIMARY KEY,
	listing_id TEXT NOT NULL REFERENCES listings(id),
	guest      TEXT NOT NULL,
	check_in   TEXT NOT NULL,
	check_out  TEXT NOT NULL,
	kind       TEXT NOT NULL,
	amount     REAL NOT NULL
)`

// A Listing is a property the manager rents out.
type Listing struct {
	ID           string  `json:"id"`
	Name         string  `json:"name"`
	Address      string  `json:"address,omitempty"`
	City         string  `json:"city"`
	NightlyPrice float64 `json:"nightly_price"`
	Bedrooms     int     `json:"bedrooms,omitempty"`
}

// A Booking is a guest's stay or nights the owner blocked.
type Booking struct {
	ID        int64   `json:"id"`
	ListingID string  `json:"listing_id"`
	Guest     string  `json:"guest"`
	CheckIn   string  `json:"check_in"`
	CheckOut  string  `json:"check_out"`
	Kind      string  `json:"kind"`
	Amount    float64 `json:"amount"`
}

var seedListings = []Listing{
	{"L-101", "Beach House", "12 Ocean Drive, Santa Cruz, CA", "Santa Cruz", 240, 3},
	{"L-102", "Mountain Cabin", "8 Pine Ridge Road, Aspen, CO", "Aspen", 180, 2},
	{"L-103", "City Apartment", "450 Market Street #12, San Francisco, CA", "San Francisco", 150, 1},
}

var seedBookings = []Booking{
	{ListingID: "L-101", Guest: "Ana Ruiz", CheckIn: "2026-03-05", CheckOut: "2026-03-10"},
	{ListingID: "L-101", Guest: "Ben Carter", CheckIn: "2026-03-13", CheckOut: "2026-03-17"},
	{ListingID: "L-101", Guest: "Chloe Park", CheckIn: "2026-03-24", CheckOut: "2026-03-29"},
	{ListingID: "L-102", Guest: "Dev Patel", CheckIn: "2026-03-01", CheckOut: "2026-03-08"},
	{ListingID: "L-102", Guest: "Ella Novak", CheckIn: "2026-03-12", CheckOut: "2026-03-19"},
	{ListingID: "L-102", Guest: "Finn Murphy", CheckIn: "2026-03-26", CheckOut: "2026-03-30"},
	{ListingID: "L-102", Guest: "", CheckIn: "2026-04-02", CheckOut: "2026-04-06"}, // booked through a channel that hides the name
	{ListingID: "L-103", Guest: "Gia Rossi", CheckIn: "2026-03-02", CheckOut: "2026-03-09"},
	{ListingID: "L-103", Guest: "Hiro Tanaka", CheckIn: "2026-03-11", CheckOut: "2026-03-20"},
	{ListingID: "L-103", Guest: "Ivy Chen", CheckIn: "2026-03-23", CheckOut: "2026-03-29"},
	{ListingID: "L-103", Guest: "Jonas Berg", CheckIn: "2026-04-15", CheckOut: "2026-04-18"},
}

// A DB is the listings database. Its methods may be called from several
// goroutines at once.
type DB struct {
	sqldb *sql.DB
}

// Open opens the database in the SQLite file at path, creating the file,
// its schema and its seed data when they are missing.
func Open(ctx context.Context, path string) (*DB, error) {
	switch {
	case path == "":
		return nil, errors.New("open listings database: the path is empty")
	case strings.Contains(path, "?"):
		return nil, fmt.Errorf("open listings database %q: the path must not contain '?'", path)
	}
	sqldb, err := sql.Open("sqlite", path+"?"+options)
	if err != nil {
		return nil, fmt.Errorf("open listings database %s: %w", path, err)
	}
	if err := setUp(ctx, sqldb); err != nil {
		sqldb.Close()
		return nil, fmt.Errorf("open listings database %s: %w", path, err)
	}
	return &DB{sqldb: sqldb}, nil
}

// setUp creates the schema and the seed data in a new file, in one
// transaction.
func setUp(ctx context.Context, sqldb *sql.DB) error {
	tx, err := sqldb.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback() // a no-op after Commit
	var version int
	if err := tx.QueryRowContext(ctx, "PRAGMA user_version").Scan(&version); err != nil {
		return fmt.Errorf("read schema version: %w", err)
	}
	switch {
	case version == schemaVersion:
		return nil
	case version != 0:
		return fmt.Errorf("schema version %d is not the %d this program knows", version, schemaVersion)
	}
	if _, err := tx.ExecContext(ctx, schema); err != nil {
		return fmt.Errorf("create schema: %w", err)
	}
	prices := map[string]float64{}
	for _, l := range seedListings {
		prices[l.ID] = l.NightlyPrice
		if _, err := tx.ExecContext(ctx, "INSERT INTO listings VALUES (?, ?, ?, ?, ?, ?)",
			l.ID, l.Name, l.Address, l.City, l.NightlyPrice, l.Bedrooms); err != nil {
			return fmt.Errorf("seed listing %s: %w", l.ID, err)
		}
	}
	for _, b := range seedBookings {
		n, err := nights(b.CheckIn, b.CheckOut)
		if err != nil {
			return fmt.Errorf("seed booking of %s: %w", b.ListingID, err)
		}
		if _, err := tx.ExecContext(ctx,
			"INSERT INTO bookings (listing_id, guest, check_in, check_out, kind, amount) VALUES (?, ?, ?, ?, ?, ?)",
			b.ListingID, b.Guest, b.CheckIn, b.CheckOut, KindGuest, float64(n)*prices[b.ListingID]); err != nil {
			return fmt.Errorf("seed booking of %s: %w", b.ListingID, err)
		}
	}
	if _, err := tx.ExecContext(ctx, fmt.Sprintf("PRAGMA user_version = %d", schemaVersion)); err != nil {
		return fmt.Errorf("set schema version: %w", err)
	}
	return tx.Commit()
}

// Close closes the database.
func (db *DB) Close() error { return db.sqldb.Close() }

// Listings returns every listing, by id.
func (db *DB) Listings(ctx context.Context) ([]Listing, error) {
	rows, err := db.sqldb.QueryContext(ctx, "SELECT id, name, city, nightly_price FROM listings ORDER BY id")
	if err != nil {
		return nil, fmt.Errorf("list listings: %w", err)
	}
	defer rows.Close()
	var ls []Listing
	for rows.Next() {
		var l Listing
		if err := rows.Scan(&l.ID, &l.Name, &l.City, &l.NightlyPrice); err != nil {
			return nil, fmt.Errorf("list listings: %w", err)
		}
		ls = append(ls, l)
	}
	return ls, rows.Err()
}

// Details are a listing with its occupancy over a month.
type Details struct {
	Listing
	Month string `json:"month"`
	// OccupancyRate is the share of the month's nights booked (by
	// guests or the owner), rounded to a whole percent.
	OccupancyRate string `json:"occupancy_rate"`
	NightsBooked  int    `json:"nights_booked"`
}

// Listing returns a listing's details, with its occupancy over month
// ("2026-03"; CurrentMonth when empty).
func (db *DB) Listing(ctx context.Context, id, month string) (Details, error) {
	if month == "" {
		month = CurrentMonth
	}
	first, end, err := monthBounds(month)
	if err != nil {
		return Details{}, err
	}
	var d Details
	err = db.sqldb.QueryRowContext(ctx,
		"SELECT id, name, address, city, nightly_price, bedrooms FROM listings WHERE id = ?", id).
		Scan(&d.ID, &d.Name, &d.Address, &d.City, &d.NightlyPrice, &d.Bedrooms)
	if errors.Is(err, sql.ErrNoRows) {
		return Details{}, fmt.Errorf("listing %s %w", id, ErrNotFound)
	}
	if err != nil {
		return Details{}, fmt.Errorf("listing %s: %w", id, err)
	}
	bookings, err := db.Bookings(ctx, id, "")
	if err != nil {
		return Details{}, err
	}
	for _, b := range bookings {
		d.NightsBooked += overlap(b.CheckIn, b.CheckOut, first, end)
	}
	total := int(end.Sub(first).Hours() / 24)
	d.Month = month
	d.OccupancyRate = fmt.Sprintf("%d%%", int(math.Round(100*float64(d.NightsBooked)/float64(total))))
	return d, nil
}

// Bookings returns a listing's bookings by check-in date; with month
// ("2026-04"), only those with a night in it.
func (db *DB) Bookings(ctx context.Context, listingID, month string) ([]Booking, error) {
	if _, err := db.exists(ctx, listingID); err != nil {
		return nil, err
	}
	rows, err := db.sqldb.QueryContext(ctx,
		"SELECT id, listing_id, guest, check_in, check_out, kind, amount FROM bookings WHERE listing_id = ? ORDER BY check_in",
		listingID)
	if err != nil {
		return nil, fmt.Errorf("bookings of %s: %w", listingID, err)
	}
	defer rows.Close()
	var first, end time.Time
	if month != "" {
		if first, end, err = monthBounds(month); err != nil {
			return nil, err
		}
	}
	bs := []Booking{}
	for rows.Next() {
		var b Booking
		if err := rows.Scan(&b.ID, &b.ListingID, &b.Guest, &b.CheckIn, &b.CheckOut, &b.Kind, &b.Amount); err != nil {
			return nil, fmt.Errorf("bookings of %s: %w", listingID, err)
		}
		if month == "" || overlap(b.CheckIn, b.CheckOut, first, end) > 0 {
			bs = append(bs, b)
		}
	}
	return bs, rows.Err()
}

// Revenue is what guests paid for the stays that began in a month.
type Revenue struct {
	Month     string             `json:"month"`
	Total     float64            `json:"total"`
	ByListing map[string]float64 `json:"by_listing"`
}

// Revenue returns the revenue of month ("2026-03"), for one listing or,
// with listingID empty, every one.
func (db *DB) Revenue(ctx context.Context, month, listingID string) (Revenue, error) {
	if _, _, err := monthBounds(month); err != nil {
		return Revenue{}, err
	}
	if listingID != "" {
		if _, err := db.exists(ctx, listingID); err != nil {
			return Revenue{}, err
		}
	}
	rows, err := db.sqldb.QueryContext(ctx, `
		SELECT l.name, COALESCE(SUM(b.amount), 0)
		FROM listings l LEFT JOIN bookings b
		  ON b.listing_id = l.id AND b.kind = 'guest' AND substr(b.check_in, 1, 7) = ?
		WHERE ? = '' OR l.id = ?
		GROUP BY l.id ORDER BY l.id`, month, listingID, listingID)
	if err != nil {
		return Revenue{}, fmt.Errorf("revenue of %s: %w", month, err)
	}
	defer rows.Close()
	r := Revenue{Month: month, ByListing: map[string]float64{}}
	for rows.Next() {
		var name string
		var amount float64
		if err := rows.Scan(&name, &amount); err != nil {
			return Revenue{}, fmt.Errorf("revenue of %s: %w", month, err)
		}
		r.ByListing[name] = amount
		r.Total += amount
	}
	return r, rows.Err()
}

// Block keeps the nights from checkIn to checkOut (the morning it ends)
// for the owner. Nights that overlap a booking are refused with an error
// that wraps ErrOverlap, and nothing is written.
func (db *DB) Block(ctx context.Context, listingID, checkIn, checkOut, note string) (Booking, error) {
	if _, err := nights(checkIn, checkOut); err != nil {
		return Booking{}, err
	}
	tx, err := db.sqldb.BeginTx(ctx, nil) // immediate: the check and the insert are one
	if err != nil {
		return Booking{}, fmt.Errorf("block %s: %w", listingID, err)
	}
	defer tx.Rollback()
	var name string
	if err := tx.QueryRowContext(ctx, "SELECT name FROM listings WHERE id = ?", listingID).Scan(&name); errors.Is(err, sql.ErrNoRows) {
		return Booking{}, fmt.Errorf("listing %s %w", listingID, ErrNotFound)
	} else if err != nil {
		return Booking{}, fmt.Errorf("block %s: %w", listingID, err)
	}
	var clash Booking
	err = tx.QueryRowContext(ctx,
		"SELECT guest, check_in, check_out FROM bookings WHERE listing_id = ? AND check_in < ? AND check_out > ? ORDER BY check_in LIMIT 1",
		listingID, checkOut, checkIn).Scan(&clash.Guest, &clash.CheckIn, &clash.CheckOut)
	switch {
	case err == nil:
		return Booking{}, fmt.Errorf("%s %s to %s %w: a stay from %s to %s", name, checkIn, checkOut, ErrOverlap, clash.CheckIn, clash.CheckOut)
	case !errors.Is(err, sql.ErrNoRows):
		return Booking{}, fmt.Errorf("block %s: %w", listingID, err)
	}
	b := Booking{ListingID: listingID, Guest: note, CheckIn: checkIn, CheckOut: checkOut, Kind: KindOwnerBlock}
	res, err := tx.ExecContext(ctx,
		"INSERT INTO bookings (listing_id, guest, check_in, check_out, kind, amount) VALUES (?, ?, ?, ?, ?, 0)",
		b.ListingID, b.Guest, b.CheckIn, b.CheckOut, b.Kind)
	if err != nil {
		return Booking{}, fmt.Errorf("block %s: %w", listingID, err)
	}
	if b.ID, err = res.LastInsertId(); err != nil {
		return Booking{}, fmt.Errorf("block %s: %w", listingID, err)
	}
	return b, tx.Commit()
}

// exists returns the name of the listing with id, or an error wrapping
// ErrNotFound.
func (db *DB) exists(ctx context.Context, id string) (string, error) {
	var name string
	err := db.sqldb.QueryRowContext(ctx, "SELECT name FROM listings WHERE id = ?", id).Scan(&name)
	if errors.Is(err, sql.ErrNoRows) {
		return "", fmt.Errorf("listing %s %w", id, ErrNotFound)
	}
	if err != nil {
		return "", fmt.Errorf("listing %s: %w", id, err)
	}
	return name, nil
}

// nights returns the nights from checkIn to checkOut, dates as
// 2026-03-14, or an error saying what is wrong with them.
func nights(checkIn, checkOut string) (int, error) {
	in, err := time.Parse(time.DateOnly, checkIn)
	if err != nil {
		return 0, fmt.Errorf("check_in %q: want a date such as 2026-04-10", checkIn)
	}
	out, err := time.Parse(time.DateOnly, checkOut)
	if err != nil {
		return 0, fmt.Errorf("check_out %q: want a date such as 2026-04-12", checkOut)
	}
	if !out.After(in) {
		return 0, fmt.Errorf("check_out %s is not after check_in %s", checkOut, checkIn)
	}
	return int(out.Sub(in).Hours() / 24), nil
}

// monthBounds returns the first day of month ("2026-03") and the first
// of the next.
func monthBounds(month string) (time.Time, time.Time, error) {
	first, err := time.Parse("2006-01", month)
	if err != nil {
		return time.Time{}, time.Time{}, fmt.Errorf("month %q: want a month such as %s", month, CurrentMonth)
	}
	return first, first.AddDate(0, 1, 0), nil
}

// overlap counts the nights of a stay from checkIn to checkOut that fall
// in [first, end). Dates that do not parse count none (the schema's dates
// are written by Block and the seed, which check them).
func overlap(checkIn, checkOut string, first, end time.Time) int {
	in, err1 := time.Parse(time.DateOnly, checkIn)
	out, err2 := time.Parse(time.DateOnly, checkOut)
	if err1 != nil || err2 != nil {
		return 0
	}
	if in.Before(first) {
		in = first
	}
	if out.After(end) {
		out = end
	}
	if !out.After(in) {
		return 0
	}
	return int(out.Sub(in).Hours() / 24)
}
