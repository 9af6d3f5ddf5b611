package storetest

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/gavelhq/gavel"
	"github.com/gavelhq/gavel/store"
)

// Run runs the conformance suite: a subtest per behaviour of
// store.Store, and of store.Accounts for a store that keeps accounts
// (the others skip those). open returns a new, empty store each time it is called;
// Run closes it.
func Run(t *testing.T, open func(t *testing.T) store.Store) {
	tests := []struct {
		name string
		test func(t *testing.T, s store.Store)
	}{
		{"CaseVersions", testCaseVersions},
		{"CaseVersionsConcurrent", testCaseVersionsConcurrent},
		{"RunLifecycle", testRunLifecycle},
		{"RoundTrip", testRoundTrip},
		{"LargeTranscript", testLargeTranscript},
		{"SaveTrialReplaces", testSaveTrialReplaces},
		{"Batches", testBatches},
		{"Crash", testCrash},
		{"Liveness", testLiveness},
		{"SoFar", testSoFar},
		{"Continues", testContinues},
		{"ImportRun", testImportRun},
		{"Rejudges", testRejudges},
		{"RunCase", testRunCase},
		{"RunVerdicts", testRunVerdicts},
		{"Comparable", testComparable},
		{"Quarantine", testQuarantine},
		{"Queues", testQueues},
		{"Runs", testRuns},
		{"RunsDefaultLimit", testRunsDefaultLimit},
		{"GitDirty", testGitDirty},
		{"RunLabels", testRunLabels},
		{"Shards", testShards},
		{"TraceID", testTraceID},
		{"Times", testTimes},
		{"Trend", testTrend},
		{"TrendTag", testTrendTag},
		{"TrendNothingJudged", testTrendNothingJudged},
		{"Labels", testLabels},
		{"LabelChecks", testLabelChecks},
		{"LabelsOnePerPerson", testLabelsOnePerPerson},
		{"LabelVersions", testLabelVersions},
		{"LabelsOnTheScale", testLabelsOnTheScale},
		{"ConcurrentTrials", testConcurrentTrials},
		{"NotFound", testNotFound},
		{"Users", testUsers},
		{"UsersConcurrent", testUsersConcurrent},
		{"Sessions", testSessions},
		{"ExpiredSessions", testExpiredSessions},
		{"Tokens", testTokens},
		{"TokenScopes", testTokenScopes},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := open(t)
			t.Cleanup(func() {
				if err := s.Close(); err != nil {
					t.Errorf("Close: %v", err)
				}
			})
			tt.test(t, s)
		})
	}
}

// ctx returns a context for one test's calls.
func ctx(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(t.Context(), 2*time.Minute)
	t.Cleanup(cancel)
	return ctx
}

// check fails the test on an error.
func check(t *testing.T, what string, err error) {
	t.Helper()
	if err != nil {
		t.Fatalf("%s: %v", what, err)
	}
}

// wantNotFound fails the test unless err wraps store.ErrNotFound.
func wantNotFound(t *testing.T, what string, err error) {
	t.Helper()
	if !errors.Is(err, store.ErrNotFound) {
		t.Errorf("%s: got error %v, want one wrapping store.ErrNotFound", what, err)
	}
}

// diff fails the test when got and want differ, showing how. The
// heartbeats of runs are left out: every trial saved moves them (testLiveness
// checks them).
func diff(t *testing.T, what string, got, want any, opts ...cmp.Option) {
	t.Helper()
	opts = append(opts, cmpopts.IgnoreFields(store.RunInfo{}, "Heartbeat"))
	if d := cmp.Diff(want, got, opts...); d != "" {
		t.Errorf("%s (-want +got):\n%s", what, d)
	}
}

// stored returns info as the store gives it back: times in UTC, to the
// microsecond.
func stored(info store.RunInfo) store.RunInfo {
	info.Started = storedTime(info.Started)
	info.Ended = storedTime(info.Ended)
	return info
}

func storedTime(t time.Time) time.Time {
	if t.IsZero() {
		return t
	}
	return t.Truncate(time.Microsecond).UTC()
}

// caseView is what reports show of a stored result's Case.
type caseView struct {
	ID, Name, Description string
	Tags                  []string
	Source, Input         string
	Expected              string
}

func viewCase(c *gavel.Case) *caseView {
	if c == nil {
		return nil
	}
	return &caseView{ID: c.ID, Name: c.Name, Description: c.Description, Tags: c.Tags, Source: c.Source, Input: c.Input(), Expected: c.Expected}
}

// resultView is a case result as compared: its Case as reports show it.
type resultView struct {
	Case       *caseView
	Trials     []gavel.Trial
	Outcome    gavel.Outcome
	SkipReason string
}

func viewResults(rs []gavel.CaseResult) []resultView {
	out := make([]resultView, len(rs))
	for i, r := range rs {
		out[i] = resultView{Case: viewCase(r.Case), Trials: r.Trials, Outcome: r.Outcome, SkipReason: r.SkipReason}
	}
	return out
}

// equateEmpty treats nil and empty slices and maps alike.
var equateEmpty = cmpopts.EquateEmpty()
