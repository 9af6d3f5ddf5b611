package judge

import (
	"fmt"
	"strconv"
)

// Recomputed returns j with every status derived again, bottom up, from
// what the judgment records of how it was reached, for a judgment read
// from a file that may have been edited by hand:
//
//   - a composite's status from its parts', by the rule Composite names;
//   - a PASS that its own record contradicts is a FAIL: a boolean score
//     that is false, a Threshold whose value it does not meet.
//
// A judgment whose status changes gets the score its rule gives, and its
// reasoning says that it was recomputed and what it had said; anything
// else is kept as written, and a judgment made by a judge comes back
// unchanged. Rules that need more than the parts (a weighted mean's
// weights, a jury's tie and error policies) are not applied again: their
// Threshold is checked. A FAIL is never made a PASS but by its parts.
func (j Judgment) Recomputed() Judgment {
	if len(j.Parts) > 0 {
		parts := make([]Judgment, len(j.Parts))
		for i, p := range j.Parts {
			parts[i] = p.Recomputed()
		}
		j.Parts = parts
	}
	derived, ok := j.derived()
	if !ok || derived.Status == j.Status {
		return j
	}
	j.Reasoning = fmt.Sprintf("recomputed from what it records (it said %s): %s", j.Status, derived.Reasoning)
	j.Status, j.Score = derived.Status, derived.Score
	return j
}

// derived is what j's record makes of it: its status, score and
// reasoning; false when it records nothing its status could be derived
// from.
func (j Judgment) derived() (Judgment, bool) {
	switch j.Composite {
	case CompositeAll:
		return allOf(j.Name, j.Parts), true
	case CompositeAny:
		return anyOf(j.Name, j.Parts), true
	case CompositeNot:
		if len(j.Parts) == 1 {
			return notOf(j.Parts[0]), true
		}
	case CompositeSoft:
		if len(j.Parts) == 1 {
			return softOf(j.Parts[0]), true
		}
	}
	if j.Status != StatusPass {
		return j, false
	}
	fail := Judgment{Status: StatusFail, Score: j.Score}
	switch th := j.Threshold; {
	case j.Score.Kind == Boolean && !j.Score.Bool:
		fail.Reasoning = "its score is false"
		return fail, true
	case th != nil && th.Below():
		fail.Reasoning = fmt.Sprintf("%s is below its threshold %s", num(th.Value), num(*th.Min))
		return fail, true
	case th != nil && th.Above():
		fail.Reasoning = fmt.Sprintf("%s is above its threshold %s", num(th.Value), num(*th.Max))
		return fail, true
	}
	return j, false
}

// num writes a number of a threshold as briefly as it can.
func num(f float64) string { return strconv.FormatFloat(f, 'g', -1, 64) }
