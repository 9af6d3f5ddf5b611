package judge

import (
	"context"
	"errors"
	"fmt"
	"math"
	"strings"
)

// All passes when every judge passes.
//
// Every judge runs, in order, so that a report lists every failure; use
// Tiered to keep expensive judges from running after a cheap one failed.
// The verdict is FAIL if any part failed (even if another could not judge:
// the outcome is known), else ERROR if any part could not judge, else PASS
// if any part passed, else ABSTAIN (no judges, or all abstained). The score
// of a PASS or FAIL is the mean normalised score of the parts that passed
// or failed; an ERROR or ABSTAIN has no score.
func All(judges ...Judge) Judge {
	return Func(func(ctx context.Context, t *Transcript) (Judgment, error) {
		parts, err := runInOrder(ctx, t, judges, nil)
		if err != nil {
			return spent("all", parts), err
		}
		return allOf("all", parts), nil
	})
}

// Any passes when at least one judge passes. Judges run in order and the
// first PASS ends it: the judges after it are not run.
//
// Without a PASS, the verdict is ERROR if any part could not judge (it might
// have passed), else FAIL if any part failed, else ABSTAIN. The score of a
// PASS or FAIL is the highest normalised score among the parts that passed
// or failed; an ERROR or ABSTAIN has no score.
func Any(judges ...Judge) Judge {
	return Func(func(ctx context.Context, t *Transcript) (Judgment, error) {
		parts, err := runInOrder(ctx, t, judges, Judgment.Passed)
		if err != nil {
			return spent("any", parts), err
		}
		return anyOf("any", parts), nil
	})
}

// anyOf combines parts under Any's rule.
func anyOf(name string, parts []Judgment) Judgment {
	out := Judgment{Name: name, Composite: CompositeAny, Parts: parts}
	best, counted := 0.0, false
	for _, p := range parts {
		out.Usage = out.Usage.Add(p.Usage)
		if v, ok := p.Normalized(); ok && (!counted || v > best) {
			best, counted = v, true
		}
	}
	switch failed, errored, passed := sortParts(parts); {
	case len(passed) > 0:
		out.Status, out.Reasoning = StatusPass, "passed: "+passed[0].Summary()
	case len(errored) > 0:
		out.Status, out.Reasoning = StatusError, "no judge passed and some could not judge: "+describeAll(errored)
	case len(failed) > 0:
		out.Status, out.Reasoning = StatusFail, fmt.Sprintf("none of %d passed: %s", len(failed), describeAll(failed))
	default:
		out.Status, out.Reasoning = StatusAbstain, abstainReason(len(parts))
	}
	if counted && judged(out.Status) {
		out.Score = Unit(best)
	}
	return out
}

// Not inverts a judge: PASS becomes FAIL and FAIL becomes PASS, with the
// score mirrored. ABSTAIN and ERROR stay as they are.
func Not(j Judge) Judge {
	return Func(func(ctx context.Context, t *Transcript) (Judgment, error) {
		inner, err := j.Judge(ctx, t)
		if err != nil {
			return spent("not "+inner.Name, []Judgment{inner}), err
		}
		return notOf(inner), nil
	})
}

// notOf inverts inner under Not's rule.
func notOf(inner Judgment) Judgment {
	out := Judgment{Name: "not " + inner.Name, Composite: CompositeNot, Status: inner.Status, Reasoning: inner.Reasoning, Parts: []Judgment{inner}, Usage: inner.Usage}
	switch inner.Status {
	case StatusPass:
		out.Status, out.Reasoning = StatusFail, "expected the opposite of: "+inner.Reasoning
	case StatusFail:
		out.Status, out.Reasoning = StatusPass, "as expected, "+inner.Reasoning
	}
	switch v, counted := inner.Normalized(); {
	case inner.Score.Kind == Boolean:
		out.Score = Bool(!inner.Score.Bool)
	case counted:
		out.Score = Unit(1 - v)
	}
	return out
}

// Named gives a judge the name that reports show for it.
func Named(name string, j Judge) Judge {
	return Func(func(ctx context.Context, t *Transcript) (Judgment, error) {
		out, err := j.Judge(ctx, t)
		if err != nil {
			return Judgment{Name: name, Usage: out.Usage}, fmt.Errorf("%s: %w", name, err)
		}
		out.Name = name
		return out, nil
	})
}

