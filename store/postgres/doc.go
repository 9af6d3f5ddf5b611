// Package postgres opens Gavel's store on a PostgreSQL database, for teams
// that share their results, with the pure-Go driver pgx (through its
// database/sql driver, github.com/jackc/pgx/v5/stdlib): no cgo.
//
//	s, err := postgres.Open(ctx, "postgres://gavel@db.internal:5432/gavel")
//	if err != nil {
//		return err // "store: cannot connect to PostgreSQL at db.internal:5432: ..."
//	}
//	defer s.Close()
//
// The tables live in the connection's current schema: add
// search_path=NAME to the DSN to keep them in a schema of their own.
// Errors name the server's host and port, never the password.
//
// The store itself is package store/sqlstore, shared with SQLite; Open
// only connects.
package postgres
