// Package sqlite opens Gavel's store on an SQLite file, Gavel's default
// (.gavel/gavel.db), with the pure-Go driver modernc.org/sqlite: no cgo.
//
//	s, err := sqlite.Open(".gavel/gavel.db") // created on first use
//	if err != nil {
//		return err // names the file and says what is wrong with it
//	}
//	defer s.Close()
//
// The file runs in WAL mode with a busy timeout of ten seconds, so the CLI
// and the web app can use it at once: readers never wait, and writers take
// turns (in a process, they queue; across processes, each waits for the
// other's transaction to end). Foreign keys are on; synchronous is NORMAL,
// which in WAL mode loses no committed data to a crash of the program,
// only, at worst, the last transactions to a power failure.
//
// The store itself is package store/sqlstore, shared with PostgreSQL;
// Open only prepares the file and the connections. Connect gives those
// connections without migrating (to report the schema's version first),
// and DSN the driver settings.
//
// Errors name the file. A directory or a file Gavel may not write, or a
// full disk, is said so; a write that fails leaves what was written
// before intact and readable, as every write is one transaction.
package sqlite
