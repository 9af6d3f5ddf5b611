package audit

import (
	"github.com/gavelhq/gavel/judge"
	"github.com/gavelhq/gavel/llmjudge"
)

// The arithmetic of the probes: pure functions of the judgments asked,
// tested without a model.

// A Sample is one judgment's outcome: its score on 0..1 (the normalised
// score, or 1 and 0 for a PASS and FAIL without one; for a pairwise
// comparison, 1, 0.5 and 0 for a win, tie and loss of the reply) and
// whether it passed.
type Sample struct {
	Score  float64
	Passed bool
}

// sampleOf reads a judgment as a Sample; false for an ERROR or ABSTAIN,
// which judged nothing.
func sampleOf(j judge.Judgment) (Sample, bool) {
	v, ok := j.Normalized()
	if !ok {
		return Sample{}, false
	}
	return Sample{Score: v, Passed: j.Passed()}, true
}

// sampleOfComparison reads a comparison of the reply (a) with the
// baseline (b) as the pairwise judge does: it passes unless the
// baseline wins.
func sampleOfComparison(r llmjudge.PairwiseResult) Sample {
	switch r.Winner {
	case llmjudge.WinnerA:
		return Sample{Score: 1, Passed: true}
	case llmjudge.WinnerB:
		return Sample{Score: 0, Passed: false}
	}
	return Sample{Score: 0.5, Passed: true}
}

// A Comparison is a pairwise judgment's two orders: the winner with the
// reply shown first, and with it shown second.
type Comparison struct {
	Forward, Reversed llmjudge.Winner
}

// Flipped reports whether the orders disagree: the order, not the
// replies, decided (a judge that always prefers the first response shown
// flips every time).
func (c Comparison) Flipped() bool { return c.Forward != c.Reversed }

// Position is the position probe's finding for one judge.
type Position struct {
	// Comparisons is how many comparisons were asked in both orders;
	// Flips, how many of them the orders disagreed on.
	Comparisons int `json:"comparisons"`
	Flips       int `json:"flips"`
	// Share is Flips / Comparisons; nil without a comparison.
	Share *float64 `json:"share,omitempty"`
	// First is how many flips preferred the response shown first in both
	// orders; the rest preferred the one shown second, or a tie in one
	// order only.
	First int `json:"first"`
}

// PositionOf counts the flips of cs.
func PositionOf(cs []Comparison) Position {
	p := Position{Comparisons: len(cs)}
	for _, c := range cs {
		if !c.Flipped() {
			continue
		}
		p.Flips++
		if c.Forward == llmjudge.WinnerA && c.Reversed == llmjudge.WinnerB {
			p.First++
		}
	}
	p.Share = share(p.Flips, p.Comparisons)
	return p
}

// A Padding is one judgment's samples of the reply as it is and padded
// with neutral filler.
type Padding struct {
	Original, Padded []Sample
}

// Verbosity is the verbosity probe's finding for one judge.
type Verbosity struct {
	// Judgments is how many judgments have samples of both replies;
	// Higher, in how many the padded reply's mean score was higher.
	Judgments int `json:"judgments"`
	Higher    int `json:"higher"`
	// Share is Higher / Judgments; nil without a judgment.
	Share *float64 `json:"share,omitempty"`
	// MeanGain is the padded reply's mean score less the original's,
	// averaged over every judgment (0..1; negative when padding costs
	// score); GainWhenHigher averaged over those that scored higher.
	MeanGain       *float64 `json:"mean_gain,omitempty"`
	GainWhenHigher *float64 `json:"gain_when_higher,omitempty"`
}

// scoreEpsilon is how far apart two mean scores must be to differ: the
// means of equal scores may differ in their last bits.
const scoreEpsilon = 1e-9

