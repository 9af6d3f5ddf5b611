package rule

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gavelhq/gavel/judge"
)

// wsCase is one row of a table test of a workspace rule: the rule, the
// transcript it judges, and the status and reasoning wanted.
type wsCase struct {
	name       string
	build      func() (judge.Judge, error)
	transcript *judge.Transcript
	wantStatus judge.Status
	// wantIn are substrings the reasoning must hold; wantOut must not be
	// in it.
	wantIn  []string
	wantOut []string
}

// runWSCases runs each case through judge.Run as a subtest.
func runWSCases(t *testing.T, cases []wsCase) {
	t.Helper()
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			j, err := tc.build()
			if err != nil {
				t.Fatalf("building the rule: %v", err)
			}
			got := wsRun(t, j, tc.transcript)
			checkWSJudgment(t, got, tc.wantStatus, tc.wantIn, tc.wantOut)
		})
	}
}

// wsRun runs j on tr with a deadline that only guards against a hang.
func wsRun(t *testing.T, j judge.Judge, tr *judge.Transcript) judge.Judgment {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	return judge.Run(ctx, j, tr)
}

// checkWSJudgment compares a judgment's status and reasoning with what a
// case wants.
func checkWSJudgment(t *testing.T, got judge.Judgment, wantStatus judge.Status, wantIn, wantOut []string) {
	t.Helper()
	if got.Status != wantStatus {
		t.Errorf("status = %s, want %s; reasoning: %s", got.Status, wantStatus, got.Reasoning)
	}
	for _, s := range wantIn {
		if !strings.Contains(got.Reasoning, s) {
			t.Errorf("reasoning = %q, want it to contain %q", got.Reasoning, s)
		}
	}
	for _, s := range wantOut {
		if strings.Contains(got.Reasoning, s) {
			t.Errorf("reasoning = %q, want it not to contain %q", got.Reasoning, s)
		}
	}
}

// wsBuildCase is one row of a table test of a rule's configuration errors.
type wsBuildCase struct {
	name    string
	build   func() (judge.Judge, error)
	wantErr string // a substring of the error
}

func runWSBuildCases(t *testing.T, cases []wsBuildCase) {
	t.Helper()
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			j, err := tc.build()
			if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
				t.Errorf("error = %v, want one containing %q", err, tc.wantErr)
			}
			if j != nil {
				t.Errorf("got a judge with the error, want nil")
			}
		})
	}
}

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
