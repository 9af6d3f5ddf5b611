-- Gavel's results store, schema 2 (SQLite): the web app's accounts. Times
-- are microseconds since the Unix epoch, UTC. No secret is kept in clear:
-- passwords, session tokens and API tokens are kept as the web app hashed
-- them. Keep in step with ../postgres/0002_accounts.sql.

-- People who log in to the web app. They are disabled, never deleted.
CREATE TABLE users (
	id            INTEGER PRIMARY KEY AUTOINCREMENT,
	name          TEXT    NOT NULL,
	name_key      TEXT    NOT NULL, -- the name in lower case: names are unique regardless of case
	role          TEXT    NOT NULL, -- viewer, editor or admin
	password_hash TEXT    NOT NULL,
	disabled      INTEGER NOT NULL DEFAULT 0,
	created_us    INTEGER NOT NULL,
	UNIQUE (name_key)
);

-- Login sessions, by the hash of the token their cookie holds.
CREATE TABLE sessions (
	token_hash TEXT    PRIMARY KEY,
	user_id    INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
	csrf       TEXT    NOT NULL,
	created_us INTEGER NOT NULL,
	expires_us INTEGER NOT NULL
);
CREATE INDEX sessions_user ON sessions (user_id);
CREATE INDEX sessions_expires ON sessions (expires_us);

-- API tokens, for scripts, by their hash.
CREATE TABLE api_tokens (
	id           INTEGER PRIMARY KEY AUTOINCREMENT,
	user_id      INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
	name         TEXT    NOT NULL,
	hash         TEXT    NOT NULL,
	created_us   INTEGER NOT NULL,
	last_used_us INTEGER, -- NULL until the token is first used
	UNIQUE (hash)
);
CREATE INDEX api_tokens_user ON api_tokens (user_id, created_us);
