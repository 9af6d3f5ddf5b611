package web

import (
	"testing"

	"github.com/gavelhq/gavel"
	"github.com/gavelhq/gavel/judge"
	"github.com/gavelhq/gavel/store"
)

// The run page and the runs list show a pass rate exactly at its
// threshold as meeting it: (0.7 + 0.7 + 0.7) / 3, the pass rate of 3
// cases passing 7 of 10 trials each, is 0.6999999999999998 in floating
// point, and meets 0.7.
func TestPassRateAtThresholdIsMet(t *testing.T) {
	tests := []struct {
		name      string
		passed    int // of 10 trials, in each of 3 cases
		threshold float64
		want      bool
	}{
		{"7 of 10 at 0.7", 7, 0.7, true},
		{"7 of 10 at 0.71", 7, 0.71, false},
		{"6 of 10 at 0.7", 6, 0.7, false},
		{"10 of 10 with no threshold", 10, 0, true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			run := &gavel.Run{Suite: &gavel.Suite{Name: "support-desk", Threshold: tc.threshold}}
			for _, id := range []string{"a", "b", "c"} {
				cr := gavel.CaseResult{Case: &gavel.Case{ID: id}}
				for n := 1; n <= 10; n++ {
					cr.Trials = append(cr.Trials, gavel.Trial{CaseID: id, N: n, Verdict: judge.Verdict(n <= tc.passed, "")})
				}
				cr.Summarize()
				run.Cases = append(run.Cases, cr)
			}
			info := store.RunInfo{ID: "r1", Suite: "support-desk", Threshold: tc.threshold, Status: store.Passed, Stats: run.Stats()}
			if got := newRunData(&store.StoredRun{Info: info, Run: run}).Met; got != tc.want {
				t.Errorf("run page: Met = %v at pass rate %v, want %v", got, info.Stats.PassRate, tc.want)
			}
			if got := newRunRow(info).Met; got != tc.want {
				t.Errorf("runs list: Met = %v at pass rate %v, want %v", got, info.Stats.PassRate, tc.want)
			}
		})
	}
}