// Soft turns a judge's FAIL into a finding: the judgment becomes a PASS
// that carries the failure's reasoning in Findings (and the original
// judgment as its only part). Tiered hands findings to the judges of later
// tiers, so an LLM judge can weigh what a cheap rule noticed ("the reply
// used 4 paragraphs where 3 are allowed") without the rule failing the case.
// PASS, ABSTAIN and ERROR are returned unchanged: a soft judge that could not
// judge is still reported.
func Soft(j Judge) Judge {
	return Func(func(ctx context.Context, t *Transcript) (Judgment, error) {
		inner, err := j.Judge(ctx, t)
		if err != nil {
			return inner, err
		}
		return softOf(inner), nil
	})
}

// softOf turns inner's FAIL into a finding under Soft's rule, and
// returns any other judgment as it is.
func softOf(inner Judgment) Judgment {
	if inner.Status != StatusFail {
		return inner
	}
	return Judgment{
		Name:      inner.Name,
		Composite: CompositeSoft,
		Status:    StatusPass,
		Reasoning: "soft finding: " + inner.Reasoning,
		Findings:  []Finding{{Judge: inner.Name, Message: inner.Reasoning}},
		Parts:     []Judgment{inner},
		Usage:     inner.Usage,
	}
}

// A Weight pairs a judge with its weight in Weighted.
type Weight struct {
	Judge  Judge
	Weight float64
}

// Weighted passes when the weighted mean of its parts' normalised scores is
// at least threshold (0..1). Parts that abstain are left out of the mean;
// if any part could not judge, the verdict is ERROR, since the mean cannot
// be computed. It is an error, reported now rather than at judging time,
// for the threshold to lie outside 0..1, for a weight to be negative or not
// finite, or for the weights to add up to zero.
func Weighted(threshold float64, parts ...Weight) (Judge, error) {
	if len(parts) == 0 {
		return nil, errors.New("weighted: no judges given")
	}
	if math.IsNaN(threshold) || threshold < 0 || threshold > 1 {
		return nil, fmt.Errorf("weighted: threshold %v must lie in 0..1", threshold)
	}
	var total float64
	for i, p := range parts {
		if p.Judge == nil {
			return nil, fmt.Errorf("weighted: judge %d is nil", i+1)
		}
		if math.IsNaN(p.Weight) || math.IsInf(p.Weight, 0) || p.Weight < 0 {
			return nil, fmt.Errorf("weighted: judge %d has weight %v; weights must be finite and not negative", i+1, p.Weight)
		}
		total += p.Weight
	}
	if total == 0 {
		return nil, errors.New("weighted: the weights add up to zero")
	}
	judges := make([]Judge, len(parts))
	for i, p := range parts {
		judges[i] = p.Judge
	}
	return Func(func(ctx context.Context, t *Transcript) (Judgment, error) {
		results, err := runInOrder(ctx, t, judges, nil)
		if err != nil {
			return spent("weighted", results), err
		}
		out := Judgment{Name: "weighted", Parts: results}
		var sum, weights float64
		for i, r := range results {
			out.Usage = out.Usage.Add(r.Usage)
			if v, ok := r.Normalized(); ok {
				sum += parts[i].Weight * v
				weights += parts[i].Weight
			}
		}
		if _, errored, _ := sortParts(results); len(errored) > 0 {
			out.Status, out.Reasoning = StatusError, "cannot compute the weighted mean: "+describeAll(errored)
			return out, nil
		}
		if weights == 0 {
			out.Status, out.Reasoning = StatusAbstain, "every judge with a weight abstained"
			return out, nil
		}
		mean := sum / weights
		out.Score = Unit(mean)
		out.Threshold = AtLeast(mean, threshold)
		out.Threshold.Of = "weighted mean"
		if out.Threshold.Met() { // with its slack, as every judge compares a number with its threshold
			out.Status, out.Reasoning = StatusPass, fmt.Sprintf("weighted mean %.3f ≥ threshold %.3f", mean, threshold)
		} else {
			out.Status, out.Reasoning = StatusFail, fmt.Sprintf("weighted mean %.3f < threshold %.3f", mean, threshold)
		}
		return out, nil
	}), nil
}

