package report

import (
	"bytes"
	"encoding/json"

	"github.com/gavelhq/gavel"
)

// ComparisonSchemaVersion is the version of the JSON comparison's schema,
// written as its "schema_version" beside "kind": "comparison". Like
// SchemaVersion, it goes up when a field changes meaning or is removed,
// not when one is added.
const ComparisonSchemaVersion = 1

// A JSONComparison is the JSON report of a comparison, field for field.
// Decode one into it to read it back.
//
// Every field is always present: lists are empty rather than null. Only
// these are null: a case's side in a run that does not have the case, a
// side's pass_rate when no trial ran, and a criterion's side and delta
// when only one run scored it.
type JSONComparison struct {
	SchemaVersion int `json:"schema_version"`
	// Kind is "comparison", telling this report from a run's.
	Kind         string `json:"kind"`
	GavelVersion string `json:"gavel_version"`
	// Base is the reference run, Head the run of the change.
	Base JSONComparedRun `json:"base"`
	Head JSONComparedRun `json:"head"`
	// HasRegressions is true when a case passed in the base and did not
	// pass in the head: the comparison's verdict.
	HasRegressions bool `json:"has_regressions"`
	// PassRateDelta is head.pass_rate - base.pass_rate; CostUSDDelta is
	// head.cost_usd - base.cost_usd, left out when either cost is
	// unpriced (the change is unknown).
	PassRateDelta float64  `json:"pass_rate_delta"`
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
	Added       []JSONCaseChange `json:"added"`
	Removed     []JSONCaseChange `json:"removed"`
	// Criteria are every criterion scored in either run, by name.
	Criteria []JSONCriterionDelta `json:"criteria"`
}

// A JSONComparedRun is one of the runs of a comparison.
type JSONComparedRun struct {
	// Label names the run as the caller did ("main@abc1234"); "base" or
	// "head" when they did not.
	Label    string  `json:"label"`
	PassRate float64 `json:"pass_rate"`
	CostUSD  float64 `json:"cost_usd"`
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
		HasRegressions: c.HasRegressions(),
		PassRateDelta:  c.PassRate.Diff(),
		Counts: JSONComparisonCounts{
			Regressions: len(c.Regressions), Fixes: len(c.Fixes), Changed: len(c.Changed),
			Errored: len(c.Errored), NotCompared: len(c.NotCompared),
			Added: len(c.Added), Removed: len(c.Removed), Unchanged: c.Unchanged,
		},
		Regressions: jsonCaseChanges(c.Regressions),
		Fixes:       jsonCaseChanges(c.Fixes),
		Changed:     jsonCaseChanges(c.Changed),
		Errored:     jsonCaseChanges(c.Errored),
		NotCompared: jsonCaseChanges(c.NotCompared),
		Added:       jsonCaseChanges(c.Added),
		Removed:     jsonCaseChanges(c.Removed),
		Criteria:    make([]JSONCriterionDelta, len(c.Criteria)),
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
	return out
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
