package gavel

import (
	"math"
	"strings"

	"github.com/gavelhq/gavel/judge"
)

// Review: what in a verdict calls for a person's eye, for the filters of
// annotation queues (store.QueueFilter): a model judge that was unsure,
// the members of a jury that disagreed, a judge by name.

// UnsureMargin is how near its passing line a model judge's score is
// unsure: within a tenth of its scale (0.65 against 0.7 on 0..1; 3 of a
// 1..5 rubric whose line is 3.4).
const UnsureMargin = 0.1

// stabilityCheck is the check a model judge asked k times records on
// its judgment: passed when its samples agreed.
const stabilityCheck = "stability"

// Unsure reports whether a model judge in verdict v was unsure of its
// judgment: its score within UnsureMargin of the line it had to reach
// (its Threshold, on its score's scale), or its samples disagreed (a
// failed stability check). Rules are never unsure.
func Unsure(v judge.Judgment) bool {
	return anyJudgment(v, func(j judge.Judgment) bool {
		if !ModelJudged(j) {
			return false
		}
		for _, c := range j.Checks {
			if c.Name == stabilityCheck && !c.Passed {
				return true
			}
		}
		t, sc := j.Threshold, j.Score
		if t == nil || t.Of != "" || sc.Kind != judge.Numerical || sc.Max <= sc.Min {
			return false
		}
		for _, line := range []*float64{t.Min, t.Max} {
			if line != nil && math.Abs(t.Value-*line)/(sc.Max-sc.Min) <= UnsureMargin+1e-9 {
				return true
			}
		}
		return false
	})
}

// JuryDisagrees reports whether the members of a jury in verdict v
// disagreed: some passed and some failed (abstentions and errors left
// out).
func JuryDisagrees(v judge.Judgment) bool {
	return anyJudgment(v, func(j judge.Judgment) bool {
		if !isJury(j) {
			return false
		}
		var passed, failed bool
		for _, p := range j.Parts {
			passed = passed || p.Status == judge.StatusPass
			failed = failed || p.Status == judge.StatusFail
		}
		return passed && failed
	})
}

// HasJudge reports whether verdict v has a judgment by that name, or at
// that path ("tiered/jury/tone", see JudgmentAt), anywhere in its tree.
func HasJudge(v judge.Judgment, name string) bool {
	name = strings.TrimSpace(name)
	if name == "" {
		return false
	}
	if _, ok := JudgmentAt(v, name); ok {
		return true
	}
	return anyJudgment(v, func(j judge.Judgment) bool { return j.Name == name })
}

// anyJudgment reports whether f holds of v or of a judgment below it.
func anyJudgment(v judge.Judgment, f func(judge.Judgment) bool) bool {
	if f(v) {
		return true
	}
	for _, p := range v.Parts {
		if anyJudgment(p, f) {
			return true
		}
	}
	return false
}
