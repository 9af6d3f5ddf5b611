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
// A run is running from CreateRun to FinishRun, and ends passed, failed,
// incomplete (stopped before every selected trial ran: its Stopped and
// StopReason say why) or errored. A run its process left running (a
// crash, kill -9) is shown as abandoned: it records its process's PID and
// machine and when it was last heard of (CreateRun, SaveTrial and
// Heartbeat, every HeartbeatInterval), and a reader shows it abandoned
// when that process is gone from the reader's machine or was not heard of
// for StaleAfter. A run made by gavel run --resume or --retry-errors is a
// new run that names the run it carries on (RunInfo.Continues), so that
// the earlier run's record stays as it was. So is a run made by gavel
// rejudge, which judges another run's stored transcripts again: it names
// that run (RunInfo.Rejudges).
//
// Stores may do more, found by type assertion: Migrator (schema versions,
// for gavel migrate), Accounts (the web app's users, sessions and API
// tokens) and Queues (annotation queues: trials a filter chose, for
// people to label), which sqlstore all implements.
package store
