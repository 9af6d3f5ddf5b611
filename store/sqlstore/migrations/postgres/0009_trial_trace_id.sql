-- Gavel's results store, schema 9 (PostgreSQL): the OpenTelemetry trace a
-- trial's spans are in (gavel.Trial.TraceID, 32 hexadecimal digits), ''
-- when the run was not traced (and for trials before this schema).
-- Keep in step with ../sqlite/0009_trial_trace_id.sql.

ALTER TABLE trials ADD COLUMN trace_id TEXT NOT NULL DEFAULT '';
