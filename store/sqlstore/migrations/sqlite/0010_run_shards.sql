-- Gavel's results store, schema 10 (SQLite): runs made of shards (gavel
-- run --shard K/N --run-label LABEL, store.Sharder). Keep in step with
-- ../postgres/0010_run_shards.sql.
--
-- A labelled run: its label is unique, so that the first shard to arrive
-- creates the run and the others join it, whatever their timing; with its
-- number of shards and what the whole run selected (every shard must say
-- the same).
CREATE TABLE labelled_runs (
	label     TEXT    PRIMARY KEY,
	run_id    TEXT    NOT NULL UNIQUE REFERENCES runs (id) ON DELETE CASCADE,
	shards    INTEGER NOT NULL,
	selection TEXT    NOT NULL
);

-- The shards of a labelled run, as they started and ended: the process
-- running one (to tell a shard that died from one running), and what
-- stopped one that did not run every trial of its part.
CREATE TABLE run_shards (
	run_id       TEXT    NOT NULL REFERENCES runs (id) ON DELETE CASCADE,
	shard        INTEGER NOT NULL,
	status       TEXT    NOT NULL, -- running or ended
	host         TEXT    NOT NULL,
	pid          INTEGER NOT NULL,
	machine      TEXT    NOT NULL,
	started_us   INTEGER NOT NULL,
	heartbeat_us INTEGER NOT NULL,
	ended_us     INTEGER,
	stopped      TEXT    NOT NULL DEFAULT '',
	stop_reason  TEXT    NOT NULL DEFAULT '',
	PRIMARY KEY (run_id, shard)
);
