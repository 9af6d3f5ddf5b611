package report

import "github.com/gavelhq/gavel/judge"

// A failure is one line of a verdict's failing branches: a judgment that
// failed or could not judge, at its depth in the tree of named judgments.
type failure struct {
	Depth    int
	Judgment judge.Judgment
	// Leaf is true when the judgment is a reason in itself: none of its
	// parts failed or errored (it has no parts, or it is a composite such
	// as Weighted or Not that failed on its own terms). A composite that
	// is not a leaf only groups the failures under it.
	Leaf bool
}

// failures walks a verdict's tree of parts and returns every judgment on
// a path to a FAIL or ERROR, in order, so that reports put all of the
// judges' reasons in one place. Unnamed composites ("") are passed
// through without a line of their own. A verdict that passed (or
// abstained) has no failures.
func failures(v judge.Judgment) []failure {
	var out []failure
	var walk func(j judge.Judgment, depth int)
	walk = func(j judge.Judgment, depth int) {
		if !failed(j) {
			return
		}
		var bad []judge.Judgment
		for _, p := range j.Parts {
			if failed(p) {
				bad = append(bad, p)
			}
		}
		if len(bad) == 0 {
			out = append(out, failure{Depth: depth, Judgment: j, Leaf: true})
			return
		}
		if j.Name != "" {
			out = append(out, failure{Depth: depth, Judgment: j})
			depth++
		}
		for _, p := range bad {
			walk(p, depth)
		}
	}
	walk(v, 0)
	return out
}

// everyJudgment walks a verdict's tree of parts and returns every named
// judgment, passed ones too, in order: what a verbose report shows of a
// trial. Unnamed composites are passed through, as in failures; a leaf is
// a judgment without parts.
func everyJudgment(v judge.Judgment) []failure {
	var out []failure
	var walk func(j judge.Judgment, depth int)
	walk = func(j judge.Judgment, depth int) {
		if j.Name != "" || len(j.Parts) == 0 {
			out = append(out, failure{Depth: depth, Judgment: j, Leaf: len(j.Parts) == 0})
			depth++
		}
		for _, p := range j.Parts {
			walk(p, depth)
		}
	}
	walk(v, 0)
	return out
}

// failed reports whether j failed or could not judge.
func failed(j judge.Judgment) bool {
	return j.Status == judge.StatusFail || j.Status == judge.StatusError
}

// firstReason returns the first reason a verdict did not pass, on one
// line ("name: reasoning"), or "" when it passed.
func firstReason(v judge.Judgment) string {
	for _, f := range failures(v) {
		if f.Leaf {
			return oneLine(f.Judgment.Summary())
		}
	}
	return ""
}

// FirstReason is the first reason a verdict failed or erred, as reports
// show it: the summary (name: reasoning) of the first judgment at the end
// of a failing branch, on one line; "" when the verdict passed.
func FirstReason(v judge.Judgment) string { return firstReason(v) }
