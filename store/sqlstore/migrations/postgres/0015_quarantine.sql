-- Gavel's results store, schema 15 (PostgreSQL): cases quarantined by hand
-- (gavel quarantine), which run and are reported but do not gate, and
-- which cases a run left out of its gate. Keep in step with
-- ../sqlite/0015_quarantine.sql.

CREATE TABLE quarantines (
	suite      TEXT    NOT NULL,
	case_id    TEXT    NOT NULL,
	reason     TEXT    NOT NULL,
	created_by TEXT    NOT NULL,
	created_us BIGINT NOT NULL,
	PRIMARY KEY (suite, case_id)
);

-- Why the case was left out of its run's gate; '' when it was not.
ALTER TABLE run_cases ADD COLUMN quarantined TEXT NOT NULL DEFAULT '';
