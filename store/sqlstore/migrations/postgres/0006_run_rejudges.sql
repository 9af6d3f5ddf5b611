-- Gavel's results store, schema 6 (PostgreSQL): the run whose stored transcripts a
-- run judged again (gavel rejudge; store.RunInfo.Rejudges), '' for a run
-- that talked with its agent. Keep in step with
-- ../sqlite/0006_run_rejudges.sql.

ALTER TABLE runs ADD COLUMN rejudges TEXT NOT NULL DEFAULT '';
