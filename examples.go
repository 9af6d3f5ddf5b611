package gavel

import (
	"cmp"
	"context"
	"crypto/sha256"
	"encoding/binary"
	"fmt"
	"math"
	"slices"
	"strings"
	"sync"

	"github.com/gavelhq/gavel/judge"
	"github.com/gavelhq/gavel/llmjudge"
	"github.com/gavelhq/gavel/stats"
)

// Judges that learn from labels: the judgments people overruled become
// few-shot examples an LLM judge is given (examples: in a suite), and a
// judge with them is compared with the same judge without them on labels
// the examples did not come from, so that a change to a judge is taken on
// evidence (docs/labels.md, decision 0030).

// An Example is a judgment people overruled, as an LLM judge is shown it
// (llmjudge.Example: the request, the response, the people's verdict and
// why), with where it came from and what the judge had said.
type Example struct {
	llmjudge.Example
	// Source is the labelled judgment the example was made from; zero
	// for an example written by hand.
	Source ExampleSource
	// Judged is the judge's category the people overruled ("pass"); ""
	// when not known. The judge's model is not shown it.
	Judged string
}

// An ExampleSource names a labelled judgment: a run's trial of a case,
// and the judgment's path in its verdict ("" for the verdict).
type ExampleSource struct {
	Run, Case string
	Trial     int
	Judgment  string
}

// IsZero reports whether s names nothing: an example written by hand.
func (s ExampleSource) IsZero() bool { return s == ExampleSource{} }

func (s ExampleSource) String() string {
	out := fmt.Sprintf("%s %s#%d", s.Run, s.Case, s.Trial)
	if s.Judgment != "" {
		out += " " + s.Judgment
	}
	return out
}

// ExampleCount says what DisagreementExamples made of the labels.
type ExampleCount struct {
	// Disagreements is how many labelled judgments people disagreed with
	// the judge on (a judgment two people overruled counts once).
	Disagreements int
	// Examples is how many became examples; Contested, how many did not
	// because the people who labelled them disagreed among themselves;
	// Unknown, how many did not because the label said only that the
	// judgment was wrong, on a scale of more than pass and fail (wrong
	// of a 3 of 1..5 does not say which category is right).
	Examples, Contested, Unknown int
}

// Wrote says that the examples were written to path, and what was left
// out.
func (c ExampleCount) Wrote(path string) string {
	s := fmt.Sprintf("wrote %d examples to %s, of %d judgments people overruled", c.Examples, path, c.Disagreements)
	if c.Contested+c.Unknown > 0 {
		s += fmt.Sprintf(" (left out: %d where people disagree among themselves, %d whose labels do not say the right category)", c.Contested, c.Unknown)
	}
	return s
}

// TranscriptFunc returns the stored transcript of a run's trial of a
// case.
type TranscriptFunc func(ctx context.Context, run, caseID string, trial int) (*judge.Transcript, error)

