package gavel_test

import (
	"math"
	"testing"

	"github.com/gavelhq/gavel"
)

func TestFlipRate(t *testing.T) {
	P, F, K := gavel.Passed, gavel.Failed, gavel.Flaky
	for _, tc := range []struct {
		name     string
		outcomes []gavel.Outcome
		rate     float64
		after3   bool // quarantined by quarantine_after: 3
	}{
		{"stable", []gavel.Outcome{P, P, P, P}, 0, false},
		{"failing, stably", []gavel.Outcome{F, F, F}, 0, false},
		{"a regression, once", []gavel.Outcome{P, P, F, F}, 0.25, false},
		{"flipping", []gavel.Outcome{P, F, P, F}, 0.75, true},
		{"flaky in every run", []gavel.Outcome{K, K, K}, 1, true},
		{"flaky, then stable", []gavel.Outcome{K, F, K, P, P}, 0.8, false},
		{"too few runs to quarantine", []gavel.Outcome{K, K}, 1, false},
		{"no runs", nil, 0, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := gavel.FlipRate(tc.outcomes); math.Abs(got-tc.rate) > 1e-12 {
				t.Errorf("FlipRate = %v, want %v", got, tc.rate)
			}
			if got := (gavel.FlakyConfig{QuarantineAfter: 3}).QuarantinedBy(tc.outcomes); got != tc.after3 {
				t.Errorf("QuarantinedBy(3) = %v, want %v", got, tc.after3)
			}
		})
	}
	if (gavel.FlakyConfig{}).QuarantinedBy([]gavel.Outcome{K, K, K, K}) {
		t.Error("a suite without quarantine_after quarantines")
	}
}

// A quarantined case runs and is reported, but is left out of the gate:
// of 10 cases, 8 pass, and of the 2 that fail one is critical, which fails
// the run; quarantined, the 2 fail nothing, and the gate weighs 8 of 8
// against a threshold of 60% (Wilson's interval 67.6–100%: PASS).
func TestQuarantineLeavesTheGate(t *testing.T) {
	run := casesOf(8, 10, 0.6, gavel.GateConfig{})
	run.Cases[9].Case.Critical = true
	if g := run.Gate(); g.Decision != gavel.DecisionFail {
		t.Fatalf("without quarantine: %s, want FAIL for the critical case", g.Decision)
	}
	run.Cases[8].Quarantined, run.Cases[9].Quarantined = "flips on the weekday", "flips"
	s := run.Stats()
	if s.PassRate == nil || *s.PassRate != 1 || len(s.Quarantined) != 2 || s.Cases[gavel.Failed] != 2 || len(s.CriticalFailed) != 0 {
		t.Errorf("pass rate %v, quarantined %v, failed cases %d, critical %v; want 1, both, 2, none", s.PassRate, s.Quarantined, s.Cases[gavel.Failed], s.CriticalFailed)
	}
	if g := run.Gate(); g.Decision != gavel.DecisionPass || !run.Passed() {
		t.Errorf("gate %s, want PASS: the failures are quarantined", g.Decision)
	}
}

// A quarantined case is not compared either: it fails no comparison.
func TestQuarantineLeavesTheComparison(t *testing.T) {
	base, head := flips(40, 12, 1)
	b, h := sharesRun(1, base, "", nil), sharesRun(1, head, "", nil)
	for i := range 12 { // every case that got worse
		h.Cases[i].Quarantined = "flips"
	}
	c := gavel.Compare(b, h)
	if c.Test.Verdict != gavel.ChangeNone || c.Test.Cases != 28 || len(c.NotCompared) != 12 || c.NotCompared[0].WhyNotCompared() != "quarantined in head: flips" {
		t.Errorf("%s over %d cases, %d not compared; want NO SIGNIFICANT CHANGE over 28, 12 quarantined", c.Test.Verdict, c.Test.Cases, len(c.NotCompared))
	}
}

// The noise floor of three runs of one suite: pass rates 0.5, 0.75 and
// 0.5 (mean 0.5833…, sample SD 0.1443…), and the one case that flipped.
//
//	import statistics; statistics.stdev([0.5, 0.75, 0.5])  # 0.14433756729740643
func TestNoiseFloor(t *testing.T) {
	a := sharesRun(1, []int{1, 1, 0, 0}, "", nil)
	b := sharesRun(1, []int{1, 1, 1, 0}, "", nil)
	c := sharesRun(1, []int{1, 1, 0, 0}, "", nil)
	nf := gavel.NoiseFloorOf([]*gavel.Run{a, b, c})
	if nf.Min != 0.5 || nf.Max != 0.75 || math.Abs(nf.SD-0.14433756729740643) > 1e-12 {
		t.Errorf("min %v max %v sd %v", nf.Min, nf.Max, nf.SD)
	}
	if len(nf.Flipped) != 1 || nf.Flipped[0].ID != "c02" || math.Abs(nf.Flipped[0].FlipRate-2.0/3) > 1e-12 {
		t.Errorf("flipped %+v, want c02 at 2/3", nf.Flipped)
	}
}
