package eval

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// starterSuite writes the starter suite (Init) into a new directory, with
// its greeting case made to fail, and returns the directory and a results
// database beside it.
func starterSuite(t *testing.T) (dir, db string) {
	t.Helper()
	dir = t.TempDir()
	if err := Init(dir); err != nil {
		t.Fatal(err)
	}
	suite := filepath.Join(dir, "gavel.yaml")
	data, _ := os.ReadFile(suite)
	os.WriteFile(suite, []byte(strings.Replace(string(data), "{contains: hello, ignore_case: true}", "{contains: goodbye}", 1)), 0o644)
	return dir, filepath.Join(dir, "results.db")
}

// A suite whose turn comes after a second signal (gavel run with several
// suites) runs nothing, yet is still recorded and reported as an
// incomplete run: the store is written whatever the signals, so the
// exit code is 5, not 3 as if the database had failed.
func TestSuiteAfterSecondSignal(t *testing.T) {
	dir, db := starterSuite(t)
	var stdout, stderr bytes.Buffer
	cancelled, cancel := context.WithCancel(t.Context())
	cancel() // the second signal came while an earlier suite ran
	s := &Session{Options: Options{NoCache: true, DB: db, Outs: []string{filepath.Join(t.TempDir(), "report.json")}}, Stdout: &stdout, Stderr: &stderr}
	if code := s.Run(cancelled, []string{dir}); code != ExitIncomplete {
		t.Errorf("exit %d, want %d:\n%s%s", code, ExitIncomplete, &stdout, &stderr)
	}
	if !strings.Contains(stderr.String(), "is incomplete") {
		t.Errorf("the run was not saved as incomplete:\n%s", &stderr)
	}
}
