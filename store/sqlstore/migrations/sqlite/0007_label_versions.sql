-- Gavel's results store, schema 7 (SQLite): labels that mean what they
-- say. A label may give a category of the judgment's scale (pass, fail,
-- win, tie, 4) instead of correct or wrong; a person has one current label
-- per judgment (run, case, trial, judgment, author), and the labels it
-- replaced or a deletion ended are kept, with when they stopped being
-- current (replaced_us, 0 for the current one) and whether they were
-- deleted. Labels given twice before this schema keep their newest one
-- current. Keep in step with ../postgres/0007_label_versions.sql.

ALTER TABLE labels ADD COLUMN category    TEXT    NOT NULL DEFAULT '';
ALTER TABLE labels ADD COLUMN replaced_us INTEGER NOT NULL DEFAULT 0;
ALTER TABLE labels ADD COLUMN deleted     INTEGER NOT NULL DEFAULT 0;

UPDATE labels SET replaced_us = (
	SELECT MIN(n.created_us) FROM labels n
	WHERE n.run_id = labels.run_id AND n.case_id = labels.case_id AND n.trial = labels.trial
		AND n.judgment = labels.judgment AND n.author = labels.author
		AND (n.created_us > labels.created_us OR (n.created_us = labels.created_us AND n.id > labels.id)))
WHERE EXISTS (
	SELECT 1 FROM labels n
	WHERE n.run_id = labels.run_id AND n.case_id = labels.case_id AND n.trial = labels.trial
		AND n.judgment = labels.judgment AND n.author = labels.author
		AND (n.created_us > labels.created_us OR (n.created_us = labels.created_us AND n.id > labels.id)));

CREATE UNIQUE INDEX labels_current ON labels (run_id, case_id, trial, judgment, author) WHERE replaced_us = 0;
