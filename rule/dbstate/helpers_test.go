package dbstate

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/gavelhq/gavel/judge"
)

// checkCase is one row of a table test: the judge, the transcript it
// judges, and the status and reasoning wanted.
type checkCase struct {
	name       string
	build      func() (judge.Judge, error)
	transcript *judge.Transcript
	wantStatus judge.Status
	// wantIn are substrings the reasoning must hold; wantOut must not be
	// in it.
	wantIn  []string
	wantOut []string
}

func runCheckCases(t *testing.T, cases []checkCase) {
	t.Helper()
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			j, err := tc.build()
			if err != nil {
				t.Fatalf("building the judge: %v", err)
			}
			checkJudgment(t, runJudge(t, j, tc.transcript), tc.wantStatus, tc.wantIn, tc.wantOut)
		})
	}
}

// runJudge runs j on tr with a deadline that only guards against a hang.
func runJudge(t *testing.T, j judge.Judge, tr *judge.Transcript) judge.Judgment {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	return judge.Run(ctx, j, tr)
}

func checkJudgment(t *testing.T, got judge.Judgment, wantStatus judge.Status, wantIn, wantOut []string) {
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

// buildCase is one row of a table test of configuration errors.
type buildCase struct {
	name    string
	build   func() (judge.Judge, error)
	wantErr string // a substring of the error
}

func runBuildCases(t *testing.T, cases []buildCase) {
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

// inWorkspace returns a transcript whose workspace is dir.
func inWorkspace(dir string) *judge.Transcript { return &judge.Transcript{Workspace: dir} }
