package postgres_test

import (
	"context"
	"errors"
	"fmt"
	"net"
	"strings"
	"testing"
	"time"

	"github.com/gavelhq/gavel/internal/pgtest"
	"github.com/gavelhq/gavel/store"
	"github.com/gavelhq/gavel/store/postgres"
	"github.com/gavelhq/gavel/store/sqlstore"
	"github.com/gavelhq/gavel/store/storetest"
)

func open(t testing.TB, dsn string) *sqlstore.DB {
	t.Helper()
	s, err := postgres.Open(context.Background(), dsn)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func TestStore(t *testing.T) {
	pgtest.URL(t)
	storetest.Run(t, func(t *testing.T) store.Store {
		return open(t, pgtest.Schema(t))
	})
}

func BenchmarkStore(b *testing.B) {
	pgtest.URL(b)
	storetest.Benchmark(b, func(b *testing.B) store.Store {
		return open(b, pgtest.Schema(b))
	})
}

// TestUnreachable connects to a port nothing listens on: the error names
// the host and port, and not the password.
func TestUnreachable(t *testing.T) {
	tests := []struct {
		name string
		dsn  string
		want string
	}{
		{"url", "postgres://gavel:s3cr3t-pw@127.0.0.1:1/gavel?sslmode=disable&connect_timeout=2", "store: cannot connect to PostgreSQL at 127.0.0.1:1: "},
		{"key=value", "host=127.0.0.1 port=1 user=gavel password=s3cr3t-pw dbname=gavel sslmode=disable", "store: cannot connect to PostgreSQL at 127.0.0.1:1: "},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			start := time.Now()
			_, err := postgres.Open(context.Background(), tt.dsn)
			if err == nil || !strings.HasPrefix(err.Error(), tt.want) {
				t.Fatalf("Open: %v\nwant an error starting %q", err, tt.want)
			}
			if strings.Contains(err.Error(), "s3cr3t-pw") {
				t.Errorf("the error shows the password: %v", err)
			}
			if d := time.Since(start); d > 10*time.Second {
				t.Errorf("Open took %v, want at most 5s and a little", d)
			}
			t.Logf("Open: %v", err)
		})
	}
}

// TestNoAnswer connects to a server that accepts the connection and
// never answers: Open gives up, naming the host and port.
func TestNoAnswer(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	go func() {
		for {
			c, err := l.Accept()
			if err != nil {
				return
			}
			defer c.Close() // held open, unanswered, until the test ends
		}
	}()
	defer postgres.SetConnectTimeout(300 * time.Millisecond)()
	_, err = postgres.Open(context.Background(), "postgres://gavel:s3cr3t-pw@"+l.Addr().String()+"/gavel?sslmode=disable")
	want := "store: cannot connect to PostgreSQL at " + l.Addr().String() + ": no answer within 300ms"
	if err == nil || err.Error() != want {
		t.Fatalf("Open: %v\nwant: %s", err, want)
	}
}

// TestBadDSN opens a DSN that does not parse: the error says so, without
// the password.
func TestBadDSN(t *testing.T) {
	_, err := postgres.Open(context.Background(), "postgres://gavel:s3cr3t-pw@127.0.0.1:notaport/gavel")
	if err == nil || !strings.HasPrefix(err.Error(), "store: PostgreSQL DSN: ") || strings.Contains(err.Error(), "s3cr3t-pw") {
		t.Fatalf("Open: %v, want an error about the DSN, without the password", err)
	}
}

// TestNewerSchema opens a database a newer Gavel wrote: it is refused,
// with what to do, and left as it was.
func TestNewerSchema(t *testing.T) {
	dsn := pgtest.Schema(t)
	s := open(t, dsn)
	ctx := context.Background()
	_, latest, err := s.Version(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.SQL().Exec("INSERT INTO schema_version (version, applied_us) VALUES ($1, 0)", latest+1); err != nil {
		t.Fatal(err)
	}
	s.Close()
	_, err = postgres.Open(ctx, dsn)
	var newer *sqlstore.NewerSchemaError
	if !errors.As(err, &newer) || !strings.HasPrefix(err.Error(), "store: open PostgreSQL at ") ||
		!strings.HasSuffix(err.Error(), fmt.Sprintf("this database was written by a newer Gavel (schema %d, this Gavel knows %d): upgrade Gavel", latest+1, latest)) {
		t.Fatalf("Open: %v, want a *sqlstore.NewerSchemaError naming the server", err)
	}
}

// TestConcurrentMigrations opens one empty database from several
// processes at once (stores, here): they take turns, and all succeed.
func TestConcurrentMigrations(t *testing.T) {
	dsn := pgtest.Schema(t)
	const n = 4
	errs := make(chan error, n)
	for range n {
		go func() {
			s, err := postgres.Open(context.Background(), dsn)
			if err == nil {
				s.Close()
			}
			errs <- err
		}()
	}
	for range n {
		if err := <-errs; err != nil {
			t.Error(err)
		}
	}
}
