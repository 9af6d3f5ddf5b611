package gavel

import "math"

// A case that passes in one run and fails in the next, with nothing
// changed, is flaky: its agent or its judge answers differently each
// time. Gavel measures how often a case does that over a suite's recent
// runs, and a suite may take its unstable cases out of the gate until they
// are stable again (docs/statistics.md, "Flaky cases and the noise
// floor").

// FlakyConfig is how a suite treats its unstable cases (suite file:
// flaky:).
type FlakyConfig struct {
	// QuarantineAfter, when positive, quarantines a case that was
	// unstable (Unstable) in each of its last QuarantineAfter runs: it
	// runs and is reported, but does not gate, until one of its last
	// QuarantineAfter runs is stable again. 0 quarantines nothing by
	// itself.
	QuarantineAfter int `json:"quarantine_after,omitempty"`
}

// Unstable reports, of a case's outcomes in consecutive runs (oldest
// first; PASS, FAIL or FLAKY, runs that did not judge it left out), which
// runs found it unstable: FLAKY (its trials disagreed), or not as in the
// run before (PASS then FAIL, FAIL then PASS or FLAKY...).
func Unstable(outcomes []Outcome) []bool {
	out := make([]bool, len(outcomes))
	for i, o := range outcomes {
		out[i] = o == Flaky || i > 0 && o != outcomes[i-1]
	}
	return out
}

// FlipRate is the share of a case's runs (outcomes, oldest first, as
// Unstable takes them) that found it unstable; 0 without runs.
func FlipRate(outcomes []Outcome) float64 {
	if len(outcomes) == 0 {
		return 0
	}
	n := 0
	for _, u := range Unstable(outcomes) {
		if u {
			n++
		}
	}
	return float64(n) / float64(len(outcomes))
}

// QuarantinedBy reports whether c quarantines a case of these outcomes
// (oldest first): it was unstable in each of its last QuarantineAfter
// runs.
func (c FlakyConfig) QuarantinedBy(outcomes []Outcome) bool {
	n := c.QuarantineAfter
	if n <= 0 || len(outcomes) < n {
		return false
	}
	for _, u := range Unstable(outcomes)[len(outcomes)-n:] {
		if !u {
			return false
		}
	}
	return true
}

// Judged keeps the outcomes that judged their case: PASS, FAIL or FLAKY.
func Judged(outcomes []Outcome) []Outcome {
	var out []Outcome
	for _, o := range outcomes {
		if o == Passed || o == Failed || o == Flaky {
			out = append(out, o)
		}
	}
	return out
}

// A NoiseFloor is how much runs of one suite differ when nothing changed
// between them (an A/A test: gavel run --repeat K): the spread of their
// pass rates, and the cases that flipped.
type NoiseFloor struct {
	// PassRates are the runs' pass rates, in order; a run that judged
	// nothing is left out.
	PassRates []float64 `json:"pass_rates"`
	// Min and Max bound them, and SD is their sample standard deviation
	// (0 with fewer than two).
	Min float64 `json:"min"`
	Max float64 `json:"max"`
	SD  float64 `json:"sd"`
	// Flipped are the cases whose outcome was not the same in every run,
	// in suite order, with their outcomes run by run and flip rates.
	Flipped []CaseFlips `json:"flipped"`
}

// CaseFlips is a case's outcomes over runs of one suite.
type CaseFlips struct {
	ID       string    `json:"id"`
	Outcomes []Outcome `json:"outcomes"`
	FlipRate float64   `json:"flip_rate"`
}

// NoiseFloorOf measures the noise floor of runs of one suite: its A/A
// spread.
func NoiseFloorOf(runs []*Run) NoiseFloor {
	var nf NoiseFloor
	var order []string
	outcomes := map[string][]Outcome{}
	for _, r := range runs {
		if rate := r.Stats().PassRate; rate != nil {
			nf.PassRates = append(nf.PassRates, *rate)
		}
		for i := range r.Cases {
			id := r.Cases[i].ID()
			if _, seen := outcomes[id]; !seen {
				order = append(order, id)
			}
			outcomes[id] = append(outcomes[id], r.Cases[i].Outcome)
		}
	}
	if len(nf.PassRates) > 0 {
		nf.Min, nf.Max = nf.PassRates[0], nf.PassRates[0]
		var sum float64
		for _, p := range nf.PassRates {
			nf.Min, nf.Max, sum = min(nf.Min, p), max(nf.Max, p), sum+p
		}
		if n := float64(len(nf.PassRates)); n > 1 {
			mean, ss := sum/n, 0.0
			for _, p := range nf.PassRates {
				ss += (p - mean) * (p - mean)
			}
			nf.SD = math.Sqrt(ss / (n - 1))
		}
	}
	for _, id := range order {
		judged := Judged(outcomes[id])
		if rate := FlipRate(judged); rate > 0 {
			nf.Flipped = append(nf.Flipped, CaseFlips{ID: id, Outcomes: outcomes[id], FlipRate: rate})
		}
	}
	return nf
}
