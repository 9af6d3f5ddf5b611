package eval

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sync"

	"github.com/gavelhq/gavel"
	"github.com/gavelhq/gavel/judge"
	"github.com/gavelhq/gavel/llm"
	"github.com/gavelhq/gavel/spec"
	"github.com/gavelhq/gavel/store"
)

// WriteDisagreements writes the judgments people overruled among checks
// to path as a file of examples (spec.WriteExamples), each with the
// trial's request and reply read from the store: what a judge's
// examples: names (gavel calibrate --disagreements). suite is the suite
// whose labels they are (empty: every suite's), for the file's header. The file is written whole or
// not at all.
func WriteDisagreements(ctx context.Context, st store.Store, checks []gavel.LabelCheck, path, suite string) (gavel.ExampleCount, error) {
	what := "the labels of suite " + suite
	if suite == "" {
		what = "the labels of every suite"
	}
	examples, count, err := gavel.DisagreementExamples(ctx, checks, labelledTranscripts(st))
	if err != nil {
		return count, err
	}
	header := fmt.Sprintf("The judgments people overruled (%s), written by gavel calibrate --disagreements:\n"+
		"%d examples of %d overruled judgments", what, count.Examples, count.Disagreements)
	if count.Contested+count.Unknown > 0 {
		header += fmt.Sprintf(" (left out: %d where people disagree among themselves, %d whose labels do not say the right category)", count.Contested, count.Unknown)
	}
	header += fmt.Sprintf(".\nEach verdict is the people's; judged is what the judge said.\nA judge takes them with examples: %s (docs/labels.md).", filepath.Base(path))
	var b bytes.Buffer
	if err := spec.WriteExamples(&b, examples, header); err != nil {
		return count, err
	}
	if err := writeWhole(path, b.Bytes()); err != nil {
		return count, fmt.Errorf("--disagreements: %w", err)
	}
	return count, nil
}

// writeWhole writes data to path through a temporary file beside it, so
// that a failure leaves what was there.
func writeWhole(path string, data []byte) error {
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	if _, err := tmp.Write(data); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), path)
}

// labelledTranscripts reads labelled trials' transcripts from st, a case
// of a run at a time.
func labelledTranscripts(st store.Store) gavel.TranscriptFunc {
	var mu sync.Mutex
	cases := map[[2]string]*store.StoredCase{}
	return func(ctx context.Context, run, caseID string, trial int) (*judge.Transcript, error) {
		mu.Lock()
		c, ok := cases[[2]string{run, caseID}]
		mu.Unlock()
		if !ok {
			var err error
			if c, err = st.RunCase(ctx, run, caseID); err != nil {
				return nil, err
			}
			mu.Lock()
			cases[[2]string{run, caseID}] = c
			mu.Unlock()
		}
		for _, t := range c.Result.Trials {
			if t.N == trial && t.Transcript != nil {
				return t.Transcript, nil
			}
		}
		return nil, fmt.Errorf("run %s has no transcript of trial %d of case %s", run, trial, caseID)
	}
}

// ExampleComparing says what CompareExamples compares.
type ExampleComparing struct {
	// Examples is the file of examples compared: the suite's judges that
	// name it (examples:) are judged with it and without it.
	Examples string
	// Suite is the suite file whose judges judge. Defaults to the suite
	// file of the latest labelled run.
	Suite string
	// Holdout splits the cases: the examples of held-out cases are left
	// out of the judges, and only held-out cases' labels are scored.
	Holdout gavel.Holdout
	// NoCache asks the models again rather than answering from Gavel's
	// cache (.gavel/cache in the working directory).
	NoCache bool
}

