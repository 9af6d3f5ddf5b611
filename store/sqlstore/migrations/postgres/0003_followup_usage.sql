-- Gavel's results store, schema 3 (PostgreSQL): what the follow-up detector
-- spent, a role of its own (before, it was counted with the judges), and
-- which costs are lower bounds because a model without a price took part
-- (gavel.RoleUsage, judge.Usage.Unpriced). Keep in step with
-- ../sqlite/0003_followup_usage.sql.

ALTER TABLE trials ADD COLUMN followup_input_tokens  BIGINT NOT NULL DEFAULT 0;
ALTER TABLE trials ADD COLUMN followup_output_tokens BIGINT NOT NULL DEFAULT 0;
ALTER TABLE trials ADD COLUMN followup_cached_tokens BIGINT NOT NULL DEFAULT 0;
ALTER TABLE trials ADD COLUMN followup_cost_usd      FLOAT8 NOT NULL DEFAULT 0;

-- 1 when the role's cost leaves out a model without a price.
ALTER TABLE trials ADD COLUMN agent_unpriced    BIGINT NOT NULL DEFAULT 0;
ALTER TABLE trials ADD COLUMN judge_unpriced    BIGINT NOT NULL DEFAULT 0;
ALTER TABLE trials ADD COLUMN user_unpriced     BIGINT NOT NULL DEFAULT 0;
ALTER TABLE trials ADD COLUMN followup_unpriced BIGINT NOT NULL DEFAULT 0;

-- 1 when the run's cost_usd leaves out a model without a price.
ALTER TABLE runs ADD COLUMN cost_unpriced BIGINT NOT NULL DEFAULT 0;
