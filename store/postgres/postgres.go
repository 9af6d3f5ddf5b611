package postgres

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"net"
	"strconv"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/stdlib"

	"github.com/gavelhq/gavel/store/sqlstore"
)

// connectTimeout bounds how long Open waits for the server to answer;
// tests shorten it.
var connectTimeout = 5 * time.Second

// maxConns caps the store's connections, leaving room on the server
// (PostgreSQL allows 100 by default) for other clients: a run of 64
// concurrent trials shares them.
const maxConns = 16

// Open connects to the PostgreSQL database named by dsn (a URL,
// postgres://user:password@host:port/database?sslmode=disable, or
// key=value pairs) and brings the store's schema up to date. A database
// written by a newer Gavel is refused (a *sqlstore.NewerSchemaError) and
// left as it was. A server that does not answer within five seconds is an
// error naming its host and port.
func Open(ctx context.Context, dsn string) (*sqlstore.DB, error) {
	db, where, err := connect(ctx, dsn)
	if err != nil {
		return nil, err
	}
	s, err := sqlstore.Open(ctx, db, sqlstore.Postgres)
	if err != nil {
		db.Close()
		return nil, fmt.Errorf("store: open PostgreSQL at %s: %w", where, err)
	}
	return s, nil
}

// Connect returns the connections Open uses, checked, without touching
// the schema: for sqlstore.New(db, sqlstore.Postgres), to report the
// schema's version before migrating.
func Connect(ctx context.Context, dsn string) (*sql.DB, error) {
	db, _, err := connect(ctx, dsn)
	return db, err
}

// connect is Connect, and it returns the server's host:port for messages.
func connect(ctx context.Context, dsn string) (*sql.DB, string, error) {
	cfg, err := pgx.ParseConfig(dsn)
	if err != nil {
		// pgx's parse errors leave the password out.
		return nil, "", fmt.Errorf("store: PostgreSQL DSN: %w", err)
	}
	where := server(cfg)
	db := stdlib.OpenDB(*cfg)
	db.SetMaxOpenConns(maxConns)
	db.SetMaxIdleConns(maxConns)
	ctx, cancel := context.WithTimeout(ctx, connectTimeout)
	defer cancel()
	if err := db.PingContext(ctx); err != nil {
		db.Close()
		if errors.Is(err, context.DeadlineExceeded) {
			return nil, where, fmt.Errorf("store: cannot connect to PostgreSQL at %s: no answer within %v", where, connectTimeout)
		}
		return nil, where, fmt.Errorf("store: cannot connect to PostgreSQL at %s: %w", where, err)
	}
	return db, where, nil
}

// server returns the host and port a configuration connects to, for
// messages: "db.internal:5432", or a socket's directory and port.
func server(cfg *pgx.ConnConfig) string {
	return net.JoinHostPort(cfg.Host, strconv.Itoa(int(cfg.Port)))
}
