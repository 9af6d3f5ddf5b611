package report

import (
	"fmt"
	"strings"

	"github.com/gavelhq/gavel"
	"github.com/gavelhq/gavel/stats"
)

// intervalWords says an interval in words: "95% interval 62.3–98.4%";
// "" for none.
func intervalWords(iv *stats.Interval) string {
	if iv == nil {
		return ""
	}
	lo, hi := percent(iv.Lo), percent(iv.Hi)
	return fmt.Sprintf("%s interval %s–%s", percent(iv.Level), lo[:len(lo)-1], hi)
}

// methodWords names how an interval was computed, for readers.
func methodWords(iv *stats.Interval) string {
	switch iv.Method {
	case stats.MethodWilson:
		return "Wilson, over cases"
	case stats.MethodBootstrap:
		return "bootstrap over cases"
	}
	return iv.Method
}

// rateInterval is a pass rate's interval, to follow it: ", 95% interval
// 62.3–98.4% (Wilson, over cases)"; "" without one.
func rateInterval(iv *stats.Interval) string {
	if iv == nil {
		return ""
	}
	return ", " + intervalWords(iv) + " (" + methodWords(iv) + ")"
}

// gateNote says, for a verdict the run's sample did not decide
// (INCONCLUSIVE), why, what would decide it, and what the verdict does;
// for a run failed by its critical cases, which; "" for any other.
func gateNote(run *gavel.Run) string {
	if !run.Complete() {
		return ""
	}
	g := run.Gate()
	if len(g.Critical) > 0 {
		ids := make([]string, len(g.Critical))
		for i, id := range g.Critical {
			ids[i] = oneLine(id)
		}
		return fmt.Sprintf("Failed by its critical cases (%s): a case marked critical: true fails the gate on any failure, whatever the pass rate.",
			strings.Join(ids, ", "))
	}
	if g.Decision != gavel.DecisionInconclusive {
		return ""
	}
	s := fmt.Sprintf("Inconclusive: the pass rate's %s straddles the threshold %s: the run's %d cases do not decide",
		intervalWords(g.Interval), percent(g.Threshold), judgedCases(run))
	if g.MoreCases > 0 {
		s += fmt.Sprintf("; about %d more cases at this pass rate would", g.MoreCases)
	}
	switch g.Inconclusive {
	case gavel.InconclusivePasses:
		s += ". The suite lets an inconclusive run pass (gate: inconclusive: pass)."
	case gavel.InconclusiveFails:
		s += ". The suite fails an inconclusive run (gate: inconclusive: fail)."
	case gavel.InconclusiveExits:
		s += ". The suite fails an inconclusive run with exit code 6 (gate: inconclusive: exit)."
	default:
		s += fmt.Sprintf(". The pass rate alone decides: it %s the threshold (gate: inconclusive: rate).", map[bool]string{true: "reaches", false: "misses"}[run.Met()])
	}
	return s
}

// quarantinedCases says, of each quarantined case of the run, why it was
// left out of the gate, on one line: "case_004 (unstable in each of its
// last 3 runs ...): FAIL 0/1, not counted".
func quarantinedCases(run *gavel.Run) []string {
	var out []string
	for i := range run.Cases {
		cr := &run.Cases[i]
		if cr.Quarantined == "" {
			continue
		}
		out = append(out, fmt.Sprintf("%s (%s): %s, left out of the gate", oneLine(cr.ID()), oneLine(cr.Quarantined), cr.Outcome))
	}
	return out
}

// judgedCases counts the run's cases that have a pass rate and gate.
func judgedCases(run *gavel.Run) int {
	n := 0
	for i := range run.Cases {
		if _, ok := run.Cases[i].PassRate(); ok && run.Cases[i].Quarantined == "" {
			n++
		}
	}
	return n
}

// correctedLine says the pass rate corrected for the judge's errors, on
// one line; "" when people's labels do not tell them.
func correctedLine(s gavel.Stats) string {
	c := s.CorrectedPassRate
	if c == nil {
		return ""
	}
	return fmt.Sprintf("Corrected for the judge's errors: %s, %s (Rogan–Gladen over trials, from %d people's labels: the judge passes %s of what people pass and fails %s of what they fail)",
		percent(c.Rate), intervalWords(&c.Interval), c.Labels, percent(c.Sensitivity), percent(c.Specificity))
}
