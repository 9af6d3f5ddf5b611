package eval

import (
	"context"
	"fmt"

	"github.com/gavelhq/gavel"
	"github.com/gavelhq/gavel/store"
)

// applyQuarantine marks the cases of run, stored as run id, that are
// quarantined (gavel.CaseResult.Quarantined): by hand, or by the suite's
// flaky: quarantine_after over its runs before this one. They are then
// left out of its gate. A store that cannot tell is said on stderr, and
// nothing is quarantined.
func applyQuarantine(ctx context.Context, st store.Store, run *gavel.Run, id string) error {
	if run.Suite == nil {
		return nil
	}
	manual, err := store.QuarantineReasons(ctx, st, run.Suite.Name)
	if err != nil {
		return err
	}
	var history map[string][]gavel.Outcome
	if n := run.Suite.Flaky.QuarantineAfter; n > 0 {
		// One run more than n: the first of the n is unstable, or not, by
		// the run before it.
		if history, err = store.History(ctx, st, run.Suite.Name, n+1, id); err != nil {
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
