// Package storetest is the conformance suite of store.Store: one set of
// tests that every store (SQLite and PostgreSQL) must pass, so that they
// behave alike. A store's package runs it from its own tests:
//
//	func TestStore(t *testing.T) {
//		storetest.Run(t, func(t *testing.T) store.Store {
//			s, err := sqlite.Open(filepath.Join(t.TempDir(), "gavel.db"))
//			if err != nil {
//				t.Fatal(err)
//			}
//			return s
//		})
//	}
//
// It covers every method: case versions (an unchanged definition keeps
// its version, from many writers at once too), a run's lifecycle, the
// round trip of transcripts, verdicts and usage (megabytes of them too,
// whole), replacing a trial, a run that never finished (a crash), one
// case of a run (as the whole run has it, with its neighbours) and a run
// without its transcripts, listing runs with each filter, times, trends,
// labels, 64 trials saved at once, and ErrNotFound. For a store that also keeps the web app's accounts
// (store.Accounts), it covers users (names unique regardless of case,
// from many writers at once too; roles, passwords, disabling), sessions
// (expiry, logging out, deleting the expired ones) and API tokens (their
// last use, revoking), and how disabling a user or changing their
// password or role tells on their sessions and tokens.
//
// Benchmark times, on a run of 1,000 cases, what a store does once per
// run or per page: finishing the run, reading it whole, without its
// transcripts, and one case of it.
package storetest
