// Package judgetest helps test judges: table tests that build a judge, run
// it on a transcript and compare the verdict and reasoning with what a row
// wants, and tables of configuration errors a constructor must refuse.
//
//	judgetest.RunCases(t, []judgetest.Case{
//		{"mentions the date", build, transcript, judge.StatusPass, []string{"2026-03-15"}, nil},
//	})
package judgetest

import (
	"context"
	"fmt"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/gavelhq/gavel/judge"
)

// A Case is one row of a table test of a judge.
type Case struct {
	Name       string
	Build      func() (judge.Judge, error)
	Transcript *judge.Transcript
	WantStatus judge.Status
	// WantIn are substrings the reasoning must contain; WantOut are
	// substrings it must not.
	WantIn  []string
	WantOut []string
}

// RunCases runs each case as a subtest named for it: it builds the judge,
// runs it through judge.Run and checks the judgment.
func RunCases(t *testing.T, cases []Case) {
	t.Helper()
	for _, tc := range cases {
		t.Run(tc.Name, func(t *testing.T) {
			j, err := tc.Build()
			if err != nil {
				t.Fatalf("building the judge: %v", err)
			}
			Check(t, Run(t, j, tc.Transcript), tc.WantStatus, tc.WantIn, tc.WantOut)
		})
	}
}

// HangGuard bounds how long Run lets a judge take. It guards the test run
// against a judge that hangs; it is no performance target.
const HangGuard = 2 * time.Minute

// Run runs j on tr through judge.Run, with a deadline of HangGuard.
func Run(t testing.TB, j judge.Judge, tr *judge.Transcript) judge.Judgment {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), HangGuard)
	defer cancel()
	return judge.Run(ctx, j, tr)
}

// Check compares a judgment's status and reasoning with what is wanted,
// reporting every difference as got/want.
func Check(t testing.TB, got judge.Judgment, wantStatus judge.Status, wantIn, wantOut []string) {
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

// A BuildErrorCase is one row of a table test of the configuration
// mistakes a judge's constructor must refuse.
type BuildErrorCase struct {
	Name    string
	Build   func() (judge.Judge, error)
	WantErr string // a substring of the error
}

// RunBuildErrorCases checks that each case's constructor returns an error
// containing WantErr, and no judge.
func RunBuildErrorCases(t *testing.T, cases []BuildErrorCase) {
	t.Helper()
	for _, tc := range cases {
		t.Run(tc.Name, func(t *testing.T) {
			j, err := tc.Build()
			if err == nil || !strings.Contains(err.Error(), tc.WantErr) {
				t.Errorf("error = %v, want one containing %q", err, tc.WantErr)
			}
			if j != nil {
				t.Errorf("got a judge with the error, want nil")
			}
		})
	}
}

// CheckThreshold compares the threshold a judgment recorded with want,
// numbers within 1e-9: nil wants none (a judge that compared no number,
// or a verdict reached before any comparison).
func CheckThreshold(t testing.TB, got judge.Judgment, want *judge.Threshold) {
	t.Helper()
	th := got.Threshold
	switch {
	case want == nil && th == nil:
		return
	case want == nil:
		t.Errorf("threshold = %s, want none", FormatThreshold(th))
		return
	case th == nil:
		t.Errorf("threshold = none, want %s", FormatThreshold(want))
		return
	}
	near := func(a, b *float64) bool {
		if a == nil || b == nil {
			return a == b
		}
		return math.Abs(*a-*b) <= 1e-9
	}
	if th.Of != want.Of || th.Unit != want.Unit || !near(&th.Value, &want.Value) || !near(th.Min, want.Min) || !near(th.Max, want.Max) {
		t.Errorf("threshold = %s, want %s", FormatThreshold(th), FormatThreshold(want))
	}
}

// FormatThreshold formats a threshold for a test's message:
// `of "mean" value 6.2 min 6.5 max - unit ""`.
func FormatThreshold(th *judge.Threshold) string {
	if th == nil {
		return "none"
	}
	bound := func(b *float64) string {
		if b == nil {
			return "-"
		}
		return fmt.Sprint(*b)
	}
	return fmt.Sprintf("of %q value %v min %s max %s unit %q", th.Of, th.Value, bound(th.Min), bound(th.Max), th.Unit)
}
