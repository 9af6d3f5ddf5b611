package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gavelhq/gavel/eval"
)

// One of the starter suite's two cases fails (starterSuite) at a threshold
// of 50%: the pass rate reaches it, but two cases decide nothing (Wilson's
// 95% interval is 9.5–90.5%), so the verdict is INCONCLUSIVE, and what it
// does is the suite's gate: or --inconclusive's to say. By default the pass
// rate alone decides.
func TestInconclusiveFromASuite(t *testing.T) {
	for _, tc := range []struct {
		name  string
		gate  string // the suite's gate: block
		flags []string
		code  int
		says  string
	}{
		{"the default: the rate decides", "", nil, eval.ExitPassed, "The pass rate alone decides: it reaches the threshold (gate: inconclusive: rate)."},
		{"the suite fails it", "gate: {inconclusive: fail}\n", nil, eval.ExitFailed, "The suite fails an inconclusive run (gate: inconclusive: fail)."},
		{"the suite asks for exit code 6", "gate: {inconclusive: exit}\n", nil, eval.ExitInconclusive, "exit code 6"},
		{"the flag overrides the suite", "gate: {inconclusive: fail}\n", []string{"--inconclusive", "pass"}, eval.ExitPassed, "The suite lets an inconclusive run pass"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir, db := starterSuite(t)
			suite := filepath.Join(dir, "gavel.yaml")
			data, _ := os.ReadFile(suite)
			os.WriteFile(suite, []byte(strings.Replace(string(data), "threshold: 1 ", tc.gate+"threshold: 0.5 ", 1)), 0o644)
			report := filepath.Join(t.TempDir(), "report.json")
			args := append([]string{"run", "--no-cache", "--db", db, "--out", report}, tc.flags...)
			code, out, errs := gavelCmd(t, append(args, dir)...)
			if code != tc.code || !strings.Contains(out, "Threshold: 50% -> overall INCONCLUSIVE") || !strings.Contains(out, tc.says) ||
				!strings.Contains(out, "Pass rate: 50% over 2 cases, 95% interval 9.5–90.5% (Wilson, over cases)") {
				t.Errorf("exit %d, want %d saying %q:\n%s%s", code, tc.code, tc.says, out, errs)
			}
			r := readReport(t, report)
			if iv := r.Stats.PassRateInterval; iv == nil || iv.Method != "wilson" || iv.Level != 0.95 || r.Gate == nil || r.Gate.Decision != "INCONCLUSIVE" {
				t.Errorf("the JSON report's interval %+v and gate %+v", iv, r.Gate)
			}
		})
	}
}
