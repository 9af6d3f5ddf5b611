// Package store is where Gavel keeps its results: case definitions,
// version by version, and every run with its trials (transcripts and
// judgments, whole), scores, usage and the labels people put on
// judgments. Store is the interface; store/sqlstore implements it over
// database/sql, store/sqlite (the default, a file) and store/postgres
// (for teams) open it on their databases, and store/storetest is the one
// conformance suite both must pass. Stores may do more, found by type
// assertion: Migrator (schema versions, for gavel migrate) and Accounts
// (the web app's users, sessions and API tokens), which sqlstore both
// implements.
package store
