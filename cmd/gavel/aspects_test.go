package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/gavelhq/gavel/eval"
)

// The text report's response column agrees with the verdict: an any-of
// whose second rule passes passes the response, as it passes the case
// (it said FAIL beside an overall PASS).
func TestResponseColumnAgreesWithTheVerdict(t *testing.T) {
	dir := t.TempDir()
	if code, _, errs := gavelCmd(t, "init", dir); code != eval.ExitPassed {
		t.Fatal(errs)
	}
	suite := filepath.Join(dir, "gavel.yaml")
	data, _ := os.ReadFile(suite)
	os.WriteFile(suite, []byte(strings.Replace(string(data), "{contains: hello, ignore_case: true}", "{any: [{contains: bye}, {contains: Hello}]}", 1)), 0o644)
	code, out, errs := gavelCmd(t, "run", "--no-cache", "--id", "greeting", "--db", filepath.Join(t.TempDir(), "r.db"), "--out", filepath.Join(t.TempDir(), "r.json"), dir)
	if code != eval.ExitPassed {
		t.Fatalf("exit %d\n%s%s", code, out, errs)
	}
	if !regexp.MustCompile(`greeting \| - +\| PASS +\| PASS`).MatchString(out) {
		t.Errorf("the response column:\n%s", out)
	}
}