// CompareExamples compares a suite's judges with and without the
// examples of a file on the held-out labels among checks, judging the
// stored transcripts again (gavel.CompareExamples): the judges that name
// the file (examples:) are given the file's examples that come from no
// held-out case, or none; every other judge is as the suite writes it,
// less any of its examples from a held-out case. It is gavel calibrate
// --compare-examples's, and the call for gavel audit on a labelled run.
//
// A suite none of whose judges names the file, or labels of no stored
// run, is a *ComparingError: the user's to fix.
func CompareExamples(ctx context.Context, st store.Store, checks []gavel.LabelCheck, c ExampleComparing) (gavel.ExampleComparison, error) {
	suite := c.Suite
	if suite == "" {
		var err error
		if suite, err = labelledSuite(ctx, st, checks); err != nil {
			return gavel.ExampleComparison{}, err
		}
	}
	file, err := filepath.Abs(c.Examples)
	if err != nil {
		return gavel.ExampleComparison{}, err
	}
	if _, err := os.Stat(file); err != nil {
		return gavel.ExampleComparison{}, &ComparingError{fmt.Sprintf("--compare-examples: %v", err)}
	}
	m, err := OpenModels(DefaultCacheDir(), c.NoCache, false)
	if err != nil {
		return gavel.ExampleComparison{}, fmt.Errorf("the model cache: %w", err)
	}
	defer m.Close()
	held := func(e gavel.Example) bool { return !e.Source.IsZero() && c.Holdout.Holds(e.Source.Case) }
	// open builds the suite's judges with the file's examples or without;
	// the judges that name it are found as they are built (spec builds a
	// suite's judges one at a time).
	var named bool
	var given []gavel.Example // the file's examples the judges with them are given
	open := func(withFile bool) (*spec.Built, error) {
		env := suiteEnv(&llm.Limiters{}, m, llm.NewMeter(llm.DefaultPrices()), nil, st)
		env.Examples = func(f string, examples []gavel.Example) []gavel.Example {
			kept := slices.DeleteFunc(slices.Clone(examples), held)
			switch {
			case f == "" || !sameFile(f, file):
				return kept
			case withFile:
				named, given = true, kept
				return kept
			}
			return nil
		}
		b, err := spec.Open(suite, env)
		if err != nil {
			return nil, &ComparingError{fmt.Sprintf("suite %s: %v", suite, err)}
		}
		return b, nil
	}
	with, err := open(true)
	if err != nil {
		return gavel.ExampleComparison{}, err
	}
	defer with.Close()
	if !named {
		return gavel.ExampleComparison{}, &ComparingError{fmt.Sprintf("--compare-examples: no judge of suite %s takes examples from %s: add examples: %s to the judge they are for", suite, c.Examples, c.Examples)}
	}
	without, err := open(false)
	if err != nil {
		return gavel.ExampleComparison{}, err
	}
	defer without.Close()
	return gavel.CompareExamples(ctx, checks, c.Holdout, gavel.ExampleJudges{
		Without:    caseJudges(without.Suite),
		With:       caseJudges(with.Suite),
		Examples:   given,
		Transcript: labelledTranscripts(st),
	})
}

// A ComparingError is a mistake of the user's in what CompareExamples
// was asked to compare.
type ComparingError struct{ msg string }

func (e *ComparingError) Error() string { return e.msg }

// caseJudges returns the judge of each case of s by its id.
func caseJudges(s *gavel.Suite) func(string) judge.Judge {
	byID := map[string]judge.Judge{}
	for _, c := range s.Cases {
		byID[c.ID] = c.Judge
	}
	return func(id string) judge.Judge { return byID[id] }
}

// sameFile reports whether two paths name one file.
func sameFile(a, b string) bool {
	if a == b {
		return true
	}
	sa, errA := os.Stat(a)
	sb, errB := os.Stat(b)
	return errA == nil && errB == nil && os.SameFile(sa, sb)
}

// labelledSuite is the suite file of the latest run among those checks
// label.
func labelledSuite(ctx context.Context, st store.Store, checks []gavel.LabelCheck) (string, error) {
	var latest store.RunInfo
	seen := map[string]bool{}
	for _, c := range checks {
		if seen[c.RunID] {
			continue
		}
		seen[c.RunID] = true
		info, err := st.RunInfo(ctx, c.RunID)
		if err != nil {
			return "", fmt.Errorf("run %s: %w", c.RunID, err)
		}
		if latest.ID == "" || info.Started.After(latest.Started) {
			latest = info
		}
	}
	switch {
	case latest.ID == "":
		return "", &ComparingError{"--compare-examples: no labels to compare the judges on: label judgments in the web app (gavel serve) or import labels (gavel labels import)"}
	case latest.SuiteFile == "":
		return "", &ComparingError{fmt.Sprintf("--compare-examples: run %s names no suite file (an imported run?)", latest.ID)}
	}
	return latest.SuiteFile, nil
}
