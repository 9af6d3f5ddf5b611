// Package dbstate judges the state an agent left in a database: a query
// runs against SQLite or PostgreSQL, and its result (a scalar, a row count
// or the rows) is compared with what the case expects, as in "the
// conversation was persisted with at least 2 messages".
//
//	persisted, err := dbstate.New(dbstate.Check{
//		DSN:      "app.db", // relative to the transcript's workspace
//		Query:    "SELECT count(*) FROM messages WHERE thread_id = ?",
//		Args:     []any{"sess-42"},
//		Scalar:   ">= 2",
//	})
//
// Exec runs a setup statement before a round of a case: it puts data in
// place, or writes past timestamps so that time-dependent behaviour is
// testable without waiting.
//
// It is a package of its own, apart from package rule, because it links
// the two database drivers (modernc.org/sqlite and pgx, both pure Go):
// programs that judge without databases do not carry them.
//
// DSNs may hold passwords: no judgment or error shows one, only the host
// of a PostgreSQL server or the file of an SQLite database.
package dbstate
