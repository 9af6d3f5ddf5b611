-- Gavel's results store, schema 14 (SQLite): an API token may have a role
-- below its user's and an expiry (store.Token.Role, Expires). Keep in
-- step with ../postgres/0014_token_scopes.sql.

-- '' for the user's role.
ALTER TABLE api_tokens ADD COLUMN role TEXT NOT NULL DEFAULT '';
-- NULL for never.
ALTER TABLE api_tokens ADD COLUMN expires_us INTEGER;
