package eval

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/gavelhq/gavel"
	"github.com/gavelhq/gavel/report"
	"github.com/gavelhq/gavel/store"
)

// FindBaseline returns the run ref names, to compare a run of suite with,
// read without its transcripts: the run whose id is ref; else the run
// labelled ref (--run-label); else the newest run of suite on git branch
// ref that finished every trial (passed or failed), other than the run
// except. It returns store.ErrNotFound, wrapped, when ref names none, and
// an error when the run ref names is of another suite.
func FindBaseline(ctx context.Context, st store.Store, ref, suite, except string) (*store.StoredRun, error) {
	base, err := st.RunVerdicts(ctx, ref)
	if sh, ok := st.(store.Sharder); ok && errors.Is(err, store.ErrNotFound) {
		var info store.RunInfo
		if info, _, err = sh.RunByLabel(ctx, ref); err == nil {
			base, err = st.RunVerdicts(ctx, info.ID)
		}
	}
	if errors.Is(err, store.ErrNotFound) {
		base, err = newestOnBranch(ctx, st, ref, suite, except)
	}
	if err != nil {
		return nil, err
	}
	if base.Info.Suite != suite {
		return nil, fmt.Errorf("run %s is a run of suite %q, not %q", base.Info.ID, base.Info.Suite, suite)
	}
	return base, nil
}

// newestOnBranch returns the newest run of suite on branch that finished
// every trial, but except.
func newestOnBranch(ctx context.Context, st store.Store, branch, suite, except string) (*store.StoredRun, error) {
	runs, err := st.Runs(ctx, store.RunFilter{Suite: suite, Branch: branch, Limit: 100})
	if err != nil {
		return nil, err
	}
	for _, info := range runs {
		if info.ID != except && (info.Status == store.Passed || info.Status == store.Failed) {
			return st.RunVerdicts(ctx, info.ID)
		}
	}
	return nil, noBaseline(fmt.Sprintf("no run has id or label %q, and no finished run of suite %q is on a branch of that name", branch, suite))
}

// noBaseline is FindBaseline's error when ref names no run: it is
// store.ErrNotFound, in words of its own.
type noBaseline string

func (e noBaseline) Error() string        { return string(e) }
func (e noBaseline) Is(target error) bool { return target == store.ErrNotFound }

// gateOnBaseline compares run id of suite, just stored in st, with the
// baseline o names, writes the comparison to w, and returns the exit code
// it earns: ExitFailed when the run REGRESSED or a critical case failed,
// ExitPassed otherwise, and when there is no baseline yet (it says so on
// stderr: the first run of a branch has nothing to compare with).
func gateOnBaseline(ctx context.Context, st store.Store, o *Options, suite, id string, w, stderr io.Writer) int {
	base, err := FindBaseline(ctx, st, o.Baseline, suite, id)
	if errors.Is(err, store.ErrNotFound) {
		fmt.Fprintf(stderr, "gavel run: --baseline %s: %v: nothing to compare with, so the run is gated on its threshold alone\n", o.Baseline, err)
		return ExitPassed
	}
	if err != nil {
		fmt.Fprintf(stderr, "gavel run: --baseline %s: %v\n", o.Baseline, err)
		return ExitUsage
	}
	head, err := st.RunVerdicts(ctx, id)
	if err != nil {
		fmt.Fprintf(stderr, "gavel run: --baseline: reading run %s back: %v\n", id, err)
		return ExitInfra
	}
	c := gavel.CompareWith(base.Run, head.Run, o.Compare)
	opts := report.ComparisonOptions{BaseLabel: base.Info.Caption(), HeadLabel: head.Info.Caption()}
	fmt.Fprintln(w)
	if err := report.WriteComparison(w, report.Text, c, opts); err != nil {
		fmt.Fprintf(stderr, "gavel run: --baseline: %v\n", err)
		return ExitUnknown
	}
	if err := stepSummary(c, opts); err != nil {
		fmt.Fprintf(stderr, "gavel run: --baseline: the step summary: %v\n", err)
	}
	if c.Failed() {
		return ExitFailed
	}
	return ExitPassed
}

// stepSummary adds, in GitHub Actions, the Markdown comparison to the
// step summary, after the run's report (withStepSummary).
func stepSummary(c gavel.Comparison, opts report.ComparisonOptions) error {
	summary := os.Getenv("GITHUB_STEP_SUMMARY")
	if os.Getenv("GITHUB_ACTIONS") != "true" || summary == "" {
		return nil
	}
	f, err := os.OpenFile(summary, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
	if err != nil {
		return err
	}
	if err := report.WriteComparison(f, report.Markdown, c, opts); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}
