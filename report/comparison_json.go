package report

import (
	"bytes"
	"encoding/json"

	"github.com/gavelhq/gavel"
	"github.com/gavelhq/gavel/judge"
)

// ComparisonSchemaVersion is the version of the JSON comparison's schema,
// written as its "schema_version" beside "kind": "comparison". Like
// SchemaVersion, it goes up when a field changes meaning or is removed,
// not when one is added.
const ComparisonSchemaVersion = 1

// A JSONComparison is the JSON report of a comparison, field for field.
// Decode one into it to read it back.
//
// Every field is always present but the deltas left out when unknown:
// lists are empty rather than null. Only these are null: a run's
// pass_rate when nothing was judged in it, a case's side in a run that
// does not have the case, a side's pass_rate when none of its trials was
// judged, and a criterion's side and delta when only one run scored it.
type JSONComparison struct {
	SchemaVersion int `json:"schema_version"`
	// Kind is "comparison", telling this report from a run's.
	Kind         string `json:"kind"`
	GavelVersion string `json:"gavel_version"`
	// Base is the reference run, Head the run of the change.
	Base JSONComparedRun `json:"base"`
	Head JSONComparedRun `json:"head"`
	// Verdict is the test's: REGRESSED, IMPROVED or NO SIGNIFICANT
	// CHANGE (gavel.Significance), and Test how it was reached. Failed is
	// the comparison's gate: true when the head REGRESSED or a critical
	// case failed in it (the exit code of gavel compare is 1).
	Verdict gavel.Change       `json:"verdict"`
	Failed  bool               `json:"failed"`
	Test    gavel.Significance `json:"test"`
	// HasRegressions is true when a case passed in the base and did not
	// pass in the head. Two runs of one agent differ by chance: it is not
	// the verdict.
	HasRegressions bool `json:"has_regressions"`
	// PassRateDelta is head.pass_rate - base.pass_rate, left out when
	// either is null (nothing was judged in that run); CostUSDDelta is
	// head.cost_usd - base.cost_usd, left out when either cost is
	// unpriced. Either change is then unknown.
	PassRateDelta *float64 `json:"pass_rate_delta,omitempty"`
	CostUSDDelta  *float64 `json:"cost_usd_delta,omitempty"`
	// Counts says how many cases each list holds, and how many cases
	// came out the same in both runs.
	Counts JSONComparisonCounts `json:"counts"`
	// The cases, by what changed; see gavel.Comparison.
	Regressions []JSONCaseChange `json:"regressions"`
	Fixes       []JSONCaseChange `json:"fixes"`
	Changed     []JSONCaseChange `json:"changed"`
	Errored     []JSONCaseChange `json:"errored"`
	NotCompared []JSONCaseChange `json:"not_compared"`
	Redefined   []JSONCaseChange `json:"redefined"`
	Critical    []JSONCaseChange `json:"critical"`
	Added       []JSONCaseChange `json:"added"`
	Removed     []JSONCaseChange `json:"removed"`
	// Criteria are every criterion scored in either run, by name.
	Criteria []JSONCriterionDelta `json:"criteria"`
	// Replies set what the agent said in each run side by side, for the
	// cases whose replies or tool calls differ (every case both runs have
	// with --all-replies); empty when the runs were compared without
	// their transcripts.
	Replies []JSONReplyPair `json:"replies"`
	// Pairwise is the pairwise judge's tally, null when none was asked.
	Pairwise *JSONPairwiseTally `json:"pairwise"`
}

// A JSONReplyPair is one case's replies in both runs (gavel.ReplyPair).
type JSONReplyPair struct {
	ID      string `json:"id"`
	Name    string `json:"name"`
	Differs bool   `json:"differs"`
	// Base and Head are null when the run has no transcript of the case.
	Base *JSONReply `json:"base"`
	Head *JSONReply `json:"head"`
	// Pairwise is the pairwise judge's word on the pair, null when none
	// was asked.
	Pairwise *JSONPairwiseVerdict `json:"pairwise"`
}

// A JSONReply is what the agent said in one trial: the text of each of its
// turns, and its tool calls as name(arguments).
type JSONReply struct {
	Trial     int      `json:"trial"`
	Replies   []string `json:"replies"`
	ToolCalls []string `json:"tool_calls"`
}

