-- Gavel's results store, schema 1 (SQLite). Times are microseconds since
-- the Unix epoch, UTC; transcripts and verdicts are gzip-compressed JSON.
-- Keep in step with ../postgres/0001_init.sql: both stores behave alike.

CREATE TABLE schema_version (
	version    INTEGER PRIMARY KEY,
	applied_us INTEGER NOT NULL
);

-- Every version of every case definition.
CREATE TABLE case_versions (
	id         INTEGER PRIMARY KEY AUTOINCREMENT,
	suite      TEXT    NOT NULL,
	case_id    TEXT    NOT NULL,
	version    INTEGER NOT NULL,
	name       TEXT    NOT NULL,
	tags       TEXT    NOT NULL, -- JSON array
	definition BLOB    NOT NULL,
	source     TEXT    NOT NULL,
	digest     TEXT    NOT NULL, -- SHA-256 of name, tags and definition
	created_us INTEGER NOT NULL,
	UNIQUE (suite, case_id, version)
);

-- Runs, with the summary FinishRun computes, so that listing runs and
-- trends never read trials.
CREATE TABLE runs (
	id            TEXT    PRIMARY KEY,
	suite         TEXT    NOT NULL,
	suite_file    TEXT    NOT NULL,
	started_by    TEXT    NOT NULL,
	host          TEXT    NOT NULL,
	git_commit    TEXT    NOT NULL,
	git_branch    TEXT    NOT NULL,
	filters       TEXT    NOT NULL, -- JSON array
	models        TEXT    NOT NULL, -- JSON object
	settings      TEXT    NOT NULL, -- JSON object
	threshold     REAL    NOT NULL,
	status        TEXT    NOT NULL,
	started_us    INTEGER NOT NULL,
	ended_us      INTEGER,
	duration_ns   INTEGER NOT NULL DEFAULT 0,
	interrupted   INTEGER NOT NULL DEFAULT 0,
	pass_rate     REAL    NOT NULL DEFAULT 0,
	trials        INTEGER NOT NULL DEFAULT 0,
	cost_usd      REAL    NOT NULL DEFAULT 0,
	input_tokens  INTEGER NOT NULL DEFAULT 0,
	output_tokens INTEGER NOT NULL DEFAULT 0,
	cases_pass    INTEGER NOT NULL DEFAULT 0,
	cases_fail    INTEGER NOT NULL DEFAULT 0,
	cases_error   INTEGER NOT NULL DEFAULT 0,
	cases_flaky   INTEGER NOT NULL DEFAULT 0,
	cases_skipped INTEGER NOT NULL DEFAULT 0,
	stats         TEXT -- gavel.Stats as JSON; NULL until the run finishes
);
CREATE INDEX runs_started ON runs (started_us);
CREATE INDEX runs_suite_started ON runs (suite, started_us);
CREATE INDEX runs_status_started ON runs (status, started_us);
CREATE INDEX runs_branch_started ON runs (git_branch, started_us);

-- A run's cases: in the order their first trials were saved (seq) until
-- FinishRun sets the suite order (position), with their outcomes and what
-- reports show of them.
CREATE TABLE run_cases (
	seq         INTEGER PRIMARY KEY AUTOINCREMENT,
	run_id      TEXT    NOT NULL REFERENCES runs (id) ON DELETE CASCADE,
	case_id     TEXT    NOT NULL,
	position    INTEGER,
	outcome     TEXT    NOT NULL DEFAULT '',
	skip_reason TEXT    NOT NULL DEFAULT '',
	snapshot    INTEGER NOT NULL DEFAULT 0, -- 1 when the columns below are set
	name        TEXT    NOT NULL DEFAULT '',
	description TEXT    NOT NULL DEFAULT '',
	tags        TEXT    NOT NULL DEFAULT 'null', -- JSON array
	source      TEXT    NOT NULL DEFAULT '',
	input       TEXT    NOT NULL DEFAULT '',
	expected    TEXT    NOT NULL DEFAULT '',
	UNIQUE (run_id, case_id)
);

-- Trials, whole: the transcript and the verdict as gzip-compressed JSON,
-- and the columns queries need.
CREATE TABLE trials (
	run_id               TEXT    NOT NULL REFERENCES runs (id) ON DELETE CASCADE,
	case_id              TEXT    NOT NULL,
	n                    INTEGER NOT NULL,
	case_key             INTEGER REFERENCES case_versions (id),
	status               TEXT    NOT NULL, -- the verdict's
	score                REAL,             -- the verdict's normalised score; NULL when it does not count
	exec_status          TEXT    NOT NULL,
	duration_ns          INTEGER NOT NULL,
	agent_input_tokens   INTEGER NOT NULL,
	agent_output_tokens  INTEGER NOT NULL,
	agent_cached_tokens  INTEGER NOT NULL,
	agent_cost_usd       REAL    NOT NULL,
	judge_input_tokens   INTEGER NOT NULL,
	judge_output_tokens  INTEGER NOT NULL,
	judge_cached_tokens  INTEGER NOT NULL,
	judge_cost_usd       REAL    NOT NULL,
	user_input_tokens    INTEGER NOT NULL,
	user_output_tokens   INTEGER NOT NULL,
	user_cached_tokens   INTEGER NOT NULL,
	user_cost_usd        REAL    NOT NULL,
	transcript           BLOB,             -- NULL when the trial has none
	verdict              BLOB    NOT NULL,
	saved_us             INTEGER NOT NULL,
	PRIMARY KEY (run_id, case_id, n)
);
CREATE INDEX trials_case_key ON trials (case_key);

-- The criteria of each trial's verdict (see gavel.CriterionStat).
CREATE TABLE trial_scores (
	run_id    TEXT    NOT NULL,
	case_id   TEXT    NOT NULL,
	n         INTEGER NOT NULL,
	criterion TEXT    NOT NULL,
	mean      REAL    NOT NULL,
	lowest    REAL    NOT NULL,
	scores    INTEGER NOT NULL,
	PRIMARY KEY (run_id, case_id, n, criterion),
	FOREIGN KEY (run_id, case_id, n) REFERENCES trials (run_id, case_id, n) ON DELETE CASCADE
);

-- The criteria of each finished run, for trends.
CREATE TABLE run_criteria (
	run_id    TEXT    NOT NULL REFERENCES runs (id) ON DELETE CASCADE,
	criterion TEXT    NOT NULL,
	mean      REAL    NOT NULL,
	lowest    REAL    NOT NULL,
	scores    INTEGER NOT NULL,
	PRIMARY KEY (run_id, criterion)
);

-- People's labels on judgments, for calibrating judges.
CREATE TABLE labels (
	id         INTEGER PRIMARY KEY AUTOINCREMENT,
	run_id     TEXT    NOT NULL,
	case_id    TEXT    NOT NULL,
	trial      INTEGER NOT NULL,
	judgment   TEXT    NOT NULL,
	verdict    TEXT    NOT NULL,
	score      REAL,
	comment    TEXT    NOT NULL,
	author     TEXT    NOT NULL,
	created_us INTEGER NOT NULL,
	FOREIGN KEY (run_id, case_id, trial) REFERENCES trials (run_id, case_id, n) ON DELETE CASCADE
);
CREATE INDEX labels_run ON labels (run_id, created_us);
