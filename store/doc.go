// Package store is where Gavel keeps its results: case definitions,
// version by version, and every run with its trials (transcripts and
// judgments, whole), scores, usage and the labels people put on
// judgments. Store is the interface; store/sqlstore implements it over
// database/sql, store/sqlite (the default, a file) and store/postgres
// (for teams) open it on their databases, and store/storetest is the one
// conformance suite both must pass.
//
// A run read whole (Store.Run) costs every transcript it holds. Views
// that need less read less: a run without its transcripts (RunVerdicts),
// one case of it (RunCase), its info and summary (RunInfo, Runs), a
// suite's trend (Trend).
//
// Stores may do more, found by type assertion: Migrator (schema versions,
// for gavel migrate) and Accounts (the web app's users, sessions and API
// tokens), which sqlstore both implements.
package store
