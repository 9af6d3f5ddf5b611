-- Gavel's results store, schema 13 (PostgreSQL): a case marked critical
-- (critical: true, gavel.Case.Critical) fails its run's gate on any
-- failure, and gavel compare reads the mark from the stored run. Keep in
-- step with ../sqlite/0013_critical_cases.sql.

-- 1 when the case was critical in the run (set with the snapshot).
ALTER TABLE run_cases ADD COLUMN critical BIGINT NOT NULL DEFAULT 0;
