package spec_test

import (
	"database/sql"
	"os"
	"path/filepath"
	"strings"
	"testing"

	_ "modernc.org/sqlite"

	"github.com/gavelhq/gavel/judge"
	"github.com/gavelhq/gavel/spec"
)

// An sql check's dsn reads the environment, as its docs say: the check
// queries the database ${ORDERS_DB} names (it was passed on as written,
// and the check found no such file).
func TestSQLDSNReadsTheEnvironment(t *testing.T) {
	dir := t.TempDir()
	orders := filepath.Join(dir, "elsewhere", "orders.db")
	os.Mkdir(filepath.Dir(orders), 0o755)
	db, err := sql.Open("sqlite", orders)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.Exec(`CREATE TABLE orders (id TEXT, status TEXT); INSERT INTO orders VALUES ('A-1', 'cancelled')`); err != nil {
		t.Fatal(err)
	}
	db.Close()
	os.WriteFile(filepath.Join(dir, "gavel.yaml"), []byte(`name: dsn
agent: {builtin: {model: 'fake:agent'}}
cases:
  - id: a
    input: cancel A-1
    checks: [{sql: {dsn: '${ORDERS_DB}', query: "SELECT status FROM orders WHERE id = 'A-1'", scalar: "= 'cancelled'"}}]
`), 0o644)
	e := testEnv()
	e.Getenv = func(name string) string { return map[string]string{"ORDERS_DB": orders}[name] }
	e.DryRun = true
	b, err := spec.Open(filepath.Join(dir, "gavel.yaml"), e)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	got, err := b.Suite.Cases[0].Judge.Judge(t.Context(), &judge.Transcript{Goal: "cancel A-1", FinalResponse: "done"})
	if err != nil {
		t.Fatal(err)
	}
	if got.Status != judge.StatusPass {
		t.Errorf("%s: %s, want PASS from the database ${ORDERS_DB} names", got.Status, strings.TrimSpace(got.Reasoning))
	}
}
