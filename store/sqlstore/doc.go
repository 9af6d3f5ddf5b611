// Package sqlstore is Gavel's store.Store on an SQL database: one
// implementation, written once with ? placeholders, for SQLite and
// PostgreSQL, which differ only in a small Dialect (placeholders, column
// types, how migrations take turns). Packages store/sqlite and
// store/postgres open it on their databases; most code wants those.
//
//	db, err := sql.Open("sqlite", dsn)
//	...
//	s, err := sqlstore.Open(ctx, db, sqlstore.SQLite) // migrates
//
// # Schema
//
// The tables, in migrations/DIALECT/NNNN_title.sql:
//
//   - schema_version: the migrations applied.
//   - case_versions: every version of every case definition. A new
//     version is made when the definition, the name or the tags change;
//     trials point at the version they ran.
//   - runs: a run's info (who, where, git, filters, models, settings) and
//     the summary FinishRun writes: status, end, pass rate, trials, cost,
//     tokens, cases by outcome, and the whole gavel.Stats as JSON. Listing
//     runs and reading one's info never read trials. Indexed on the start,
//     and on the suite, the status and the branch each with the start.
//   - run_cases: a run's cases, in the order their first trials were
//     saved until FinishRun sets the suite order, with their outcomes,
//     skip reasons and what reports show of them (name, description, tags,
//     source, input, expectations).
//   - trials: one row per trial, written as the trial finishes: the
//     transcript and the verdict, whole, as gzip-compressed JSON (turns,
//     messages, tool calls, judgments with their checks, jury votes and
//     scores, usage per call), and columns for queries: the verdict's
//     status and normalised score, the execution status, the duration,
//     and tokens and cost by role. RunCase reads one case's trials by the
//     primary key, and RunVerdicts a run's without their transcripts.
//   - trial_scores: each trial's criteria (see gavel.CriterionStat):
//     mean, lowest and count by name.
//   - run_criteria: the same per run, written by FinishRun, so that a
//     trend reads one row per criterion and run, never trials.
//   - labels: people's labels on judgments, for calibrating judges.
//   - queues, queue_assignees, queue_items: annotation queues (see
//     store.Queues): a queue's name, filter (JSON) and labels per item,
//     the people assigned, and the trials its filter chose, in order. A
//     person's next item is found by one query over queue_items and the
//     current labels (labels_current's index); the filter is applied as
//     the queue is filled, opening verdicts only when it chooses by what
//     is inside them.
//   - users, sessions, api_tokens: the web app's accounts (see
//     store.Accounts). Users have a role and a password hash, and are
//     disabled, never deleted; their names are unique regardless of case
//     (name_key holds the name in lower case). Sessions and API tokens
//     are kept by the hashes of their tokens, which are unique and
//     indexed. No password or token is ever kept in clear: the web app
//     hashes them first.
//
// Times are kept as microseconds since the Unix epoch and given back in
// UTC: PostgreSQL keeps no finer time, and both stores then give back the
// same values. Times inside transcripts are kept exactly, with their
// zones' offsets.
//
// # Migrations
//
// Migrations are embedded, one file per schema version and dialect, and
// Open applies the missing ones, each in a transaction; processes opening
// one database at once take turns. A database whose schema is newer than
// this Gavel knows is refused with a *NewerSchemaError, before anything
// is written. Version reports the schema's version and the newest known,
// for gavel migrate; New opens a store without migrating.
//
// # Writers
//
// Every write is one transaction: a trial, with its criteria and its
// case's place in the run, is saved whole or not at all, so a crash, a
// full disk or a read-only file leaves what was written before intact. On
// SQLite, which takes one writer at a time, a process's writes queue in
// the process (compression happens before, outside the queue), and
// processes wait for each other under the busy timeout. Rows written
// together (a run's cases, its criteria) go a few hundred a statement.
package sqlstore
