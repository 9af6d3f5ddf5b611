package store

import (
	"cmp"
	"context"
	"fmt"
	"slices"

	"github.com/gavelhq/gavel"
)

// A FlakyCase is a case of a suite as its recent runs saw it.
type FlakyCase struct {
	Suite  string `json:"suite"`
	CaseID string `json:"case_id"`
	// Outcomes are its outcomes in the runs that judged it, oldest first
	// (gavel.Judged), and FlipRate the share of them that found it
	// unstable (gavel.FlipRate).
	Outcomes []gavel.Outcome `json:"outcomes"`
	FlipRate float64         `json:"flip_rate"`
	// Quarantined says why the case is quarantined, by hand (gavel
	// quarantine) or by its suite's flaky: quarantine_after; "" when it
	// is not.
	Quarantined string `json:"quarantined,omitempty"`
}

// DefaultFlakyRuns is how many of a suite's recent runs gavel flaky and
// the web app's flaky page read unless told.
const DefaultFlakyRuns = 10

// History returns the outcomes of the cases of suite in its last runs
// finished runs (passed or failed: every selected trial ran), oldest
// first, by case, leaving out the run except; a case's outcomes in runs
// that ran another definition of it than the newest are left out too.
// It reads the runs without their transcripts.
func History(ctx context.Context, st Store, suite string, runs int, except string) (map[string][]gavel.Outcome, error) {
	infos, err := st.Runs(ctx, RunFilter{Suite: suite, Limit: 4 * runs})
	if err != nil {
		return nil, err
	}
	type seen struct {
		outcomes    []gavel.Outcome
		definitions []string
	}
	byCase := map[string]*seen{}
	n := 0
	for _, info := range infos { // newest first
		if n == runs {
			break
		}
		if info.ID == except || (info.Status != Passed && info.Status != Failed) {
			continue
		}
		n++
		stored, err := st.RunVerdicts(ctx, info.ID)
		if err != nil {
			return nil, fmt.Errorf("run %s: %w", info.ID, err)
		}
		for _, cr := range stored.Run.Cases {
			s := byCase[cr.ID()]
			if s == nil {
				s = &seen{}
				byCase[cr.ID()] = s
			}
			s.outcomes = append(s.outcomes, cr.Outcome)
			s.definitions = append(s.definitions, cr.Definition)
		}
	}
	out := map[string][]gavel.Outcome{}
	for id, s := range byCase {
		var kept []gavel.Outcome
		newest := s.definitions[0]
		for i, o := range s.outcomes {
			if newest != "" && s.definitions[i] != "" && s.definitions[i] != newest {
				break // an older definition: another case, in effect
			}
			kept = append(kept, o)
		}
		slices.Reverse(kept)
		out[id] = gavel.Judged(kept)
	}
	return out, nil
}

// Flaky lists the cases of suite ("" for every suite the store has
// runs of) that were unstable in its last runs runs, the most unstable
// first, with their quarantines.
func Flaky(ctx context.Context, st Store, suite string, runs int) ([]FlakyCase, error) {
	suites := []string{suite}
	if suite == "" {
		infos, err := st.Runs(ctx, RunFilter{Limit: 1000})
		if err != nil {
			return nil, err
		}
		suites = nil
		for _, info := range infos {
			if !slices.Contains(suites, info.Suite) {
				suites = append(suites, info.Suite)
			}
		}
	}
	var out []FlakyCase
	for _, name := range suites {
		history, err := History(ctx, st, name, runs, "")
		if err != nil {
			return nil, err
		}
		manual, err := QuarantineReasons(ctx, st, name)
		if err != nil {
			return nil, err
		}
		for id, outcomes := range history {
			rate := gavel.FlipRate(outcomes)
			if rate == 0 && manual[id] == "" {
				continue
			}
			out = append(out, FlakyCase{Suite: name, CaseID: id, Outcomes: outcomes, FlipRate: rate, Quarantined: manual[id]})
		}
	}
	slices.SortFunc(out, func(a, b FlakyCase) int {
		return cmp.Or(cmp.Compare(b.FlipRate, a.FlipRate), cmp.Compare(a.Suite, b.Suite), cmp.Compare(a.CaseID, b.CaseID))
	})
	return out, nil
}

// QuarantineReasons returns why each case of suite quarantined by hand
// is, by case id; none when st keeps no quarantines.
func QuarantineReasons(ctx context.Context, st Store, suite string) (map[string]string, error) {
	out := map[string]string{}
	q, ok := st.(Quarantines)
	if !ok {
		return out, nil
	}
	list, err := q.Quarantined(ctx, suite)
	if err != nil {
		return nil, err
	}
	for _, x := range list {
		out[x.CaseID] = fmt.Sprintf("quarantined by %s: %s", x.By, x.Reason)
	}
	return out, nil
}

// ApplyQuarantine marks the cases of run, stored as run id, that are
// quarantined (gavel.CaseResult.Quarantined): by hand, or by the suite's
// flaky: quarantine_after over its runs before this one. They are then
// left out of its gate. gavel run, the web app's runs and a queue's last
// worker call it as a run ends, before its status and reports.
func ApplyQuarantine(ctx context.Context, st Store, run *gavel.Run, id string) error {
	if run.Suite == nil {
		return nil
	}
	manual, err := QuarantineReasons(ctx, st, run.Suite.Name)
	if err != nil {
		return err
	}
	var history map[string][]gavel.Outcome
	if n := run.Suite.Flaky.QuarantineAfter; n > 0 {
		// One run more than n: the first of the n is unstable, or not, by
		// the run before it.
		if history, err = History(ctx, st, run.Suite.Name, n+1, id); err != nil {
			return err
		}
	}
	for i := range run.Cases {
		cr := &run.Cases[i]
		switch id := cr.ID(); {
		case manual[id] != "":
			cr.Quarantined = manual[id]
		case run.Suite.Flaky.QuarantinedBy(history[id]):
			cr.Quarantined = fmt.Sprintf("unstable in each of its last %d runs (flaky: quarantine_after: %d)", run.Suite.Flaky.QuarantineAfter, run.Suite.Flaky.QuarantineAfter)
		}
	}
	return nil
}
