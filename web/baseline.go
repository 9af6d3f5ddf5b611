package web

import (
	"context"
	"errors"
	"net/http"

	"github.com/gavelhq/gavel/store"
)

// The runs a run is compared with, named in ?a= of /compare instead of a
// run's id: its baseline, or the run before it.
const (
	compareBaseline = "baseline"
	comparePrevious = "previous"
)

// mainBranches are the branches a run without a --baseline is compared
// with, the first that has a run: where a team's reference runs usually
// are.
var mainBranches = []string{"main", "master"}

// finished says whether a run ran every selected trial: the runs a
// baseline may be.
func finished(info store.RunInfo) bool {
	return info.Status == store.Passed || info.Status == store.Failed
}

// previousRun returns the run of head's suite that started just before
// it, whatever its status; ok is false when there is none.
func (s *Server) previousRun(ctx context.Context, head store.RunInfo) (store.RunInfo, bool, error) {
	prev, err := s.store.Runs(ctx, store.RunFilter{Suite: head.Suite, Before: head.Started, Limit: 1})
	if err != nil || len(prev) == 0 {
		return store.RunInfo{}, false, err
	}
	return prev[0], true, nil
}

// baselineRun returns the run head is compared with by default, as gavel
// run --baseline finds one but as of head's start: what head's
// --baseline named (a run's id, a shards' run label, or a branch), else
// the main branch (mainBranches); of a branch, the newest run of head's
// suite on it that started before head and finished every trial. ok is
// false when there is none.
func (s *Server) baselineRun(ctx context.Context, head store.RunInfo) (store.RunInfo, bool, error) {
	branches := mainBranches
	if ref := head.Settings[store.SettingBaseline]; ref != "" {
		info, err := s.store.RunInfo(ctx, ref)
		if sh, ok := s.store.(store.Sharder); ok && errors.Is(err, store.ErrNotFound) {
			info, _, err = sh.RunByLabel(ctx, ref)
		}
		switch {
		case err == nil && info.Suite == head.Suite && info.ID != head.ID:
			return info, true, nil
		case err != nil && !errors.Is(err, store.ErrNotFound):
			return store.RunInfo{}, false, err
		}
		branches = []string{ref}
	}
	for _, branch := range branches {
		runs, err := s.store.Runs(ctx, store.RunFilter{Suite: head.Suite, Branch: branch, Before: head.Started, Limit: 20})
		if err != nil {
			return store.RunInfo{}, false, err
		}
		for _, info := range runs {
			if finished(info) {
				return info, true, nil
			}
		}
	}
	return store.RunInfo{}, false, nil
}

// resolveBase returns the id of the run ?a= names against head: a run's
// id as it is, or the run that baseline or previous finds.
func (s *Server) resolveBase(ctx context.Context, a, head string) (string, error) {
	if a != compareBaseline && a != comparePrevious {
		return a, nil
	}
	info, err := s.store.RunInfo(ctx, head)
	if err != nil {
		return "", notFound(err, "no run %s", head)
	}
	find, what := s.baselineRun, "no baseline: no finished run of suite %s on its --baseline or on main started before run %s"
	if a == comparePrevious {
		find, what = s.previousRun, "no run of suite %s started before run %s"
	}
	base, ok, err := find(ctx, info)
	switch {
	case err != nil:
		return "", err
	case !ok:
		return "", errorf(http.StatusNotFound, what, info.Suite, info.ID)
	}
	return base.ID, nil
}
