-- Gavel's results store, schema 16 (SQLite): annotation queues.
-- A queue is a named filter of judgments (filter, JSON of
-- store.QueueFilter), the trials it chose (queue_items, in order), the
-- people asked to label them (queue_assignees) and how many labels each
-- item needs. Labels given in a queue are labels like any other (the
-- labels table): a queue's progress is read from them. Keep in step with
-- ../postgres/0016_annotation_queues.sql.

CREATE TABLE queues (
	id              INTEGER PRIMARY KEY AUTOINCREMENT,
	name            TEXT    NOT NULL UNIQUE,
	description     TEXT    NOT NULL,
	filter          TEXT    NOT NULL,
	labels_per_item INTEGER NOT NULL,
	created_by      TEXT    NOT NULL,
	created_us      INTEGER  NOT NULL
);

CREATE TABLE queue_assignees (
	queue_id INTEGER  NOT NULL REFERENCES queues (id) ON DELETE CASCADE,
	person   TEXT    NOT NULL,
	seq      INTEGER NOT NULL, -- the order they were given in
	PRIMARY KEY (queue_id, person)
);

CREATE TABLE queue_items (
	queue_id INTEGER  NOT NULL REFERENCES queues (id) ON DELETE CASCADE,
	position INTEGER NOT NULL, -- from 1
	run_id   TEXT    NOT NULL,
	case_id  TEXT    NOT NULL,
	trial    INTEGER NOT NULL,
	PRIMARY KEY (queue_id, position),
	UNIQUE (queue_id, run_id, case_id, trial),
	FOREIGN KEY (run_id, case_id, trial) REFERENCES trials (run_id, case_id, n) ON DELETE CASCADE
);
