package rule

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/gavelhq/gavel/judge"
)

// wsWrite writes a file under dir, creating its directories.
func wsWrite(t *testing.T, dir, name, content string) string {
	t.Helper()
	path := filepath.Join(dir, name)
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// wsIn returns a transcript whose workspace is dir.
func wsIn(dir string) *judge.Transcript { return &judge.Transcript{Workspace: dir} }
