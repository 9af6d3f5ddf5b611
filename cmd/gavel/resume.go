package main

import (
	"context"
	"errors"
	"fmt"
	"io"

	"github.com/gavelhq/gavel"
	"github.com/gavelhq/gavel/judge"
	"github.com/gavelhq/gavel/spec"
	"github.com/gavelhq/gavel/store"
)

// A prior run is the stored run that --resume or --retry-errors carries
// on: its id, and the trials to keep.
type prior struct {
	id   string
	kept map[trialKey]gavel.Trial
}

type trialKey struct {
	caseID string
	n      int
}

// reuse is runner.Config.Reuse: the kept trials are not run again.
func (p prior) reuse(caseID string, n int) (gavel.Trial, bool) {
	t, ok := p.kept[trialKey{caseID, n}]
	return t, ok
}

// priorRun reads the run --resume or --retry-errors names, if either
// does. --resume keeps every trial the run finished; --retry-errors keeps
// those that did not end in ERROR. It returns a non-zero exit code after
// printing why the flags cannot be followed.
func priorRun(ctx context.Context, st store.Store, f *runFlags, built []*spec.Built, stderr io.Writer) (prior, int) {
	id, flag, keep := f.resume, "--resume", func(gavel.Trial) bool { return true }
	if f.retry != "" {
		id, flag, keep = f.retry, "--retry-errors", func(t gavel.Trial) bool { return t.Verdict.Status != judge.StatusError }
	}
	switch {
	case id == "":
		return prior{}, exitPassed
	case f.resume != "" && f.retry != "":
		fmt.Fprintln(stderr, "gavel run: give --resume or --retry-errors, not both")
		return prior{}, exitUsage
	case len(built) != 1:
		fmt.Fprintf(stderr, "gavel run: %s carries on one run: give its one suite\n", flag)
		return prior{}, exitUsage
	}
	stored, err := st.Run(ctx, id)
	if errors.Is(err, store.ErrNotFound) {
		fmt.Fprintf(stderr, "gavel run: %s %s: no such run (gavel runs lists them)\n", flag, id)
		return prior{}, exitUsage
	} else if err != nil {
		fmt.Fprintf(stderr, "gavel run: %s %s: %v\n", flag, id, err)
		return prior{}, exitInfra
	}
	if suite := built[0].Suite.Name; stored.Info.Suite != suite {
		fmt.Fprintf(stderr, "gavel run: %s %s: that run is of suite %q, not %q\n", flag, id, stored.Info.Suite, suite)
		return prior{}, exitUsage
	}
	p := prior{id: id, kept: map[trialKey]gavel.Trial{}}
	for _, cr := range stored.Run.Cases {
		for _, t := range cr.Trials {
			if keep(t) {
				p.kept[trialKey{t.CaseID, t.N}] = t
			}
		}
	}
	fmt.Fprintf(stderr, "gavel: %s %s: keeping %d finished trials\n", flag, id, len(p.kept))
	return p, exitPassed
}
