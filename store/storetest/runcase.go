package storetest

import (
	"testing"

	"github.com/gavelhq/gavel/conversation"
	"github.com/gavelhq/gavel/store"
)

// testRunCase reads each case of a finished run and of a run that never
// finished, one at a time: each is the case as Run gives it (its Case,
// trials, outcome and skip reason), with the run's info, and the ids of
// the cases before and after it.
func testRunCase(t *testing.T, s store.Store) {
	finished, _ := storeMixedRun(t, s)
	crashed, _ := storeCrashedRun(t, s)
	for _, tt := range []struct {
		name  string
		runID string
		order []string // the run's cases, as Run gives them
	}{
		{"finished", finished.ID, []string{"case_001", "case_002", "case_003", "case_004"}},
		{"never finished", crashed.ID, []string{"case_002", "case_001", "case_003"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			ctx := ctx(t)
			whole, err := s.Run(ctx, tt.runID)
			check(t, "Run", err)
			var order []string
			for _, r := range whole.Run.Cases {
				order = append(order, r.ID())
			}
			diff(t, "the cases Run gives", order, tt.order)
			for i, want := range whole.Run.Cases {
				id := want.ID()
				got, err := s.RunCase(ctx, tt.runID, id)
				check(t, "RunCase "+id, err)
				diff(t, "RunCase "+id+": Info", got.Info, whole.Info)
				diff(t, "RunCase "+id+": Result", got.Result, want)
				var prev, next string
				if i > 0 {
					prev = order[i-1]
				}
				if i+1 < len(order) {
					next = order[i+1]
				}
				if got.Prev != prev || got.Next != next {
					t.Errorf("RunCase %s: between %q and %q, want %q and %q", id, got.Prev, got.Next, prev, next)
				}
			}
			_, err = s.RunCase(ctx, tt.runID, "case_404")
			wantNotFound(t, "RunCase of a case the run does not have", err)
		})
	}
}

// testRunVerdicts reads a finished run and one that never finished
// without their transcripts: each is Run's, bar the transcripts and, for
// the run that never finished, its cases' inputs (Run takes them from
// the transcripts).
func testRunVerdicts(t *testing.T, s store.Store) {
	finished, _ := storeMixedRun(t, s)
	crashed, _ := storeCrashedRun(t, s)
	for _, tt := range []struct {
		name     string
		runID    string
		noInputs bool
	}{
		{"finished", finished.ID, false},
		{"never finished", crashed.ID, true},
	} {
		t.Run(tt.name, func(t *testing.T) {
			ctx := ctx(t)
			want, err := s.Run(ctx, tt.runID)
			check(t, "Run", err)
			for i := range want.Run.Cases {
				r := &want.Run.Cases[i]
				for j := range r.Trials {
					r.Trials[j].Transcript = nil
				}
				if tt.noInputs {
					r.Case.Script = conversation.Script{} // Suite.Cases holds the same Case
				}
			}
			got, err := s.RunVerdicts(ctx, tt.runID)
			check(t, "RunVerdicts", err)
			diff(t, "RunVerdicts", got, want)
		})
	}
}