// DisagreementExamples makes an example of every judgment people
// overruled among checks (those that count: see LabelCheck.Counts), in
// the order they were first overruled: the trial's request and final
// response, read with transcript, the people's category as the verdict,
// their comments as the reason, the judge's category as Judged. A
// judgment whose people do not agree among themselves makes no example,
// nor one whose right category the labels do not say; count says how
// many there were of each.
func DisagreementExamples(ctx context.Context, checks []LabelCheck, transcript TranscriptFunc) ([]Example, ExampleCount, error) {
	var order []ExampleSource
	byItem := map[ExampleSource][]LabelCheck{}
	for _, c := range checks {
		if !c.Counts() {
			continue
		}
		s := c.source()
		if _, seen := byItem[s]; !seen {
			order = append(order, s)
		}
		byItem[s] = append(byItem[s], c)
	}
	var out []Example
	var count ExampleCount
	for _, s := range order {
		labels := byItem[s]
		if !slices.ContainsFunc(labels, func(c LabelCheck) bool { return !c.Agrees() }) {
			continue
		}
		count.Disagreements++
		verdict, reasons := "", []string(nil)
		known, contested := true, false
		for _, c := range labels {
			h := c.Human()
			switch {
			case h == "":
				known = false
			case verdict == "":
				verdict = h
			case h != verdict:
				contested = true
			}
			if c.Comment != "" {
				reasons = append(reasons, strings.TrimSpace(c.Comment))
			}
		}
		switch {
		case contested:
			count.Contested++
			continue
		case !known || verdict == "":
			count.Unknown++
			continue
		}
		t, err := transcript(ctx, s.Run, s.Case, s.Trial)
		if err != nil {
			return nil, count, fmt.Errorf("the transcript of %s: %w", s, err)
		}
		out = append(out, Example{
			Example: llmjudge.Example{Request: requestOf(t), Response: t.Response(), Verdict: verdict, Reason: strings.Join(slices.Compact(reasons), "\n")},
			Source:  s,
			Judged:  labels[0].Judged(),
		})
		count.Examples++
	}
	return out, count, nil
}

// source is the judgment c labels.
func (c LabelCheck) source() ExampleSource {
	return ExampleSource{Run: c.RunID, Case: c.CaseID, Trial: c.Trial, Judgment: c.Judgment}
}

// requestOf is what the user asked, as the LLM judges read it: the
// transcript's goal, or its first user turn.
func requestOf(t *judge.Transcript) string {
	if t.Goal != "" {
		return t.Goal
	}
	for _, turn := range t.Turns {
		if turn.Role == judge.RoleUser {
			return turn.Content
		}
	}
	return ""
}

// A Holdout splits the cases of a suite in two, for CompareExamples:
// those examples may come from, and those held out, whose labels score
// the judge. A case is held out or not whole, every trial and run of it:
// an example from one trial of a case shows the judge nearly the reply of
// another, and would score it on itself. The split is a hash of the seed
// and the case's id, so the same seed splits the same way every time,
// and a case keeps its side as cases and labels are added.
type Holdout struct {
	// Share is the share of cases held out, between 0 and 1. Defaults to
	// 0.5.
	Share float64
	// Seed picks the split. Defaults to 0, a seed like any other.
	Seed uint64
}

// DefaultHoldoutShare is the share of cases a Holdout holds out when its
// Share is 0.
const DefaultHoldoutShare = 0.5

// Holds reports whether the case of id is held out.
func (h Holdout) Holds(caseID string) bool {
	var seed [8]byte
	binary.BigEndian.PutUint64(seed[:], h.Seed)
	sum := sha256.Sum256(append(seed[:], caseID...))
	return float64(binary.BigEndian.Uint64(sum[:8])>>11)/(1<<53) < cmp.Or(h.Share, DefaultHoldoutShare)
}

// check says what is wrong with h.
func (h Holdout) check() error {
	if math.IsNaN(h.Share) || h.Share < 0 || h.Share >= 1 {
		return fmt.Errorf("held-out share %v: want a share of the cases between 0 and 1", h.Share)
	}
	return nil
}

// ExampleJudges are the two versions of a suite's judges that
// CompareExamples compares, and how it reads the trials they judge.
type ExampleJudges struct {
	// Without and With return the judge of a case (its whole verdict, as
	// a run gives it: gavel.Case.Judge) without the examples and with
	// them; nil when the suite has no case of that id.
	Without, With func(caseID string) judge.Judge
	// Examples are the examples With's judges were given. None may come
	// from a held-out case (see Holdout): CompareExamples refuses to
	// score an example on itself.
	Examples []Example
	// Transcript reads a labelled trial's transcript.
	Transcript TranscriptFunc
	// Concurrency is how many trials are judged at once. Defaults to 4.
	Concurrency int
}