// A JSONPairwiseVerdict is a pairwise judge's word on a pair of replies:
// winner is "base", "head", "tie", or "" with error set when it could not
// judge.
type JSONPairwiseVerdict struct {
	Winner    string `json:"winner"`
	Reasoning string `json:"reasoning"`
	Error     string `json:"error,omitempty"`
}

// A JSONPairwiseTally counts a pairwise judge's preferences
// (gavel.PairwiseTally).
type JSONPairwiseTally struct {
	Criteria string  `json:"criteria"`
	Model    string  `json:"model"`
	Base     int     `json:"base_wins"`
	Head     int     `json:"head_wins"`
	Ties     int     `json:"ties"`
	Errors   int     `json:"errors"`
	CostUSD  float64 `json:"cost_usd"`
	Tokens   int64   `json:"tokens"`
}

// A JSONComparedRun is one of the runs of a comparison.
type JSONComparedRun struct {
	// Label names the run as the caller did ("main@abc1234"); "base" or
	// "head" when they did not.
	Label string `json:"label"`
	// PassRate is null when nothing was judged in the run.
	PassRate *float64 `json:"pass_rate"`
	CostUSD  float64  `json:"cost_usd"`
	// CostUnpriced is true when a model without a price took part in the
	// run: CostUSD is then a lower bound.
	CostUnpriced bool `json:"cost_unpriced,omitempty"`
}

// JSONComparisonCounts are the sizes of a comparison's lists.
type JSONComparisonCounts struct {
	Regressions int `json:"regressions"`
	Fixes       int `json:"fixes"`
	Changed     int `json:"changed"`
	Errored     int `json:"errored"`
	NotCompared int `json:"not_compared"`
	Redefined   int `json:"redefined"`
	Critical    int `json:"critical"`
	Added       int `json:"added"`
	Removed     int `json:"removed"`
	Unchanged   int `json:"unchanged"`
}

// A JSONCaseChange is a case of a comparison and how it came out in each
// run; a side is null when its run does not have the case.
type JSONCaseChange struct {
	ID   string        `json:"id"`
	Name string        `json:"name"`
	Base *JSONCaseSide `json:"base"`
	Head *JSONCaseSide `json:"head"`
}

// A JSONCaseSide is how a case came out in one run.
type JSONCaseSide struct {
	Outcome gavel.Outcome `json:"outcome"`
	Trials  int           `json:"trials"`
	Passed  int           `json:"passed"`
	// PassRate is passed / trials; nil when no trial ran.
	PassRate *float64 `json:"pass_rate"`
	// Reason is why the case did not pass (see gavel.CaseSide.Reason),
	// exactly as the judges wrote it; "" when it passed.
	Reason string `json:"reason"`
}

// A JSONCriterionDelta is a criterion's scores in both runs.
type JSONCriterionDelta struct {
	Name string `json:"name"`
	// Base and Head are nil when that run has no score of the criterion.
	Base *JSONCriterionScores `json:"base"`
	Head *JSONCriterionScores `json:"head"`
	// Delta is head.mean - base.mean; nil unless both runs scored it.
	Delta *float64 `json:"delta"`
}

// JSONCriterionScores sum up a criterion's scores in one run (see
// gavel.CriterionStat).
type JSONCriterionScores struct {
	Count int     `json:"count"`
	Mean  float64 `json:"mean"`
	Min   float64 `json:"min"`
}

// writeComparisonJSON writes the JSON report of a comparison, indented.
func writeComparisonJSON(b *bytes.Buffer, c gavel.Comparison, opts ComparisonOptions) error {
	enc := json.NewEncoder(b)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false) // as in writeJSON
	return enc.Encode(newJSONComparison(c, opts))
}

