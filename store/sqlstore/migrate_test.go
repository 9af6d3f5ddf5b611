package sqlstore

import (
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestStatements(t *testing.T) {
	text := `-- a comment
CREATE TABLE a (
	x INTEGER, -- the x
	y TEXT
);

CREATE INDEX a_x ON a (x);
-- trailing comment
`
	want := []string{"CREATE TABLE a (\n\tx INTEGER, -- the x\n\ty TEXT\n);", "CREATE INDEX a_x ON a (x);"}
	if d := cmp.Diff(want, statements(text)); d != "" {
		t.Errorf("statements (-want +got):\n%s", d)
	}
}

// TestMigrationsInStep checks that the dialects' migrations make the same
// tables with the same columns, and the same indexes, in the same
// versions: the stores must behave alike.
func TestMigrationsInStep(t *testing.T) {
	sqlite, err := loadMigrations(SQLite)
	if err != nil {
		t.Fatal(err)
	}
	postgres, err := loadMigrations(Postgres)
	if err != nil {
		t.Fatal(err)
	}
	if len(sqlite) == 0 || len(sqlite) != len(postgres) {
		t.Fatalf("%d SQLite migrations and %d PostgreSQL ones, want the same number, at least 1", len(sqlite), len(postgres))
	}
	for i := range sqlite {
		if sqlite[i].name != postgres[i].name {
			t.Errorf("migration %d: %s for SQLite, %s for PostgreSQL", i+1, sqlite[i].name, postgres[i].name)
		}
		if d := cmp.Diff(shape(sqlite[i].sql), shape(postgres[i].sql)); d != "" {
			t.Errorf("migration %s differs between SQLite and PostgreSQL (-sqlite +postgres):\n%s", sqlite[i].name, d)
		}
	}
}

var (
	createTable = regexp.MustCompile(`^CREATE TABLE (\w+) \(`)
	createIndex = regexp.MustCompile(`^CREATE (UNIQUE )?INDEX .*$`)
	column      = regexp.MustCompile(`^\s+(\w+)\s`)
)

// shape returns what a migration makes, without the types: each table's
// columns and constraints, and the indexes.
func shape(text string) []string {
	var out []string
	for _, s := range statements(text) {
		lines := strings.Split(s, "\n")
		switch {
		case createTable.MatchString(lines[0]):
			table := createTable.FindStringSubmatch(lines[0])[1]
			for _, l := range lines[1 : len(lines)-1] {
				l, _, _ = strings.Cut(l, "--")
				if m := column.FindStringSubmatch(l); m != nil && !slices.Contains([]string{"PRIMARY", "UNIQUE", "FOREIGN"}, m[1]) {
					out = append(out, table+"."+m[1])
				} else {
					out = append(out, table+": "+strings.TrimSpace(l))
				}
			}
		case createIndex.MatchString(s):
			out = append(out, s)
		default:
			out = append(out, "other: "+s)
		}
	}
	return out
}
