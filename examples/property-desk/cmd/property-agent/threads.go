package main

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/gavelhq/gavel/llm"
	_ "modernc.org/sqlite" // registers the "sqlite" driver
)

// threads are the agent's checkpoints (agent.Checkpoints) in SQLite: the
// conversations, which outlive the process.
type threads struct {
	db *sql.DB
}

const threadsSchema = `
CREATE TABLE IF NOT EXISTS threads (
	session_id TEXT PRIMARY KEY,
	created_at TEXT NOT NULL,
	updated_at TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS messages (
	session_id TEXT NOT NULL REFERENCES threads(session_id),
	seq        INTEGER NOT NULL,
	role       TEXT NOT NULL,
	message    TEXT NOT NULL,
	PRIMARY KEY (session_id, seq)
)`

// openThreads opens the conversations in the SQLite file at path,
// creating their tables if they are missing (the file may hold other
// tables: the example keeps them beside the listings).
func openThreads(ctx context.Context, path string) (*threads, error) {
	if strings.Contains(path, "?") {
		return nil, fmt.Errorf("open conversations %q: the path must not contain '?'", path)
	}
	db, err := sql.Open("sqlite", path+"?_pragma=busy_timeout(5000)&_pragma=journal_mode(WAL)&_txlock=immediate")
	if err != nil {
		return nil, fmt.Errorf("open conversations %s: %w", path, err)
	}
	if _, err := db.ExecContext(ctx, threadsSchema); err != nil {
		db.Close()
		return nil, fmt.Errorf("open conversations %s: %w", path, err)
	}
	return &threads{db: db}, nil
}

func (t *threads) Close() error { return t.db.Close() }

// Load returns a session's saved messages.
func (t *threads) Load(ctx context.Context, id string) ([]llm.Message, bool, error) {
	var n int
	if err := t.db.QueryRowContext(ctx, "SELECT count(*) FROM threads WHERE session_id = ?", id).Scan(&n); err != nil {
		return nil, false, fmt.Errorf("load session %s: %w", id, err)
	}
	if n == 0 {
		return nil, false, nil
	}
	rows, err := t.db.QueryContext(ctx, "SELECT message FROM messages WHERE session_id = ? ORDER BY seq", id)
	if err != nil {
		return nil, false, fmt.Errorf("load session %s: %w", id, err)
	}
	defer rows.Close()
	var msgs []llm.Message
	for rows.Next() {
		var raw string
		var m llm.Message
		if err := rows.Scan(&raw); err != nil {
			return nil, false, fmt.Errorf("load session %s: %w", id, err)
		}
		if err := json.Unmarshal([]byte(raw), &m); err != nil {
			return nil, false, fmt.Errorf("load session %s: message %d: %w", id, len(msgs)+1, err)
		}
		msgs = append(msgs, m)
	}
	return msgs, true, rows.Err()
}

// Save replaces a session's saved messages, in one transaction.
func (t *threads) Save(ctx context.Context, id string, msgs []llm.Message) (err error) {
	defer func() {
		if err != nil {
			err = fmt.Errorf("save session %s: %w", id, err)
		}
	}()
	tx, err := t.db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	now := time.Now().UTC().Format(time.RFC3339)
	if _, err := tx.ExecContext(ctx, `INSERT INTO threads (session_id, created_at, updated_at) VALUES (?, ?, ?)
		ON CONFLICT (session_id) DO UPDATE SET updated_at = excluded.updated_at`, id, now, now); err != nil {
		return err
	}
	if _, err := tx.ExecContext(ctx, "DELETE FROM messages WHERE session_id = ?", id); err != nil {
		return err
	}
	for i, m := range msgs {
		raw, err := json.Marshal(m)
		if err != nil {
			return errors.Join(fmt.Errorf("message %d", i+1), err)
		}
		if _, err := tx.ExecContext(ctx, "INSERT INTO messages (session_id, seq, role, message) VALUES (?, ?, ?, ?)",
			id, i+1, string(m.Role), string(raw)); err != nil {
			return err
		}
	}
	return tx.Commit()
}
