// Package pgtest gives tests a PostgreSQL database of their own, on the
// server GAVEL_TEST_POSTGRES_URL names: a fresh schema, dropped when the
// test ends. Without the variable the tests that need one skip, unless
// GAVEL_REQUIRE_INTEGRATION=1 (as in CI) makes them fail instead.
package pgtest

import (
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/hex"
	"net/url"
	"os"
	"strings"
	"testing"
	"time"

	_ "github.com/jackc/pgx/v5/stdlib" // registers the "pgx" driver
)

// URL returns GAVEL_TEST_POSTGRES_URL, the DSN of the server tests may
// use; without it, it skips the test (or fails it, when
// GAVEL_REQUIRE_INTEGRATION=1).
func URL(t testing.TB) string {
	t.Helper()
	dsn := os.Getenv("GAVEL_TEST_POSTGRES_URL")
	if dsn == "" {
		if os.Getenv("GAVEL_REQUIRE_INTEGRATION") == "1" {
			t.Fatal("GAVEL_TEST_POSTGRES_URL is not set, and GAVEL_REQUIRE_INTEGRATION=1 requires the PostgreSQL tests")
		}
		t.Skip("GAVEL_TEST_POSTGRES_URL is not set")
	}
	return dsn
}

// Schema creates a schema of its own for the test on the server URL
// names, dropped with what it holds when the test ends, and returns a DSN
// whose connections make their tables in it (its search_path).
func Schema(t testing.TB) string {
	t.Helper()
	dsn := URL(t)
	var b [6]byte
	rand.Read(b[:])
	schema := "gavel_test_" + hex.EncodeToString(b[:])
	admin, err := sql.Open("pgx", dsn)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if _, err := admin.ExecContext(ctx, "CREATE SCHEMA "+schema); err != nil {
		admin.Close()
		t.Fatalf("create schema: %v", err)
	}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		if _, err := admin.ExecContext(ctx, "DROP SCHEMA "+schema+" CASCADE"); err != nil {
			t.Errorf("drop schema %s: %v", schema, err)
		}
		admin.Close()
	})
	return withParam(t, dsn, "search_path", schema)
}

// withParam adds a parameter to a DSN, a URL or key=value pairs.
func withParam(t testing.TB, dsn, key, value string) string {
	t.Helper()
	if !strings.HasPrefix(dsn, "postgres://") && !strings.HasPrefix(dsn, "postgresql://") {
		return dsn + " " + key + "=" + value
	}
	u, err := url.Parse(dsn)
	if err != nil {
		t.Fatalf("GAVEL_TEST_POSTGRES_URL: %v", err)
	}
	q := u.Query()
	q.Set(key, value)
	u.RawQuery = q.Encode()
	return u.String()
}
