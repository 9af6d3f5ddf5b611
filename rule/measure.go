package rule

import (
	"fmt"

	"github.com/gavelhq/gavel/judge"
)

// The rules that compare a number with a limit (the slowest turn's
// latency, the agent's turns, cost and tokens, a reply's length, its
// bubbles and questions) record the number and the limit as the
// judgment's threshold, so that reports say "bubbles 4, above its limit
// 2" from data.

// bounds are what a measuring rule allows of its number.
type bounds struct {
	of       string   // what is measured: "bubbles", "slowest agent turn"
	min, max *float64 // the least and the most that pass; nil for none
	unit     string   // "s", "USD" or "" (see judge.Threshold)
}

// atMost are the bounds of a limit: at most max of what of names.
func atMost(of string, max float64, unit string) bounds {
	return bounds{of: of, max: &max, unit: unit}
}

// threshold returns the threshold of value against b, with bounds of its
// own.
func (b bounds) threshold(value float64) *judge.Threshold {
	th := &judge.Threshold{Of: b.of, Value: value, Unit: b.unit}
	if b.min != nil {
		th.Min = new(*b.min)
	}
	if b.max != nil {
		th.Max = new(*b.max)
	}
	return th
}

// A measured is one passage's number, and whether it passed.
type measured struct {
	ok    bool
	value float64
}

// decides reports whether m, measured after than, is the passage whose
// threshold a judgment records: the first that failed, else the one
// nearest a bound (the largest against a limit, else the smallest).
func (b bounds) decides(m measured, than *measured) bool {
	switch {
	case than == nil:
		return true
	case !than.ok:
		return false
	case !m.ok:
		return true
	case b.max != nil:
		return m.value > than.value
	}
	return m.value < than.value
}

// limitRule builds a rule over the whole transcript that measures it and
// compares the number with b: check returns whether it passed, why, and
// the number.
func limitRule(name string, b bounds, check func(*judge.Transcript) (bool, string, float64)) judge.Judge {
	return transcriptRule(name, limitJudgment(name, b, check))
}

// limitJudgment is what limitRule judges a transcript with.
func limitJudgment(name string, b bounds, check func(*judge.Transcript) (bool, string, float64)) func(*judge.Transcript) judge.Judgment {
	return func(t *judge.Transcript) judge.Judgment {
		ok, msg, value := check(t)
		j := verdict(name, ok, msg)
		j.Threshold = b.threshold(value)
		return j
	}
}

// spendingRule is limitRule for a limit on what the agent spent (allowed
// says what, "at most 1000 tokens"): an agent that did not report all it
// spent (judge.Usage.Unreported) spent what nobody knows, which is not 0,
// so the limit cannot be checked, and the judgment is an ERROR.
func spendingRule(name, allowed string, b bounds, check func(*judge.Transcript) (bool, string, float64)) judge.Judge {
	limit := limitJudgment(name, b, check)
	return transcriptRule(name, func(t *judge.Transcript) judge.Judgment {
		if t.Usage.Unreported {
			return judge.Judgment{Name: name, Status: judge.StatusError,
				Reasoning: "the agent did not report all it spent (its replies gave no token count), so " + allowed + " cannot be checked"}
		}
		return limit(t)
	})
}

// measuredRule is passageRule for a rule that measures each passage and
// compares the number with b: check returns whether the passage passed,
// why, and the number. The judgment records the threshold of the passage
// that decided (see bounds.decides).
func measuredRule(name string, scope Scope, b bounds, check func(passage) (bool, string, float64)) (judge.Judge, error) {
	if err := checkScope(scope); err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	return transcriptRule(name, func(t *judge.Transcript) judge.Judgment {
		var decided *measured
		j := eachPassage(name, t, scope, func(p passage) (bool, string) {
			ok, msg, value := check(p)
			if m := (measured{ok: ok, value: value}); b.decides(m, decided) {
				decided = &m
			}
			return ok, msg
		})
		if decided != nil {
			j.Threshold = b.threshold(decided.value)
		}
		return j
	}), nil
}
