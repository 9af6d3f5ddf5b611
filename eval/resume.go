package eval

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/gavelhq/gavel"
	"github.com/gavelhq/gavel/judge"
	"github.com/gavelhq/gavel/spec"
	"github.com/gavelhq/gavel/store"
)

// A prior run is the stored run that --resume or --retry-errors carries
// on: its id, the flag that names it, and the trials to keep. The run
// that carries it on is a new run that names it (store.RunInfo.Continues)
// and holds copies of the kept trials; the prior run's record is never
// changed.
type prior struct {
	id, flag string
	kept     map[trialKey]gavel.Trial
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
// does. --resume keeps every trial the run finished: not those cut short
// by a stop (judge.CauseCancelled, or a conversation CANCELLED, as older
// Gavels stored them), nor of course those it never ran.
// --retry-errors keeps the trials that did not end in ERROR. It returns a
// non-zero exit code after printing why the flags cannot be followed.
func priorRun(ctx context.Context, st store.Store, f *Options, built []*spec.Built, stderr io.Writer) (prior, int) {
	id, flag, keep := f.Resume, "--resume", finished
	if f.RetryErrors != "" {
		id, flag, keep = f.RetryErrors, "--retry-errors", func(t gavel.Trial) bool { return t.Verdict.Status != judge.StatusError }
	}
	switch {
	case id == "":
		return prior{}, ExitPassed
	case f.Resume != "" && f.RetryErrors != "":
		fmt.Fprintln(stderr, "gavel run: give --resume or --retry-errors, not both")
		return prior{}, ExitUsage
	case len(built) != 1:
		fmt.Fprintf(stderr, "gavel run: %s carries on one run: give its one suite\n", flag)
		return prior{}, ExitUsage
	}
	stored, err := st.Run(ctx, id)
	if errors.Is(err, store.ErrNotFound) {
		fmt.Fprintf(stderr, "gavel run: %s %s: no such run (gavel runs lists them)\n", flag, id)
		return prior{}, ExitUsage
	} else if err != nil {
		fmt.Fprintf(stderr, "gavel run: %s %s: %v\n", flag, id, err)
		return prior{}, ExitInfra
	}
	if suite := built[0].Suite.Name; stored.Info.Suite != suite {
		fmt.Fprintf(stderr, "gavel run: %s %s: that run is of suite %q, not %q\n", flag, id, stored.Info.Suite, suite)
		return prior{}, ExitUsage
	}
	if stored.Info.Rejudges != "" {
		fmt.Fprintf(stderr, "gavel run: %s %s: that run judged the transcripts of run %s again, it talked with no agent: gavel rejudge %s judges them again\n", flag, id, stored.Info.Rejudges, stored.Info.Rejudges)
		return prior{}, ExitUsage
	}
	if stored.Info.Status == store.Running {
		fmt.Fprintf(stderr, "gavel run: %s %s: that run is still running (pid %d on %s): let it finish, or stop it first\n", flag, id, stored.Info.PID, stored.Info.Host)
		return prior{}, ExitUsage
	}
	p := prior{id: id, flag: flag, kept: map[trialKey]gavel.Trial{}}
	dropped := 0
	for _, cr := range stored.Run.Cases {
		for _, t := range cr.Trials {
			if keep(t) {
				p.kept[trialKey{t.CaseID, t.N}] = t
			} else {
				dropped++
			}
		}
	}
	fmt.Fprintf(stderr, "gavel: %s %s: a new run carries it on, keeping %d of its trials and running %d of them again (with any it never ran); run %s is left as it was\n",
		flag, id, len(p.kept), dropped, id)
	return p, ExitPassed
}

// finished reports whether a stored trial finished: it was not cut short
// by a run stopped at once.
func finished(t gavel.Trial) bool {
	cancelled := t.Transcript != nil && t.Transcript.Status == judge.ExecCancelled
	return !cancelled && t.Cause() != judge.CauseCancelled
}

// carryOnSelection returns the suites to run when none were named: with
// --resume or --retry-errors, the suite file of the run it carries on,
// and, for the options not given, that run's trials and selection (its
// --tag, --id and --changed-since), so that the command a stopped run
// prints carries it on from any directory; else the current directory.
func carryOnSelection(ctx context.Context, st store.Store, f *Options, stderr io.Writer) []string {
	id := cmp.Or(f.Resume, f.RetryErrors)
	if id == "" {
		return []string{"."}
	}
	info, err := st.RunInfo(ctx, id)
	if err != nil || info.SuiteFile == "" {
		return []string{"."} // priorRun says what is wrong with the run
	}
	var carried []string
	if n, err := strconv.Atoi(info.Settings["trials"]); err == nil && f.Trials == 0 && n > 0 {
		f.Trials = n
		carried = append(carried, "--trials "+strconv.Itoa(n))
	}
	if len(f.Tags) == 0 && len(f.IDs) == 0 && f.ChangedSince == "" {
		for _, filter := range info.Filters {
			flag, value, _ := strings.Cut(filter, " ")
			switch flag {
			case "--tag":
				f.Tags = append(f.Tags, value)
			case "--id":
				f.IDs = append(f.IDs, value)
			case "--changed-since":
				f.ChangedSince = value
			default:
				continue
			}
			carried = append(carried, filter)
		}
	}
	how := ""
	if len(carried) > 0 {
		how = " with " + strings.Join(carried, " ")
	}
	fmt.Fprintf(stderr, "gavel: %s: running suite %s%s, as that run did\n", id, info.SuiteFile, how)
	return []string{info.SuiteFile}
}