// VerbosityOf compares the padded replies' scores with the originals'. A
// judgment with no sample of either reply (both errored) is left out.
func VerbosityOf(ps []Padding) Verbosity {
	var v Verbosity
	var gains, higher float64
	for _, p := range ps {
		o, ok1 := mean(p.Original)
		d, ok2 := mean(p.Padded)
		if !ok1 || !ok2 {
			continue
		}
		v.Judgments++
		gains += d - o
		if d-o > scoreEpsilon {
			v.Higher++
			higher += d - o
		}
	}
	v.Share = share(v.Higher, v.Judgments)
	v.MeanGain = ratio(gains, v.Judgments)
	v.GainWhenHigher = ratio(higher, v.Higher)
	return v
}

// Consistency is the self-consistency probe's finding for one judge.
type Consistency struct {
	// Judgments is how many judgments had at least two samples; Unstable,
	// how many of them had samples that disagreed on the verdict (a PASS
	// and a FAIL).
	Judgments int `json:"judgments"`
	Unstable  int `json:"unstable"`
	// Share is Unstable / Judgments; nil without a judgment.
	Share *float64 `json:"share,omitempty"`
	// MeanSpread and MaxSpread are the spread of a judgment's scores (the
	// highest less the lowest, 0..1), averaged and at most.
	MeanSpread *float64 `json:"mean_spread,omitempty"`
	MaxSpread  *float64 `json:"max_spread,omitempty"`
}

// ConsistencyOf measures how far the samples of each judgment agree. A
// judgment with fewer than two samples tells nothing and is left out.
func ConsistencyOf(judgments [][]Sample) Consistency {
	var c Consistency
	var spreads, most float64
	for _, ss := range judgments {
		if len(ss) < 2 {
			continue
		}
		c.Judgments++
		lo, hi := ss[0].Score, ss[0].Score
		unstable := false
		for _, s := range ss[1:] {
			lo, hi = min(lo, s.Score), max(hi, s.Score)
			unstable = unstable || s.Passed != ss[0].Passed
		}
		if unstable {
			c.Unstable++
		}
		spreads += hi - lo
		most = max(most, hi-lo)
	}
	c.Share = share(c.Unstable, c.Judgments)
	c.MeanSpread = ratio(spreads, c.Judgments)
	if c.Judgments > 0 {
		c.MaxSpread = &most
	}
	return c
}

// A Pair is one judgment's samples by the judge and by the same judge on
// the reference model.
type Pair struct {
	Own, Reference []Sample
}

// Family is the family probe's finding for one judge.
type Family struct {
	// Family is the family the judge's model and the agent's share;
	// SameModel is true when they are one model.
	Family    string `json:"family"`
	SameModel bool   `json:"same_model,omitempty"`
	// Reference is the model of another family the judge was compared
	// with; "" when none was given, and nothing was measured.
	Reference string `json:"reference,omitempty"`
	// Unmeasured says why the gap was not measured though a reference
	// was given (the judge could not be built on it).
	Unmeasured string `json:"unmeasured,omitempty"`
	// Judgments is how many judgments both judges scored; Gap, the
	// judge's mean score less the reference's, averaged over them: how
	// much its own family's judge favours the agent's replies.
	Judgments int      `json:"judgments"`
	Gap       *float64 `json:"gap,omitempty"`
}

// GapOf is the mean of the judge's mean score less the reference's, over
// the judgments both scored, and how many those were.
func GapOf(ps []Pair) (gap *float64, n int) {
	var sum float64
	for _, p := range ps {
		o, ok1 := mean(p.Own)
		r, ok2 := mean(p.Reference)
		if ok1 && ok2 {
			sum += o - r
			n++
		}
	}
	return ratio(sum, n), n
}

func mean(ss []Sample) (float64, bool) {
	if len(ss) == 0 {
		return 0, false
	}
	var sum float64
	for _, s := range ss {
		sum += s.Score
	}
	return sum / float64(len(ss)), true
}

// share is k / n, nil for n = 0: no share to tell is not 0%.
func share(k, n int) *float64 { return ratio(float64(k), n) }

func ratio(x float64, n int) *float64 {
	if n == 0 {
		return nil
	}
	v := x / float64(n)
	return &v
}