// An ExampleComparison is a judge's agreement with people on held-out
// labels, without examples and with them (see CompareExamples).
type ExampleComparison struct {
	Holdout Holdout
	// Examples is how many examples the judge was given.
	Examples int
	// HeldOutCases is how many labelled cases were held out, and
	// SourceCases how many were not: the examples came from those, and
	// their labels are not scored.
	HeldOutCases, SourceCases int
	// Trials is how many held-out trials were judged again (twice: once
	// by each version); Labels, how many held-out labels were scored:
	// those that count (LabelCheck.Counts) with a known category (see
	// LabelCheck.Human), on judgments both versions gave a category.
	Trials, Labels int
	// Unjudged is how many held-out labels were not scored: a version
	// could not judge the trial (ERROR, ABSTAIN), or the suite no longer
	// has the case or the judgment.
	Unjudged int
	// Without and With are the calibrations of the two versions on the
	// scored labels: Kappa and Table.KappaInterval are the kappas.
	Without, With Calibration
	// Difference is With's kappa minus Without's, nil when either is
	// nil. DifferenceInterval is its paired bootstrap interval over the
	// judgments (both kappas computed on each resample), at
	// AgreementLevel; nil, NoDifferenceInterval saying why, with fewer
	// than MinIntervalItems judgments or when a kappa is undefined on
	// some resample.
	Difference           *float64
	DifferenceInterval   *stats.Interval
	NoDifferenceInterval string
}

// What the examples did, by the difference's interval (Verdict).
const (
	ExamplesHelped  = "the examples helped"
	ExamplesHurt    = "the examples hurt"
	ExamplesNoClear = "no clear difference"
	ExamplesUnknown = "too few held-out labels to tell"
)

// Verdict says what the examples did: ExamplesHelped when the interval
// of the difference is above 0, ExamplesHurt when below, ExamplesNoClear
// when it holds 0, ExamplesUnknown without an interval.
func (c ExampleComparison) Verdict() string {
	switch iv := c.DifferenceInterval; {
	case iv == nil:
		return ExamplesUnknown
	case iv.Lo > 0:
		return ExamplesHelped
	case iv.Hi < 0:
		return ExamplesHurt
	}
	return ExamplesNoClear
}