// newJSONComparison builds the JSON report of a comparison.
func newJSONComparison(c gavel.Comparison, opts ComparisonOptions) JSONComparison {
	base, head := opts.labels()
	out := JSONComparison{
		SchemaVersion:  ComparisonSchemaVersion,
		Kind:           "comparison",
		GavelVersion:   opts.Version,
		Base:           JSONComparedRun{Label: base, PassRate: c.PassRate.Base, CostUSD: c.CostUSD.Base, CostUnpriced: c.CostUnpriced.Base},
		Head:           JSONComparedRun{Label: head, PassRate: c.PassRate.Head, CostUSD: c.CostUSD.Head, CostUnpriced: c.CostUnpriced.Head},
		Verdict:        c.Test.Verdict,
		Failed:         c.Failed(),
		Test:           c.Test,
		HasRegressions: c.HasRegressions(),
		Counts: JSONComparisonCounts{
			Regressions: len(c.Regressions), Fixes: len(c.Fixes), Changed: len(c.Changed),
			Errored: len(c.Errored), NotCompared: len(c.NotCompared), Redefined: len(c.Redefined), Critical: len(c.Critical),
			Added: len(c.Added), Removed: len(c.Removed), Unchanged: c.Unchanged,
		},
		Regressions: jsonCaseChanges(c.Regressions),
		Fixes:       jsonCaseChanges(c.Fixes),
		Changed:     jsonCaseChanges(c.Changed),
		Errored:     jsonCaseChanges(c.Errored),
		NotCompared: jsonCaseChanges(c.NotCompared),
		Redefined:   jsonCaseChanges(c.Redefined),
		Critical:    jsonCaseChanges(c.Critical),
		Added:       jsonCaseChanges(c.Added),
		Removed:     jsonCaseChanges(c.Removed),
		Criteria:    make([]JSONCriterionDelta, len(c.Criteria)),
	}
	if d, ok := c.PassRate.Diff(); ok {
		out.PassRateDelta = &d
	}
	for i, d := range c.Criteria {
		jd := JSONCriterionDelta{Name: d.Name, Base: jsonCriterionScores(d.Base), Head: jsonCriterionScores(d.Head)}
		if diff, ok := d.Diff(); ok {
			jd.Delta = &diff
		}
		out.Criteria[i] = jd
	}
	if !c.CostUnpriced.Base && !c.CostUnpriced.Head {
		delta := c.CostUSD.Diff()
		out.CostUSDDelta = &delta
	}
	out.Replies = []JSONReplyPair{}
	for _, p := range shownReplies(c, opts) {
		jp := JSONReplyPair{ID: p.ID, Name: p.Name, Differs: p.Differs,
			Base: jsonReply(p.Base, p.BaseTrial), Head: jsonReply(p.Head, p.HeadTrial)}
		if v := p.Pairwise; v != nil {
			jp.Pairwise = &JSONPairwiseVerdict{Winner: string(v.Winner), Reasoning: v.Reasoning, Error: v.Error}
		}
		out.Replies = append(out.Replies, jp)
	}
	if t := c.Pairwise; t != nil {
		out.Pairwise = &JSONPairwiseTally{Criteria: t.Criteria, Model: t.Model, Base: t.Base, Head: t.Head, Ties: t.Ties,
			Errors: t.Errors, CostUSD: t.Usage.CostUSD, Tokens: t.Usage.Tokens()}
	}
	return out
}

// jsonReply converts what the agent said in a transcript, nil without one.
func jsonReply(t *judge.Transcript, trial int) *JSONReply {
	if t == nil {
		return nil
	}
	return &JSONReply{Trial: trial, Replies: orEmpty(gavel.AgentSaid(t)), ToolCalls: orEmpty(gavel.CallsOf(t))}
}

// orEmpty returns s, empty rather than nil.
func orEmpty(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

// jsonCaseChanges converts a list of cases, empty rather than nil.
func jsonCaseChanges(cases []gavel.CaseChange) []JSONCaseChange {
	out := make([]JSONCaseChange, len(cases))
	for i, cc := range cases {
		out[i] = JSONCaseChange{ID: cc.ID, Name: cc.Name, Base: jsonCaseSide(cc.Base), Head: jsonCaseSide(cc.Head)}
	}
	return out
}

// jsonCaseSide converts a side of a case, nil when its run does not have
// the case.
func jsonCaseSide(s gavel.CaseSide) *JSONCaseSide {
	if s.Outcome == "" && s.Result == nil {
		return nil
	}
	out := &JSONCaseSide{Outcome: s.Outcome, Trials: s.Trials, Passed: s.Passed, Reason: s.Reason}
	if rate, ok := s.PassRate(); ok {
		out.PassRate = &rate
	}
	return out
}

// jsonCriterionScores converts a criterion's scores in one run, nil when
// the run has none.
func jsonCriterionScores(s gavel.CriterionStat) *JSONCriterionScores {
	if s.Count == 0 {
		return nil
	}
	return &JSONCriterionScores{Count: s.Count, Mean: s.Mean, Min: s.Min}
}
