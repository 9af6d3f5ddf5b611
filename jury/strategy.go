package jury

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/gavelhq/gavel/judge"
)

// Strategy is how a jury turns its jurors' votes into one verdict.
type Strategy string

// The strategies.
const (
	// Majority passes when more votes pass than fail; the TiePolicy
	// settles a tie.
	Majority Strategy = "majority"
	// Consensus passes only when every vote passes. A unanimous fail
	// fails, and so does a split ("no consensus: 2 pass, 1 fail").
	Consensus Strategy = "consensus"
	// Average passes when the mean normalised score of the votes reaches
	// the threshold.
	Average Strategy = "average"
	// WeightedAverage passes when the weighted mean normalised score of the
	// votes reaches the threshold. Only the jurors that voted count; their
	// weights are renormalised over them.
	WeightedAverage Strategy = "weighted_average"
	// Median passes when the median normalised score of the votes reaches
	// the threshold. Of an even number of votes, the median is the mean of
	// the two middle values.
	Median Strategy = "median"
)

var strategies = []Strategy{Majority, Consensus, Average, WeightedAverage, Median}

// Known reports whether s is one of the strategies. A jury's judgment
// names its strategy in DecidedBy, so Known(Strategy(j.DecidedBy)) tells
// a jury's judgment from other composites'.
func (s Strategy) Known() bool { return slices.Contains(strategies, s) }

// TiePolicy settles a Majority vote with as many passes as fails (and at
// least one of each).
type TiePolicy string

// The tie policies.
const (
	TieFail    TiePolicy = "fail"    // a tie fails
	TiePass    TiePolicy = "pass"    // a tie passes
	TieAbstain TiePolicy = "abstain" // a tie abstains
)

var tiePolicies = []TiePolicy{TieFail, TiePass, TieAbstain}

var tieStatus = map[TiePolicy]judge.Status{TieFail: judge.StatusFail, TiePass: judge.StatusPass, TieAbstain: judge.StatusAbstain}

// ErrorPolicy says how a juror that could not judge (ERROR) counts.
type ErrorPolicy string

// The error policies.
const (
	// ErrorsAsVerdict: any juror's ERROR makes the verdict ERROR.
	ErrorsAsVerdict ErrorPolicy = "error"
	// ErrorsAsFail: an errored juror votes FAIL, with a score of 0.
	ErrorsAsFail ErrorPolicy = "fail"
	// ErrorsIgnored: an errored juror is left out of the vote, like an
	// abstention.
	ErrorsIgnored ErrorPolicy = "ignore"
)

var errorPolicies = []ErrorPolicy{ErrorsAsVerdict, ErrorsAsFail, ErrorsIgnored}

// A vote is what one juror contributes to a score-based verdict.
type vote struct {
	value  float64 // the normalised score, 0..1
	weight float64 // the juror's weight; 1 unless WeightedAverage
}

// A ballot is the jurors' judgments sorted into votes.
type ballot struct {
	votes     []vote
	pass      int              // PASS votes
	fail      int              // FAIL votes, errors counted as fails included
	abstained int              // ABSTAIN judgments
	errored   []judge.Judgment // ERROR judgments, whatever the policy
	errors    ErrorPolicy
	// unheard is the weight of the jurors that did not vote.
	unheard float64
}

// decide computes a jury's verdict from its jurors' judgments, given in
// juror order, under c, which New has validated and completed with
// defaults. It is pure: Jury.Judge gathers the judgments and decide counts
// them.
func decide(c Config, judgments []judge.Judgment) judge.Judgment {
	out := judge.Judgment{Name: c.Name, DecidedBy: string(c.Strategy), Parts: make([]judge.Judgment, len(judgments))}
	for i, p := range judgments {
		if p.Name == "" {
			p.Name = "juror " + strconv.Itoa(i+1)
		}
		out.Parts[i] = p
		out.Usage = out.Usage.Add(p.Usage)
	}
	b := count(c, out.Parts)

	if len(b.errored) > 0 && c.Errors == ErrorsAsVerdict {
		out.Status = judge.StatusError
		out.DecidedBy += " (errors: " + string(ErrorsAsVerdict) + ")"
		out.Reasoning = fmt.Sprintf("%d of %d jurors could not judge: %s", len(b.errored), len(out.Parts), describe(b.errored))
		return out
	}
	if b.weight() == 0 {
		return noVotes(out, b, c)
	}

	var value float64
	switch c.Strategy {
	case Majority:
		value = b.passFraction()
		switch {
		case b.pass > b.fail:
			out.Status = judge.StatusPass
			out.Reasoning = "majority: " + b.String()
		case b.fail > b.pass:
			out.Status = judge.StatusFail
			out.Reasoning = "majority: " + b.String()
		default:
			out.Status = tieStatus[c.Ties]
			out.DecidedBy += " (tie: " + string(c.Ties) + ")"
			out.Reasoning = fmt.Sprintf("majority: %s is a tie; tie policy %s", b, c.Ties)
		}
	case Consensus:
		value = b.passFraction()
		switch {
		case b.fail == 0:
			out.Status, out.Reasoning = judge.StatusPass, "consensus: "+b.String()
		case b.pass == 0:
			out.Status, out.Reasoning = judge.StatusFail, "consensus: "+b.String()
		default:
			out.Status, out.Reasoning = judge.StatusFail, "no consensus: "+b.String()
		}
	default:
		what := "average"
		value = b.mean()
		switch c.Strategy {
		case WeightedAverage:
			what = "weighted average"
		case Median:
			what, value = "median", b.median()
		}
		out.Status = judge.StatusFail
		out.Threshold = judge.AtLeast(value, *c.Threshold)
		out.Threshold.Of = what
		if out.Threshold.Met() {
			out.Status = judge.StatusPass
		}
		v, th := formatPair(value, *c.Threshold)
		rel := "<"
		if out.Status == judge.StatusPass {
			rel = "≥"
		}
		out.Reasoning = fmt.Sprintf("%s %s %s threshold %s: %s", what, v, rel, th, b)
		if c.Strategy == WeightedAverage && b.unheard > 0 {
			out.Reasoning += fmt.Sprintf("; weights renormalised over the %d jurors that voted", len(b.votes))
		}
	}
	out.Score = judge.Unit(value)
	out.Reasoning += " → " + string(out.Status)
	return out
}

