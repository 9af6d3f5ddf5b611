package report

import (
	"fmt"
	"strings"

	"github.com/gavelhq/gavel"
	"github.com/gavelhq/gavel/judge"
	"github.com/gavelhq/gavel/stats"
)

// unstable lists, for one trial, the judgments whose samples disagreed
// (their "stability" check failed: some samples passed and others
// failed), as "rubric: 3 samples, scores 0.4..0.9: ...". A judge asked k
// times whose verdict flips is not one to gate on, whatever it decided.
func unstable(j judge.Judgment) []string {
	var out []string
	var walk func(j judge.Judgment)
	walk = func(j judge.Judgment) {
		for _, c := range j.Checks {
			if c.Name == "stability" && !c.Passed {
				out = append(out, fmt.Sprintf("%s: %s", j.Name, oneLine(c.Message)))
			}
		}
		for _, p := range j.Parts {
			walk(p)
		}
	}
	walk(j)
	return out
}

// unstableJudges lists the unstable judgments of a run, each with its
// case and trial: "case_003#2 rubric: 3 samples, ...".
func unstableJudges(run *gavel.Run) []string {
	var out []string
	for _, cr := range run.Cases {
		for _, t := range cr.Trials {
			for _, u := range unstable(t.Verdict) {
				out = append(out, fmt.Sprintf("%s#%d %s", cr.ID(), t.N, u))
			}
		}
	}
	return out
}

// passAtK says pass@k for k from 2 (pass@1 is the pass rate): the chance
// that at least one of k trials of a case passes, over the cases; "" for
// runs of one trial a case.
func passAtK(s gavel.Stats) string { return perK(s.PassAtK, s.PassAtKInterval) }

// perK writes values by k, from k=2, each with its interval when ivs has
// one: "k=2 95% (95% interval 80–100%), k=3 97% (...)".
func perK(vals []float64, ivs []stats.Interval) string {
	if len(vals) < 2 {
		return ""
	}
	parts := make([]string, 0, len(vals)-1)
	for i, v := range vals[1:] {
		part := fmt.Sprintf("k=%d %s", i+2, percent(v))
		if i+1 < len(ivs) {
			part += " (" + intervalWords(&ivs[i+1]) + ")"
		}
		parts = append(parts, part)
	}
	return strings.Join(parts, ", ")
}
