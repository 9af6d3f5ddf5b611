-- Gavel's results store, schema 16 (PostgreSQL): what the person who started a
-- run called it (store.RunInfo.Label: gavel run --label, the web app's
-- Start a run form), '' when none was given and for runs before this
-- schema. Words for people, not unique: labelled_runs keeps the run
-- labels of shards, which are keys.
-- Keep in step with ../sqlite/0016_run_labels.sql.

ALTER TABLE runs ADD COLUMN label TEXT NOT NULL DEFAULT '';