// count sorts judgments into a ballot under c's strategy and error policy.
func count(c Config, judgments []judge.Judgment) ballot {
	b := ballot{errors: c.Errors}
	for i, p := range judgments {
		weight := 1.0
		if c.Strategy == WeightedAverage {
			weight = c.Weights[i]
		}
		if p.Status == judge.StatusError {
			b.errored = append(b.errored, p)
		}
		switch {
		case p.Status == judge.StatusPass || p.Status == judge.StatusFail:
			v, _ := p.Normalized()
			b.votes = append(b.votes, vote{value: v, weight: weight})
			if p.Passed() {
				b.pass++
			} else {
				b.fail++
			}
		case p.Status == judge.StatusError && c.Errors == ErrorsAsFail:
			b.votes = append(b.votes, vote{value: 0, weight: weight})
			b.fail++
		default: // an abstention, or an error left out
			if p.Status != judge.StatusError {
				b.abstained++
			}
			b.unheard += weight
		}
	}
	return b
}

// noVotes completes out when no vote carries weight: there were no votes,
// or (WeightedAverage) only votes of jurors with weight zero.
func noVotes(out judge.Judgment, b ballot, c Config) judge.Judgment {
	lead := "no votes"
	if len(b.votes) > 0 {
		lead = "no vote carries weight (the jurors that voted have weight 0)"
	}
	switch {
	case len(b.errored) > 0: // only ErrorsIgnored gets here
		out.Status = judge.StatusError
		out.DecidedBy += " (errors: " + string(c.Errors) + ")"
		out.Reasoning = fmt.Sprintf("%s: %s; could not judge: %s", lead, b, describe(b.errored))
	case len(b.votes) == 0:
		out.Status = judge.StatusAbstain
		out.Reasoning = fmt.Sprintf("all %d jurors abstained", b.abstained)
	default:
		out.Status = judge.StatusAbstain
		out.Reasoning = fmt.Sprintf("%s: %s", lead, b)
	}
	return out
}

// String formats the tally: "2 pass, 1 fail, 1 abstained".
func (b ballot) String() string {
	s := fmt.Sprintf("%d pass, %d fail", b.pass, b.fail)
	if n := len(b.errored); n > 0 && b.errors == ErrorsAsFail {
		s += fmt.Sprintf(" (%d errored, counted as fail)", n)
	}
	if b.abstained > 0 {
		s += fmt.Sprintf(", %d abstained", b.abstained)
	}
	if n := len(b.errored); n > 0 && b.errors == ErrorsIgnored {
		s += fmt.Sprintf(", %d errored (ignored)", n)
	}
	return s
}

// weight returns the total weight of the votes.
func (b ballot) weight() float64 {
	var w float64
	for _, v := range b.votes {
		w += v.weight
	}
	return w
}

func (b ballot) passFraction() float64 {
	return float64(b.pass) / float64(b.pass+b.fail)
}

// mean returns the weighted mean of the votes' values; with every weight
// 1, the plain mean.
func (b ballot) mean() float64 {
	var sum float64
	for _, v := range b.votes {
		sum += v.weight * v.value
	}
	return sum / b.weight()
}

func (b ballot) median() float64 {
	values := make([]float64, len(b.votes))
	for i, v := range b.votes {
		values[i] = v.value
	}
	slices.Sort(values)
	mid := len(values) / 2
	if len(values)%2 == 1 {
		return values[mid]
	}
	return (values[mid-1] + values[mid]) / 2
}

// formatPair formats a value and the threshold it was compared with, with
// two decimals, or with as many more as it takes for a value below the
// threshold not to print as equal to it ("0.499 < 0.500", not "0.50 <
// 0.50").
func formatPair(v, threshold float64) (string, string) {
	for prec := 2; ; prec++ {
		a := strconv.FormatFloat(v, 'f', prec, 64)
		b := strconv.FormatFloat(threshold, 'f', prec, 64)
		if a != b || judge.CompareToThreshold(v, threshold) >= 0 || prec >= 10 {
			return a, b
		}
	}
}

// describe lists judgments as "name: reasoning; name: reasoning", each
// with the first line of its reasoning only (see judge.Judgment.Summary).
func describe(js []judge.Judgment) string {
	s := make([]string, len(js))
	for i, j := range js {
		s[i] = j.Summary()
	}
	return strings.Join(s, "; ")
}
