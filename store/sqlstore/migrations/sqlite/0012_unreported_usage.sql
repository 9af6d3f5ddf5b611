-- Gavel's results store, schema 12 (SQLite): usage nobody reported
-- (judge.Usage.Unreported: an http or exec agent that gives no token
-- count, a conversation imported without usage) is unknown, not 0. Keep
-- in step with ../postgres/0012_unreported_usage.sql.

-- 1 when the role's tokens and cost leave out what was never reported.
ALTER TABLE trials ADD COLUMN agent_unreported    INTEGER NOT NULL DEFAULT 0;
ALTER TABLE trials ADD COLUMN judge_unreported    INTEGER NOT NULL DEFAULT 0;
ALTER TABLE trials ADD COLUMN user_unreported     INTEGER NOT NULL DEFAULT 0;
ALTER TABLE trials ADD COLUMN followup_unreported INTEGER NOT NULL DEFAULT 0;

-- 1 when the run's cost_usd leaves out what was never reported.
ALTER TABLE runs ADD COLUMN cost_unreported INTEGER NOT NULL DEFAULT 0;

-- Conversations imported before recorded no usage when their source had
-- none: their agent spent 0 tokens and $0, as they read, which is what
-- nobody reported.
UPDATE trials SET agent_unreported = 1
	WHERE agent_input_tokens = 0 AND agent_output_tokens = 0 AND agent_cost_usd = 0
	AND run_id IN (SELECT id FROM runs WHERE settings LIKE '%"imported":%');
UPDATE runs SET cost_unreported = 1
	WHERE id IN (SELECT run_id FROM trials WHERE agent_unreported = 1);
