-- Gavel's results store, schema 8 (SQLite): whether the tree a run ran from
-- had changes git had not committed (store.RunInfo.GitDirty), 1 when it
-- had, 0 when it was clean or is not known (runs before this schema).
-- Keep in step with ../postgres/0008_run_git_dirty.sql.

ALTER TABLE runs ADD COLUMN git_dirty INTEGER NOT NULL DEFAULT 0;
