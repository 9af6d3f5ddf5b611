package store

import (
	"context"
	"time"
)

// A Quarantine takes a case out of its suite's gate: it runs and is
// reported, but its failures fail nothing, until it is released. People
// quarantine a case that flips for no reason they can fix yet (gavel
// quarantine), so that a flaky case does not teach a team to ignore the
// gate; a suite may quarantine its unstable cases by itself
// (gavel.FlakyConfig).
type Quarantine struct {
	Suite, CaseID string
	// Reason says why, By who, Created when.
	Reason  string
	By      string
	Created time.Time
}

// Quarantines is a Store that keeps quarantined cases.
type Quarantines interface {
	// Quarantine quarantines a case, or replaces its quarantine's reason.
	Quarantine(ctx context.Context, q Quarantine) error
	// Release ends a case's quarantine; ErrNotFound when it had none.
	Release(ctx context.Context, suite, caseID string) error
	// Quarantined returns the quarantines of suite ("" for every suite),
	// by suite and case.
	Quarantined(ctx context.Context, suite string) ([]Quarantine, error)
}