// runInOrder runs judges one after another through Run, stopping early
// when stop reports true for a judgment. It returns the context's error if
// the context ends, with the judgments made until then.
func runInOrder(ctx context.Context, t *Transcript, judges []Judge, stop func(Judgment) bool) ([]Judgment, error) {
	parts := make([]Judgment, 0, len(judges))
	for _, j := range judges {
		if err := ctx.Err(); err != nil {
			return parts, err
		}
		p := Run(ctx, j, t)
		parts = append(parts, p)
		if stop != nil && stop(p) {
			break
		}
	}
	return parts, ctx.Err()
}

// spent is what a composite that could not judge returns with its error:
// its parts so far and the usage they add up to, so that the tokens they
// spent are counted (Run makes it an ERROR).
func spent(name string, parts []Judgment) Judgment {
	out := Judgment{Name: name, Parts: parts}
	for _, p := range parts {
		out.Usage = out.Usage.Add(p.Usage)
	}
	return out
}

// allOf combines parts under All's rule.
func allOf(name string, parts []Judgment) Judgment {
	out := Judgment{Name: name, Composite: CompositeAll, Parts: parts}
	var sum float64
	counted := 0
	for _, p := range parts {
		out.Usage = out.Usage.Add(p.Usage)
		if v, ok := p.Normalized(); ok {
			sum += v
			counted++
		}
	}
	switch failed, errored, passed := sortParts(parts); {
	case len(failed) > 0:
		out.Status, out.Reasoning = StatusFail, fmt.Sprintf("%d of %d failed: %s", len(failed), len(parts), describeAll(failed))
	case len(errored) > 0:
		out.Status, out.Reasoning = StatusError, fmt.Sprintf("%d of %d could not judge: %s", len(errored), len(parts), describeAll(errored))
	case len(passed) > 0:
		out.Status, out.Reasoning = StatusPass, fmt.Sprintf("%d of %d passed", len(passed), len(parts))
		if abstained := len(parts) - len(passed); abstained > 0 {
			out.Reasoning += fmt.Sprintf(", %d abstained", abstained)
		}
	default:
		out.Status, out.Reasoning = StatusAbstain, abstainReason(len(parts))
	}
	if counted > 0 && judged(out.Status) {
		out.Score = Unit(sum / float64(counted))
	}
	return out
}

// judged reports whether a composite with status s was judged, and so has
// a score: an ERROR or ABSTAIN has none, whatever its parts scored.
func judged(s Status) bool { return s == StatusPass || s == StatusFail }

// sortParts splits judgments by status.
func sortParts(parts []Judgment) (failed, errored, passed []Judgment) {
	for _, p := range parts {
		switch p.Status {
		case StatusFail:
			failed = append(failed, p)
		case StatusError:
			errored = append(errored, p)
		case StatusPass:
			passed = append(passed, p)
		}
	}
	return failed, errored, passed
}

func abstainReason(n int) string {
	if n == 0 {
		return "no judges to ask"
	}
	return fmt.Sprintf("all %d judges abstained", n)
}

func describeAll(js []Judgment) string {
	s := make([]string, len(js))
	for i, j := range js {
		s[i] = j.Summary()
	}
	return strings.Join(s, "; ")
}

// InRound judges round n of a transcript with j: j sees the round's turns
// (and the earlier ones as context; see Transcript.Round), so a round's
// tool-call rules count only its own calls. Its judgment is named
// "round n: " and j's name. A round that never started is an ERROR: the
// conversation ended before it.
func InRound(n int, j Judge) Judge {
	return Func(func(ctx context.Context, t *Transcript) (Judgment, error) {
		round := t.Round(n)
		if len(round.Turns) == 0 {
			return Judgment{}, fmt.Errorf("round %d never took place", n)
		}
		out := Run(ctx, j, round)
		if out.Name == "" {
			out.Name = fmt.Sprintf("round %d", n)
		} else {
			out.Name = fmt.Sprintf("round %d: %s", n, out.Name)
		}
		return out, nil
	})
}
