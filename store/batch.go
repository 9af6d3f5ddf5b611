package store

import (
	"context"
)

// A Batcher is a Store that saves many case definitions, or many trials
// of a run, in one write: a run that finishes trials faster than a
// database commits them one at a time (a large suite against a fast
// agent) writes them as they come, a batch per commit, instead of
// leaving a queue to drain at its end. SaveCases and SaveTrials, the
// functions, use it when a store has it.
type Batcher interface {
	// SaveCases saves the case definitions in order, as SaveCase would
	// one after the other, and returns their versions in the same order.
	SaveCases(ctx context.Context, cs []CaseDef) ([]CaseVersion, error)
	// SaveTrials saves the trials of a run, as SaveTrial would one after
	// the other, all or none.
	SaveTrials(ctx context.Context, runID string, ts []TrialRecord) error
}

// SaveCases saves the case definitions cs in st, in one write when st is
// a Batcher, and returns their versions in order.
func SaveCases(ctx context.Context, st Store, cs []CaseDef) ([]CaseVersion, error) {
	if len(cs) == 0 {
		return nil, nil
	}
	if b, ok := st.(Batcher); ok {
		return b.SaveCases(ctx, cs)
	}
	out := make([]CaseVersion, 0, len(cs))
	for _, c := range cs {
		v, err := st.SaveCase(ctx, c)
		if err != nil {
			return nil, err
		}
		out = append(out, v)
	}
	return out, nil
}

// SaveTrials saves trials of run runID in st, in one write when st is a
// Batcher.
func SaveTrials(ctx context.Context, st Store, runID string, ts []TrialRecord) error {
	if len(ts) == 0 {
		return nil
	}
	if b, ok := st.(Batcher); ok {
		return b.SaveTrials(ctx, runID, ts)
	}
	for _, t := range ts {
		if err := st.SaveTrial(ctx, runID, t); err != nil {
			return err
		}
	}
	return nil
}
