package gavel

import (
	"fmt"

	"github.com/gavelhq/gavel/judge"
	"github.com/gavelhq/gavel/stats"
)

// A run's pass rate is a sample: run the same agent again and it comes
// out otherwise. The gate therefore weighs the rate with its confidence
// interval (docs/statistics.md): PASS when the whole interval reaches the
// threshold, FAIL when it lies below, INCONCLUSIVE when it straddles it,
// and the suite says what an inconclusive verdict does
// (docs/decisions/0024-an-inconclusive-gate.md).

// GateConfig is how a suite's gate weighs its sample (suite file: gate:).
type GateConfig struct {
	// Confidence is the confidence level of the intervals, between 0 and
	// 1. Defaults to DefaultConfidence.
	Confidence float64 `json:"confidence,omitempty"`
	// Inconclusive is what a verdict the interval cannot decide does.
	// Defaults to InconclusiveByRate.
	Inconclusive Inconclusive `json:"inconclusive,omitempty"`
}

// DefaultConfidence is the confidence level of a run's intervals unless
// its suite sets one: 95%.
const DefaultConfidence = 0.95

// level is the confidence level of c, its default filled in.
func (c GateConfig) level() float64 {
	if c.Confidence > 0 && c.Confidence < 1 {
		return c.Confidence
	}
	return DefaultConfidence
}

// Inconclusive is what an INCONCLUSIVE verdict does to a run.
type Inconclusive string

const (
	// InconclusiveByRate lets the pass rate alone decide, as a gate
	// without intervals did; the reports still say INCONCLUSIVE. The
	// default: no suite starts failing, or passing, for the interval.
	InconclusiveByRate Inconclusive = "rate"
	// InconclusivePasses passes the run.
	InconclusivePasses Inconclusive = "pass"
	// InconclusiveFails fails the run (exit code 1).
	InconclusiveFails Inconclusive = "fail"
	// InconclusiveExits fails the run with an exit code of its own (6).
	InconclusiveExits Inconclusive = "exit"
)

// Inconclusives are the values Inconclusive takes, in the order docs
// list them.
var Inconclusives = []Inconclusive{InconclusiveByRate, InconclusivePasses, InconclusiveFails, InconclusiveExits}

// ParseInconclusive reads an Inconclusive; "" is InconclusiveByRate.
func ParseInconclusive(s string) (Inconclusive, error) {
	if s == "" {
		return InconclusiveByRate, nil
	}
	for _, i := range Inconclusives {
		if string(i) == s {
			return i, nil
		}
	}
	return "", fmt.Errorf("%q: want rate (the pass rate alone decides), pass, fail or exit (exit code 6)", s)
}

// A Decision is the gate's verdict on a run's pass rate.
type Decision string

const (
	// DecisionPass: the interval reaches the threshold (Lo ≥ threshold).
	DecisionPass Decision = "PASS"
	// DecisionFail: the interval lies below the threshold, or nothing
	// was judged.
	DecisionFail Decision = "FAIL"
	// DecisionInconclusive: the interval straddles the threshold: the
	// run's sample does not decide.
	DecisionInconclusive Decision = "INCONCLUSIVE"
)

// A Gate is a run's verdict against its threshold, weighed with the pass
// rate's interval.
type Gate struct {
	// Decision is PASS, FAIL or INCONCLUSIVE.
	Decision Decision `json:"decision"`
	// Threshold is the pass rate the run must reach.
	Threshold float64 `json:"threshold"`
	// PassRate and Interval are the run's (Stats): nil when nothing was
	// judged.
	PassRate *float64        `json:"pass_rate"`
	Interval *stats.Interval `json:"interval,omitempty"`
	// MoreCases is, for an INCONCLUSIVE verdict, about how many more
	// cases at the same pass rate would decide it; 0 when unknown (the
	// rate equals the threshold: no number of cases decides).
	MoreCases int `json:"more_cases,omitempty"`
	// Inconclusive is what an INCONCLUSIVE verdict does (the suite's).
	Inconclusive Inconclusive `json:"inconclusive"`
	// Passes says whether the run passes its gate: PASS does, FAIL does
	// not, and INCONCLUSIVE as Inconclusive says.
	Passes bool `json:"passes"`
	// Critical are the critical cases that failed (Stats.CriticalFailed):
	// any makes the decision FAIL, whatever the pass rate.
	Critical []string `json:"critical,omitempty"`
}

// Gate weighs the run's pass rate against its threshold, with its
// suite's gate configuration (see Stats.Gate). It says nothing of the
// cases that did not run: see Complete.
func (r *Run) Gate() Gate {
	return r.Stats().Gate(r.threshold(), r.gateConfig())
}

// Gate weighs the pass rate against threshold, as c says. A threshold of
// 100% asks that every case pass, which a run shows exactly: it is PASS
// when every judged case passed in every trial, FAIL otherwise, whatever
// the interval. Without a pass rate (nothing was judged), or with a
// critical case that failed, it is FAIL.
func (s Stats) Gate(threshold float64, c GateConfig) Gate {
	g := Gate{Threshold: threshold, PassRate: s.PassRate, Interval: s.PassRateInterval, Inconclusive: c.Inconclusive,
		Critical: s.CriticalFailed}
	if g.Inconclusive == "" {
		g.Inconclusive = InconclusiveByRate
	}
	met := Reaches(s.PassRate, threshold)
	switch {
	case s.PassRate == nil || len(g.Critical) > 0:
		g.Decision = DecisionFail
	case judge.CompareToThreshold(threshold, 1) >= 0 || g.Interval == nil:
		g.Decision = map[bool]Decision{true: DecisionPass, false: DecisionFail}[met]
	// Each bound is compared with the threshold as every number is, give
	// or take rounding (judge.CompareToThreshold): seven of ten in every
	// case is an interval of 0.7 exactly, which reaches 0.7.
	case judge.CompareToThreshold(g.Interval.Lo, threshold) >= 0:
		g.Decision = DecisionPass
	case judge.CompareToThreshold(g.Interval.Hi, threshold) < 0:
		g.Decision = DecisionFail
	default:
		g.Decision = DecisionInconclusive
		g.MoreCases = s.moreCases(threshold, c.level())
	}
	switch g.Decision {
	case DecisionPass:
		g.Passes = true
	case DecisionInconclusive:
		g.Passes = g.Inconclusive == InconclusivePasses || g.Inconclusive == InconclusiveByRate && met
	}
	return g
}

// moreCases estimates how many more cases at the pass rate would make
// its interval clear threshold, counting each judged case as one sample
// (stats.MoreToDecide); 0 when none would.
func (s Stats) moreCases(threshold, level float64) int {
	n := s.CaseCount() - s.Cases[Skipped] // the judged cases
	more, ok := stats.MoreToDecide(int(*s.PassRate*float64(n)+0.5), n, threshold, level)
	if !ok {
		return 0
	}
	return more
}

// gateConfig is the suite's gate configuration; the zero one without a
// suite.
func (r *Run) gateConfig() GateConfig {
	if r.Suite == nil {
		return GateConfig{}
	}
	return r.Suite.Gate
}
