package gavel

import (
	"time"
)

// A Run is the result of running a suite: every selected case in suite
// order, whatever order they finished in.
type Run struct {
	Suite *Suite       `json:"-"`
	Cases []CaseResult `json:"cases"`

	Started  time.Time     `json:"started"`
	Duration time.Duration `json:"duration_ns"`
	// Interrupted is true when the run was stopped before every case ran.
	Interrupted bool `json:"interrupted,omitempty"`
}

// Stats are a run's numbers.
type Stats struct {
	// Cases counts the cases by outcome.
	Cases map[Outcome]int `json:"cases"`
	// Trials is how many trials ran.
	Trials int `json:"trials"`
	// PassRate is the mean of the pass rates of the cases that ran.
	PassRate float64 `json:"pass_rate"`
	// PassAtK[k-1] is pass@k: the mean over cases of the chance that at
	// least one of k trials drawn from the case's n passes.
	PassAtK []float64 `json:"pass_at_k,omitempty"`
	// PassHatK[k-1] is pass^k (τ-bench): the mean over cases of the chance
	// that all of k trials drawn pass, C(c,k)/C(n,k) for c passes.
	PassHatK []float64 `json:"pass_hat_k,omitempty"`
	// Usage is what the run spent, by role.
	Usage RoleUsage `json:"usage"`
}

// Stats computes the run's numbers. pass@k and pass^k are given for k up
// to the smallest number of trials of a case that ran.
func (r *Run) Stats() Stats {
	s := Stats{Cases: map[Outcome]int{}}
	var ran []counts
	for i := range r.Cases {
		c := &r.Cases[i]
		s.Cases[c.Outcome]++
		rate, ok := c.PassRate()
		if !ok {
			continue
		}
		s.PassRate += rate
		n := counts{n: len(c.Trials)}
		for _, t := range c.Trials {
			s.Usage = s.Usage.Add(t.Usage)
			if t.Verdict.Passed() {
				n.c++
			}
		}
		s.Trials += n.n
		ran = append(ran, n)
	}
	if len(ran) == 0 {
		return s
	}
	s.PassRate /= float64(len(ran))
	maxK := ran[0].n
	for _, n := range ran {
		maxK = min(maxK, n.n)
	}
	for k := 1; k <= maxK; k++ {
		var at, hat float64
		for _, n := range ran {
			at += 1 - choose(n.n-n.c, k)/choose(n.n, k)
			hat += choose(n.c, k) / choose(n.n, k)
		}
		s.PassAtK = append(s.PassAtK, at/float64(len(ran)))
		s.PassHatK = append(s.PassHatK, hat/float64(len(ran)))
	}
	return s
}

// counts are a case's trials and passes.
type counts struct{ n, c int }

// choose returns the binomial coefficient C(n, k), 0 when k > n.
func choose(n, k int) float64 {
	if k < 0 || k > n {
		return 0
	}
	out := 1.0
	for i := 1; i <= k; i++ {
		out = out * float64(n-k+i) / float64(i)
	}
	return out
}

// Met reports whether the run reached the suite's threshold.
func (r *Run) Met() bool {
	return r.Stats().PassRate >= r.threshold()
}

func (r *Run) threshold() float64 {
	if r.Suite == nil || r.Suite.Threshold == 0 {
		return 1
	}
	return r.Suite.Threshold
}
