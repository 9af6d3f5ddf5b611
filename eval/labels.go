package eval

import (
	"context"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/gavelhq/gavel"
	"github.com/gavelhq/gavel/importer"
	"github.com/gavelhq/gavel/store"
)

// LabelChecks reads the labels people gave the judgments of stored runs
// that filter keeps, each beside the judgment it checks, for
// gavel.Calibrate (gavel calibrate). A filter naming a suite the database
// has no run of is an *UnknownSuiteError: a name mistyped, or the wrong
// database, not a judge nobody labelled, and measuring it would give a
// calibration of nothing.
func LabelChecks(ctx context.Context, st store.Store, filter store.LabelFilter) ([]gavel.LabelCheck, error) {
	if err := suiteStored(ctx, st, filter.Suite); err != nil {
		return nil, err
	}
	return st.LabelChecks(ctx, filter)
}

// An UnknownSuiteError is a suite the results database has no run of,
// with the suites of its latest runs.
type UnknownSuiteError struct {
	Suite string
	Known []string
}

func (e *UnknownSuiteError) Error() string {
	known := "it has no run at all: gavel run stores every run"
	if len(e.Known) > 0 {
		known = "the suites of its latest runs are: " + strings.Join(e.Known, ", ")
	}
	return fmt.Sprintf("--suite %s: the database has no run of that suite; %s", e.Suite, known)
}

// recentRuns is how many of the latest runs an UnknownSuiteError names
// the suites of.
const recentRuns = 200

// suiteStored returns an *UnknownSuiteError unless the database has a run
// of suite ("" is every suite).
func suiteStored(ctx context.Context, st store.Store, suite string) error {
	if suite == "" {
		return nil
	}
	runs, err := st.Runs(ctx, store.RunFilter{Suite: suite, Limit: 1})
	if err == nil && len(runs) > 0 {
		return nil
	}
	if err == nil {
		runs, err = st.Runs(ctx, store.RunFilter{Limit: recentRuns})
	}
	if err != nil {
		return err
	}
	unknown := &UnknownSuiteError{Suite: suite}
	for _, r := range runs {
		if !slices.Contains(unknown.Known, r.Suite) {
			unknown.Known = append(unknown.Known, r.Suite)
		}
	}
	slices.Sort(unknown.Known)
	return unknown
}

// ImportLabels saves the labels of each file (CSV or JSON Lines,
// importer.ReadLabels) in the results database (gavel labels import),
// and says how many on stdout, or, on stderr, what is wrong with a file,
// at its line: such a file is saved not at all, the others are. It
// returns the exit code: ExitUsage when a file was wrong, ExitInfra when
// the database failed.
func ImportLabels(ctx context.Context, st store.Store, files []string, stdout, stderr io.Writer) int {
	code := ExitPassed
	for _, name := range files {
		labels, lines, err := importer.ReadLabels(name)
		if err != nil {
			fmt.Fprintln(stderr, "gavel labels import:", err)
			code = ExitUsage
			continue
		}
		saved, err := st.AddLabels(ctx, labels)
		if err != nil {
			var le *store.LabelError
			if errors.As(err, &le) {
				fmt.Fprintf(stderr, "gavel labels import: %s:%d: %v; nothing of %s was imported\n", name, lines[le.Index], le.Err, name)
				code = ExitUsage
				continue
			}
			fmt.Fprintln(stderr, "gavel labels import:", err)
			return ExitInfra
		}
		n := fmt.Sprintf("%d labels", len(saved))
		if len(saved) == 1 {
			n = "1 label"
		}
		fmt.Fprintf(stdout, "%s: %s imported\n", name, n)
	}
	return code
}