// CompareExamples measures whether examples make a judge agree better
// with people. It splits the labelled cases of checks with h, judges
// every held-out labelled trial again with both versions of the judge
// (its transcript as stored: the agent is not called), and measures each
// version's agreement with the people's labels of those trials: Cohen's
// kappa with its interval, and the difference with its own. The labels'
// categories are the people's as they were given: a label that said
// only "correct" or "wrong" keeps the category it meant of the judgment
// it was given on. Examples from a held-out case are an error: they
// would be scored on themselves.
//
// This is gavel calibrate --compare-examples's, and the call for gavel audit on a
// labelled run; eval.CompareExamples builds its judges from a suite file.
func CompareExamples(ctx context.Context, checks []LabelCheck, h Holdout, j ExampleJudges) (ExampleComparison, error) {
	out := ExampleComparison{Holdout: h, Examples: len(j.Examples)}
	if err := h.check(); err != nil {
		return out, err
	}
	for _, e := range j.Examples {
		if !e.Source.IsZero() && h.Holds(e.Source.Case) {
			return out, fmt.Errorf("an example comes from %s, a held-out case: it would be scored on itself", e.Source)
		}
	}
	type trialKey struct {
		run, caseID string
		trial       int
	}
	var trials []trialKey
	labels := map[trialKey][]LabelCheck{}
	heldCases, sourceCases := map[string]bool{}, map[string]bool{}
	for _, c := range checks {
		if !h.Holds(c.CaseID) {
			sourceCases[c.CaseID] = true
			continue
		}
		heldCases[c.CaseID] = true
		if !c.Counts() || c.Human() == "" {
			continue
		}
		c.HumanCategory = c.Human() // "correct" of the judgment it was given on
		k := trialKey{c.RunID, c.CaseID, c.Trial}
		if labels[k] == nil {
			trials = append(trials, k)
		}
		labels[k] = append(labels[k], c)
	}
	out.HeldOutCases, out.SourceCases, out.Trials = len(heldCases), len(sourceCases), len(trials)

	type verdicts struct{ without, with judge.Judgment }
	judged := make([]verdicts, len(trials))
	errs := make([]error, len(trials))
	sem := make(chan struct{}, cmp.Or(j.Concurrency, 4))
	var wg sync.WaitGroup
	for i, k := range trials {
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer func() { <-sem; wg.Done() }()
			without, with := j.Without(k.caseID), j.With(k.caseID)
			if without == nil || with == nil {
				return // the suite no longer has the case: unjudged
			}
			t, err := j.Transcript(ctx, k.run, k.caseID, k.trial)
			if err != nil {
				errs[i] = fmt.Errorf("the transcript of %s %s#%d: %w", k.run, k.caseID, k.trial, err)
				return
			}
			judged[i] = verdicts{TrialVerdict(judge.Run(ctx, without, t)), TrialVerdict(judge.Run(ctx, with, t))}
		}()
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return out, err
		}
	}
	if err := ctx.Err(); err != nil {
		return out, err
	}

	var without, with []LabelCheck
	for i, k := range trials {
		for _, c := range labels[k] {
			a, okA := JudgedBy(c, judged[i].without)
			b, okB := JudgedBy(c, judged[i].with)
			if !okA || !okB || !a.Counts() || !b.Counts() {
				out.Unjudged++
				continue
			}
			without, with = append(without, a), append(with, b)
		}
	}
	out.Labels = len(without)
	out.Without, out.With = Calibrate(without), Calibrate(with)
	if out.Without.Kappa != nil && out.With.Kappa != nil {
		d := *out.With.Kappa - *out.Without.Kappa
		out.Difference = &d
		out.DifferenceInterval, out.NoDifferenceInterval = kappaDifference(without, with)
	}
	return out, nil
}

// kappaDifference is the paired bootstrap interval of the difference of
// two kappas of the same labels, judged twice (second minus first): each
// resample draws judgments, each bringing its labels in both.
func kappaDifference(first, second []LabelCheck) (*stats.Interval, string) {
	categories := map[string]int{}
	index := func(c string) int {
		if i, ok := categories[c]; ok {
			return i
		}
		categories[c] = len(categories)
		return categories[c]
	}
	type rating struct{ first, second stats.Rating }
	var items [][]rating
	itemOf := map[ExampleSource]int{}
	for i := range first {
		s := first[i].source()
		r := rating{
			stats.Rating{First: index(first[i].Judged()), Second: index(first[i].Human())},
			stats.Rating{First: index(second[i].Judged()), Second: index(second[i].Human())},
		}
		n, ok := itemOf[s]
		if !ok {
			n = len(items)
			itemOf[s] = n
			items = append(items, nil)
		}
		items[n] = append(items[n], r)
	}
	k := len(categories)
	positions := make([]float64, k)
	for i := range positions {
		positions[i] = float64(i)
	}
	table := func(sample []int, pick func(rating) stats.Rating) [][]int {
		t := make([][]int, k)
		for i := range t {
			t[i] = make([]int, k)
		}
		for _, s := range sample {
			for _, r := range items[s] {
				p := pick(r)
				t[p.First][p.Second]++
			}
		}
		return t
	}
	return agreementInterval(len(items), func() (stats.Interval, bool) {
		return AgreementBootstrap.Cases(len(items), AgreementLevel, func(sample []int) float64 {
			a, errA := stats.Kappa(table(sample, func(r rating) stats.Rating { return r.first }), positions, stats.Unweighted)
			b, errB := stats.Kappa(table(sample, func(r rating) stats.Rating { return r.second }), positions, stats.Unweighted)
			if errA != nil || errB != nil {
				return math.NaN()
			}
			return b - a
		})
	})
}
