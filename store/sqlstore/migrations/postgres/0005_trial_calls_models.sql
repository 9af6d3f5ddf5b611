-- Gavel's results store, schema 5 (PostgreSQL): the model calls each role of
-- a trial made and how many of them Gavel's cache answered (judge.Usage's
-- Calls and CacheHits), and what the trial spent on each model
-- (gavel.Trial.Models, JSON; '' when it did not say), so that a run read
-- back counts its calls, and its table of models is the sum of its trials'
-- (a resumed run's copied trials included). Keep in step with
-- ../sqlite/0005_trial_calls_models.sql.

ALTER TABLE trials ADD COLUMN agent_calls         BIGINT NOT NULL DEFAULT 0;
ALTER TABLE trials ADD COLUMN agent_cache_hits    BIGINT NOT NULL DEFAULT 0;
ALTER TABLE trials ADD COLUMN judge_calls         BIGINT NOT NULL DEFAULT 0;
ALTER TABLE trials ADD COLUMN judge_cache_hits    BIGINT NOT NULL DEFAULT 0;
ALTER TABLE trials ADD COLUMN user_calls          BIGINT NOT NULL DEFAULT 0;
ALTER TABLE trials ADD COLUMN user_cache_hits     BIGINT NOT NULL DEFAULT 0;
ALTER TABLE trials ADD COLUMN followup_calls      BIGINT NOT NULL DEFAULT 0;
ALTER TABLE trials ADD COLUMN followup_cache_hits BIGINT NOT NULL DEFAULT 0;
ALTER TABLE trials ADD COLUMN models              TEXT NOT NULL DEFAULT '';
