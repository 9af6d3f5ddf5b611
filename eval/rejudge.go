package eval

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"slices"
	"strings"

	"github.com/gavelhq/gavel"
	"github.com/gavelhq/gavel/judge"
	"github.com/gavelhq/gavel/store"
)

// Rejudging says what Session.Rejudge judges a stored run with, besides
// the session's Options (of which Tags, IDs, DB, the reports, Concurrency,
// Timeout, MinPassRate, the budgets, the prices and NoCache apply).
type Rejudging struct {
	// Suite is the suite file (or directory holding gavel.yaml) whose
	// judges judge. Defaults to the suite the run was made from.
	Suite string
	// Baseline, with Pairwise, compares every reply with the reply of the
	// run of this id to the same case, with a pairwise judge of the
	// criteria Pairwise, on the model Model (provider:model; defaults to
	// the suite's models.judge).
	Baseline, Pairwise, Model string
}

// Rejudge judges the transcripts of the stored run id again with the
// judges of a suite, as a new run (gavel rejudge): the agent is not
// called. It stores and reports the new run as Run does, and returns the
// exit code it earns.
func (r *Session) Rejudge(ctx context.Context, id string, rj Rejudging) int {
	r.Command = cmp.Or(r.Command, "gavel rejudge")
	if (rj.Baseline == "") != (rj.Pairwise == "") {
		fmt.Fprintf(r.Stderr, "%s: --baseline and --pairwise go together: the run to compare with, and what makes a reply better\n", r.Command)
		return ExitUsage
	}
	if rj.Model != "" && rj.Pairwise == "" {
		fmt.Fprintf(r.Stderr, "%s: --model is the pairwise judge's: give --baseline and --pairwise too\n", r.Command)
		return ExitUsage
	}
	if err := r.init(); err != nil {
		fmt.Fprintf(r.Stderr, "%s: %v\n", r.Command, err)
		return ExitUsage
	}
	f := &r.Options
	var err error
	if r.st, err = OpenStore(ctx, f.DB); err != nil {
		fmt.Fprintf(r.Stderr, "%s: the results database: %v\n", r.Command, err)
		return ExitInfra
	}
	defer r.st.Close()
	source, code := storedRun(ctx, r.st, id, "", r.Stderr)
	if source == nil {
		return code
	}
	var baseline *store.StoredRun
	if rj.Baseline != "" {
		if baseline, code = storedRun(ctx, r.st, rj.Baseline, "--baseline ", r.Stderr); baseline == nil {
			return code
		}
	}
	path := rj.Suite
	if path == "" {
		if path = source.Info.SuiteFile; path == "" {
			fmt.Fprintf(r.Stderr, "%s: run %s names no suite file (an imported run?): give one with --suite\n", r.Command, id)
			return ExitUsage
		}
	}
	m, err := OpenModels(DefaultCacheDir(), f.NoCache, false)
	if err != nil {
		fmt.Fprintf(r.Stderr, "%s: the model cache: %v\n", r.Command, err)
		return ExitInfra
	}
	defer m.Close()
	suites, ok := loadSuites([]string{path}, f, m, r.st, r.Stderr)
	defer func() {
		for _, s := range suites {
			s.Close()
		}
	}()
	if !ok {
		return ExitUsage
	}
	s := suites[0]
	if s.Suite.Name != source.Info.Suite && source.Info.Suite != "" {
		fmt.Fprintf(r.Stderr, "%s: run %s is of suite %q; judging its transcripts with the judges of suite %q (%s), case by case id\n",
			r.Command, id, source.Info.Suite, s.Suite.Name, s.Suite.File)
	}
	r.replay = replayOf(source, s.Suite, len(f.Tags)+len(f.IDs) > 0, r.Stderr)
	if baseline != nil {
		if err := addPairwise(s, baseline, rj, m); err != nil {
			fmt.Fprintf(r.Stderr, "%s: %v\n", r.Command, err)
			return ExitUsage
		}
	}
	return r.run(ctx, s)
}

