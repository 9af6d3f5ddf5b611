-- Gavel's results store, schema 4: runs that end honestly. Keep in step
-- with ../postgres/0004_run_ends.sql: both stores behave alike.
--
-- An incomplete run (stopped before every selected trial ran) says what
-- stopped it and why; "interrupted" runs become "incomplete". A running
-- run records its process (pid, and the machine that pid means something
-- on) and when it was last heard of (heartbeat_us), so that readers show
-- a run whose process is gone as abandoned. A run made by --resume or
-- --retry-errors names the run it carries on.

ALTER TABLE runs ADD COLUMN stopped TEXT NOT NULL DEFAULT '';
ALTER TABLE runs ADD COLUMN stop_reason TEXT NOT NULL DEFAULT '';
ALTER TABLE runs ADD COLUMN pid INTEGER NOT NULL DEFAULT 0;
ALTER TABLE runs ADD COLUMN machine TEXT NOT NULL DEFAULT '';
ALTER TABLE runs ADD COLUMN heartbeat_us BIGINT NOT NULL DEFAULT 0;
ALTER TABLE runs ADD COLUMN continues TEXT NOT NULL DEFAULT '';
UPDATE runs SET stopped = 'interrupted', stop_reason = 'the run was interrupted' WHERE interrupted = 1;
UPDATE runs SET status = 'incomplete' WHERE status = 'interrupted';
-- A run left running by an older Gavel was last heard of when it started.
UPDATE runs SET heartbeat_us = started_us;
