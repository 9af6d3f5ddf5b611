-- Gavel's results store, schema 11 (PostgreSQL): a run in which nothing was
-- judged (every case skipped, or imported without verdicts) has no pass
-- rate, which is no 0% (gavel.Stats.PassRate is nil, null in its stats).
-- pass_rate_unknown is 1 for such a run, and its pass_rate column, kept
-- NOT NULL, means nothing. Keep in step with ../sqlite/0011_unknown_pass_rates.sql.

ALTER TABLE runs ADD COLUMN pass_rate_unknown BIGINT NOT NULL DEFAULT 0;

-- A run finished before had a judged trial exactly when one of its cases
-- came out other than SKIPPED: the others' stats say a pass rate of 0.
UPDATE runs SET pass_rate_unknown = 1
	WHERE stats IS NOT NULL AND cases_pass + cases_fail + cases_error + cases_flaky = 0;
