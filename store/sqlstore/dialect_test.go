package sqlstore

import "testing"

func TestRebind(t *testing.T) {
	tests := []struct {
		name  string
		d     Dialect
		query string
		want  string
	}{
		{"sqlite keeps ?", SQLite, "SELECT a FROM t WHERE b = ? AND c = ?", "SELECT a FROM t WHERE b = ? AND c = ?"},
		{"postgres numbers", Postgres, "SELECT a FROM t WHERE b = ? AND c = ?", "SELECT a FROM t WHERE b = $1 AND c = $2"},
		{"no placeholders", Postgres, "SELECT 1", "SELECT 1"},
		{"in a string", Postgres, "SELECT '?', ? FROM t WHERE x = 'it''s ?' AND y = ?", "SELECT '?', $1 FROM t WHERE x = 'it''s ?' AND y = $2"},
		{"in an identifier", Postgres, `SELECT "a?" FROM t WHERE b = ?`, `SELECT "a?" FROM t WHERE b = $1`},
		{"ten and more", Postgres, "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", "VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := tt.d.rebind(tt.query); got != tt.want {
				t.Errorf("rebind(%q)\ngot  %q\nwant %q", tt.query, got, tt.want)
			}
		})
	}
}

func TestPlaceholders(t *testing.T) {
	for n, want := range map[int]string{0: "", 1: "?", 3: "?, ?, ?"} {
		if got := placeholders(n); got != want {
			t.Errorf("placeholders(%d) = %q, want %q", n, got, want)
		}
	}
}
