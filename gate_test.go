package gavel_test

import (
	"math"
	"testing"

	"github.com/gavelhq/gavel"
	"github.com/gavelhq/gavel/judge"
)

// casesOf returns a run of n cases of one trial each, the first passed
// of them passing, at threshold, weighed as gate says.
func casesOf(passed, n int, threshold float64, gate gavel.GateConfig) *gavel.Run {
	verdicts := make([][]judge.Judgment, n)
	for i := range verdicts {
		verdicts[i] = []judge.Judgment{judge.Verdict(i < passed, "")}
	}
	run := runOf(verdicts...)
	run.Suite = &gavel.Suite{Threshold: threshold, Gate: gate}
	return run
}

// The gate weighs the pass rate with its interval: PASS when the whole
// interval reaches the threshold, FAIL when it lies below, INCONCLUSIVE
// when it straddles it, which passes or not as the suite says.
//
// The intervals are Wilson's at 95%, from statsmodels 0.13.5:
//
//	from statsmodels.stats.proportion import proportion_confint as c
//	for s, n in [(10,11),(7,10),(9,10),(2,10),(95,100),(50,100),(10,10)]:
//	    print(s, n, c(s, n, alpha=0.05, method='wilson'))
func TestGate(t *testing.T) {
	fail, exit, pass := gavel.GateConfig{Inconclusive: gavel.InconclusiveFails}, gavel.GateConfig{Inconclusive: gavel.InconclusiveExits}, gavel.GateConfig{Inconclusive: gavel.InconclusivePasses}
	for _, tc := range []struct {
		name     string
		run      *gavel.Run
		decision gavel.Decision
		passes   bool
		lo, hi   float64
		more     bool // MoreCases is set
	}{
		{"10 of 11 at 80%: the issue's example", casesOf(10, 11, 0.8, gavel.GateConfig{}), gavel.DecisionInconclusive, true, 0.6226415635484044, 0.9837678271141153, true},
		{"10 of 11 at 80%, inconclusive fails", casesOf(10, 11, 0.8, fail), gavel.DecisionInconclusive, false, 0.6226415635484044, 0.9837678271141153, true},
		{"10 of 11 at 80%, inconclusive exits", casesOf(10, 11, 0.8, exit), gavel.DecisionInconclusive, false, 0.6226415635484044, 0.9837678271141153, true},
		{"7 of 10 at 80%, inconclusive passes", casesOf(7, 10, 0.8, pass), gavel.DecisionInconclusive, true, 0.39677814746114537, 0.8922087325936989, true},
		{"7 of 10 at 80%: the rate misses", casesOf(7, 10, 0.8, gavel.GateConfig{}), gavel.DecisionInconclusive, false, 0.39677814746114537, 0.8922087325936989, true},
		{"9 of 10 at 50%", casesOf(9, 10, 0.5, gavel.GateConfig{}), gavel.DecisionPass, true, 0.5958499732047614, 0.982123786904927, false},
		{"2 of 10 at 60%", casesOf(2, 10, 0.6, pass), gavel.DecisionFail, false, 0.056682151454375246, 0.5098375284633583, false},
		{"95 of 100 at 85%", casesOf(95, 100, 0.85, fail), gavel.DecisionPass, true, 0.8882495307680808, 0.9784563208456319, false},
		{"50 of 100 at 50%: no number of cases decides", casesOf(50, 100, 0.5, gavel.GateConfig{}), gavel.DecisionInconclusive, true, 0.4038315303659956, 0.5961684696340044, false},
		{"10 of 10 at 100%: every case passed", casesOf(10, 10, 1, fail), gavel.DecisionPass, true, 0.7224672001371106, 1, false},
		{"10 of 11 at 100%", casesOf(10, 11, 1, pass), gavel.DecisionFail, false, 0.6226415635484044, 0.9837678271141153, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			g := tc.run.Gate()
			if g.Decision != tc.decision || g.Passes != tc.passes {
				t.Errorf("%s, passes %v; want %s, %v", g.Decision, g.Passes, tc.decision, tc.passes)
			}
			if g.Interval == nil || math.Abs(g.Interval.Lo-tc.lo) > 1e-12 || math.Abs(g.Interval.Hi-tc.hi) > 1e-12 {
				t.Errorf("interval %+v, want %v..%v", g.Interval, tc.lo, tc.hi)
			}
			if (g.MoreCases > 0) != tc.more {
				t.Errorf("more cases %d, want some: %v", g.MoreCases, tc.more)
			}
			if got := tc.run.Passed(); got != tc.passes {
				t.Errorf("Passed() = %v, want %v", got, tc.passes)
			}
		})
	}
}

