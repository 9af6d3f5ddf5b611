package runner_test

import (
	"context"
	"fmt"
	"slices"
	"testing"

	"github.com/gavelhq/gavel"
	"github.com/gavelhq/gavel/runner"
)

// Select runs only the trials it chooses: the others are not run, not
// counted and not reported, and a case none of whose trials it chooses
// is left out of the run, not reported as skipped.
func TestSelectRunsTheChosenTrials(t *testing.T) {
	s := &gavel.Suite{Agent: echo, Trials: 3, Cases: []*gavel.Case{
		prompt("a", "hi", says("hi", nil)),
		prompt("b", "hi", says("hi", nil)),
		prompt("c", "hi", says("hi", nil)),
	}}
	var total int
	run := runner.Run(context.Background(), s, runner.Config{
		Select:  func(caseID string, n int) bool { return caseID == "a" || (caseID == "c" && n == 2) },
		Started: func(n, _ int) { total = n },
	})
	var got []string
	for _, c := range run.Cases {
		for _, tr := range c.Trials {
			got = append(got, fmt.Sprintf("%s#%d", tr.CaseID, tr.N))
		}
	}
	if want := []string{"a#1", "a#2", "a#3", "c#2"}; !slices.Equal(got, want) {
		t.Errorf("trials run: got %v, want %v", got, want)
	}
	if total != 4 {
		t.Errorf("Started's total: got %d, want 4", total)
	}
	if got, want := outcomes(run), "a:PASS c:PASS"; got != want {
		t.Errorf("outcomes: got %s, want %s", got, want)
	}
	if !run.Complete() {
		t.Errorf("the run is incomplete: %s", run.StopReason)
	}
}
