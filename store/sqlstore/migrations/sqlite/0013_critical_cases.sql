-- Gavel's results store, schema 13 (SQLite): a case marked critical
-- (critical: true, gavel.Case.Critical) fails its run's gate on any
-- failure, and gavel compare reads the mark from the stored run. Keep in
-- step with ../postgres/0013_critical_cases.sql.

-- 1 when the case was critical in the run (set with the snapshot).
ALTER TABLE run_cases ADD COLUMN critical INTEGER NOT NULL DEFAULT 0;