// A run that judged nothing fails its gate, whatever it says of an
// inconclusive verdict: it has no pass rate, and no interval.
func TestGateOfNothingJudged(t *testing.T) {
	run := &gavel.Run{Suite: &gavel.Suite{Threshold: 0.01, Gate: gavel.GateConfig{Inconclusive: gavel.InconclusivePasses}}}
	if g := run.Gate(); g.Decision != gavel.DecisionFail || g.Passes || g.Interval != nil {
		t.Errorf("%+v, want FAIL without an interval", g)
	}
}

func TestParseInconclusive(t *testing.T) {
	for in, want := range map[string]gavel.Inconclusive{"": gavel.InconclusiveByRate, "rate": gavel.InconclusiveByRate, "pass": gavel.InconclusivePasses, "fail": gavel.InconclusiveFails, "exit": gavel.InconclusiveExits} {
		if got, err := gavel.ParseInconclusive(in); got != want || err != nil {
			t.Errorf("ParseInconclusive(%q) = %q, %v; want %q", in, got, err, want)
		}
	}
	if _, err := gavel.ParseInconclusive("maybe"); err == nil {
		t.Error(`ParseInconclusive("maybe"): no error`)
	}
}

// A critical case that fails fails the gate, whatever the pass rate: 95
// of 100 at a threshold of 50% passes, unless one of the 5 failures is
// critical. A critical case that passes changes nothing.
func TestGateOfACriticalFailure(t *testing.T) {
	for _, tc := range []struct {
		name     string
		critical int // the index of the critical case
		decision gavel.Decision
	}{
		{"a critical case passes", 0, gavel.DecisionPass},
		{"a critical case fails", 99, gavel.DecisionFail},
	} {
		t.Run(tc.name, func(t *testing.T) {
			run := casesOf(95, 100, 0.5, gavel.GateConfig{})
			run.Cases[tc.critical].Case.Critical = true
			g := run.Gate()
			if g.Decision != tc.decision || g.Passes != (tc.decision == gavel.DecisionPass) || run.Passed() != g.Passes {
				t.Errorf("%s, passes %v; want %s", g.Decision, g.Passes, tc.decision)
			}
			if want := tc.decision == gavel.DecisionFail; (len(g.Critical) == 1) != want {
				t.Errorf("critical %v", g.Critical)
			}
		})
	}
}

// A bootstrap over one case draws that case every time: its "interval"
// is the case's own share, 33.3–33.3%, which says nothing of what an
// agent does. With fewer than two cases there is no bootstrap interval,
// and the gate says the interval is missing rather than deciding on it.
func TestNoBootstrapOverOneCase(t *testing.T) {
	run := runOf([]judge.Judgment{judge.Verdict(true, ""), judge.Verdict(false, ""), judge.Verdict(false, "")})
	run.Suite = &gavel.Suite{Threshold: 0.5}
	s := run.Stats()
	if s.PassRateInterval != nil || s.PassAtKInterval != nil || s.PassHatKInterval != nil {
		t.Errorf("one case of three trials: intervals %v, %v, %v; want none", s.PassRateInterval, s.PassAtKInterval, s.PassHatKInterval)
	}
	for _, c := range s.Criteria {
		if c.Interval != nil {
			t.Errorf("criterion %s of one case: interval %v, want none", c.Name, c.Interval)
		}
	}
}