// storedRun reads a run whole, for gavel rejudge; flag names the flag
// that named it ("" for the argument), for messages. It returns nil and
// an exit code after saying why it cannot be read, or be judged: it is
// still running.
func storedRun(ctx context.Context, st store.Store, id, flag string, stderr io.Writer) (*store.StoredRun, int) {
	stored, err := st.Run(ctx, id)
	switch {
	case errors.Is(err, store.ErrNotFound):
		fmt.Fprintf(stderr, "gavel rejudge: %s%s: no such run (gavel runs lists them)\n", flag, id)
		return nil, ExitUsage
	case err != nil:
		fmt.Fprintf(stderr, "gavel rejudge: %s%s: %v\n", flag, id, err)
		return nil, ExitInfra
	case stored.Info.Status == store.Running:
		fmt.Fprintf(stderr, "gavel rejudge: %s%s: that run is still running (pid %d on %s): let it finish, or stop it first\n",
			flag, id, stored.Info.PID, stored.Info.Host)
		return nil, ExitUsage
	}
	return stored, ExitPassed
}

// A replay is what gavel rejudge judges again: the run it rejudges and
// its stored trials by case id (runner.Config.Replay).
type replay struct {
	source string
	trials map[string][]gavel.Trial
}

// replayOf sorts the trials of the source run by case, and says which of
// the suite's cases (those selected) the run lacks, and, unless cases
// were selected (--id, --tag), which of its cases the suite no longer
// has: they are not judged.
func replayOf(source *store.StoredRun, s *gavel.Suite, selected bool, stderr io.Writer) *replay {
	r := &replay{source: source.Info.ID, trials: map[string][]gavel.Trial{}}
	var gone []string
	for _, cr := range source.Run.Cases {
		id := cr.ID()
		r.trials[id] = append(r.trials[id], cr.Trials...)
		inSuite := slices.ContainsFunc(s.Cases, func(c *gavel.Case) bool { return c.ID == id })
		if !selected && !inSuite && !slices.Contains(gone, id) {
			gone = append(gone, id)
		}
	}
	if len(gone) > 0 {
		fmt.Fprintf(stderr, "gavel rejudge: run %s has cases that suite %s no longer has, not judged: %s\n", r.source, s.Name, strings.Join(gone, ", "))
	}
	var lacking []string
	for _, c := range s.Cases {
		if len(r.trials[c.ID]) == 0 {
			lacking = append(lacking, c.ID)
		}
	}
	if len(lacking) > 0 {
		fmt.Fprintf(stderr, "gavel rejudge: run %s has no transcript of these cases of suite %s, skipped: %s\n", r.source, s.Name, strings.Join(lacking, ", "))
	}
	return r
}

// stored is runner.Config.Replay.
func (r *replay) stored(caseID string) ([]gavel.Trial, string) {
	return r.trials[caseID], fmt.Sprintf("run %s, rejudged, has no transcript of this case", r.source)
}

// addPairwise adds to every case of s a pairwise judge of rj.Pairwise
// against baseline's transcript of the same case (its trial of the same
// number, else its first): it runs after the case's own judges, and only
// if they did not fail (as a later tier), and fails when the baseline's
// reply is better. A case the baseline lacks cannot be compared: the
// judge is an ERROR for it.
func addPairwise(s meteredSuite, baseline *store.StoredRun, rj Rejudging, m *Models) error {
	ref, dir := rj.Model, ""
	if ref == "" {
		ref, dir = s.ModelRef("judge"), filepath.Dir(s.Suite.File)
	}
	p, err := OpenPairwise(ref, dir, rj.Pairwise, m, s.meter)
	if err != nil {
		return err
	}
	byCase := map[string][]gavel.Trial{}
	for _, cr := range baseline.Run.Cases {
		byCase[cr.ID()] = append(byCase[cr.ID()], cr.Trials...)
	}
	for _, c := range s.Suite.Cases {
		trials := byCase[c.ID]
		pw := judge.Named("pairwise vs "+baseline.Info.ID, judge.Func(func(ctx context.Context, t *judge.Transcript) (judge.Judgment, error) {
			return p.Against(baselineTranscript(trials, t.Trial)).Judge(ctx, t)
		}))
		if c.Judge == nil {
			c.Judge = pw
		} else {
			c.Judge = judge.Tiered(c.Judge, pw)
		}
	}
	return nil
}

// baselineTranscript returns the transcript of the trial numbered n among
// trials, else of the first that has one; nil when none has.
func baselineTranscript(trials []gavel.Trial, n int) *judge.Transcript {
	var first *judge.Transcript
	for _, t := range trials {
		if t.Transcript == nil {
			continue
		}
		if t.N == n {
			return t.Transcript
		}
		if first == nil {
			first = t.Transcript
		}
	}
	return first
}
