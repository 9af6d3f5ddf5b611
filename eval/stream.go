package eval

import (
	"context"
	"fmt"
	"io"
	"iter"
	"path/filepath"
	"slices"
	"strings"

	"github.com/gavelhq/gavel"
	"github.com/gavelhq/gavel/llm"
	"github.com/gavelhq/gavel/runner"
	"github.com/gavelhq/gavel/spec"
	"github.com/gavelhq/gavel/store"
)

// gavel run reads a suite's cases as it runs them (spec.Stream), a case
// when the runner is ready for it, so that its first trial starts at once
// and a suite of any size runs in the memory of the results it keeps
// (docs/decisions/0014-streamed-suites.md). Before that, when the case
// files can be read twice (regular files), a first pass reads and builds
// every case and lets it go: every problem is reported before anything
// runs, and the flags' selection is counted. Cases read from a pipe (a
// FIFO) can be read once: they run as they come, and a
// problem found on the way stops the run.

// A selection is what a run's flags keep of a streamed suite's cases
// (--tag, --id, --changed-since), and what was counted of them: by the
// first pass, or, for cases from a pipe, as they ran.
type selection struct {
	tags, ids []string
	// changed are the files changed since --changed-since's ref, and
	// shared is true when one of them is a shared path of the suite
	// (every case is affected); since is the ref, "" without the flag.
	changed []string
	shared  bool
	since   string
	// counted says the counts below are whole: the first pass made them.
	counted bool
	// cases and kept count the cases read and those kept; trials the
	// trials of those kept; own is true when one of them has a number of
	// trials of its own; found are the --id ids seen.
	cases, kept, trials int
	own                 bool
	found               map[string]bool
}

// newSelection returns the selection f asks for of suite s, with the
// files changed since --changed-since's ref, if given.
func newSelection(s *gavel.Suite, f *Options) (selection, error) {
	sel := selection{tags: f.Tags, ids: f.IDs, since: f.ChangedSince, found: map[string]bool{}}
	if f.ChangedSince != "" {
		files, err := changedFiles(filepath.Dir(s.File), f.ChangedSince, f.writes())
		if err != nil {
			return sel, err
		}
		sel.changed = files
		sel.shared = s.AffectedCase(nil, files)
	}
	return sel, nil
}

// keeps reports whether the run keeps case c of suite s.
func (sel *selection) keeps(s *gavel.Suite, c *gavel.Case) bool {
	return matches(c, sel.tags, sel.ids) && (sel.since == "" || sel.shared || s.AffectedCase(c, sel.changed))
}

// count counts case c, kept or not, with its trials.
func (sel *selection) count(c *gavel.Case, kept bool, trials int) {
	sel.cases++
	if slices.Contains(sel.ids, c.ID) {
		sel.found[c.ID] = true
	}
	if kept {
		sel.kept++
		sel.trials += trials
		sel.own = sel.own || c.Trials > 0
	}
}

// check returns what is wrong with the cases kept, as selectCases does:
// an id asked for that the suite has not, or no case at all kept by
// --tag or --id.
func (sel *selection) check(s *gavel.Suite) error {
	for _, id := range sel.ids {
		if !sel.found[id] {
			return errNoCase(s, id)
		}
	}
	if sel.kept == 0 && len(sel.tags)+len(sel.ids) > 0 {
		return errNoMatch(s, sel.tags, sel.ids)
	}
	return nil
}

// sayChanged says what --changed-since selected, as selectChanged does
// (sayAffected).
func (sel *selection) sayChanged(s *gavel.Suite, stderr io.Writer) {
	if sel.since != "" {
		sayAffected(stderr, s, sel.kept, sel.cases, len(sel.changed), sel.since)
	}
}

// firstPass reads and builds every case of st, when its case files can
// be read twice, and counts what f selects of them: every problem is
// then known before anything runs. It reports whether the suite can run,
// after printing why not.
func firstPass(st *spec.Stream, sel *selection, f *Options, stderr io.Writer) bool {
	if !st.Rereadable() {
		return true // a pipe: its cases are checked as they run
	}
	trials := runner.Config{Trials: f.Trials}
	if err := st.Each(func(c *gavel.Case, _ spec.LoadedCase) bool {
		sel.count(c, sel.keeps(st.Suite, c), trials.TrialsOf(st.Suite, c))
		return true
	}); err != nil {
		fmt.Fprintln(stderr, err)
		return false
	}
	sel.counted = true
	return true
}

// cases returns the cases of a streamed suite that its run keeps, read
// and built as the runner asks for them, each definition handed to rec
// before its trials run; and a function that returns, once they were
// read, their problems (cases from a pipe are first checked there) or
// what is wrong with the selection.
func (s meteredSuite) cases(f *Options, rec *Recording) (iter.Seq[*gavel.Case], func() error) {
	var err error
	sel := s.sel // fresh from newSelection: for a pipe, nothing counted yet
	trials := runner.Config{Trials: f.Trials}
	seq := func(yield func(*gavel.Case) bool) {
		err = s.stream.Each(func(c *gavel.Case, lc spec.LoadedCase) bool {
			kept := sel.keeps(s.Suite, c)
			if !sel.counted {
				sel.count(c, kept, trials.TrialsOf(s.Suite, c))
			}
			if !kept {
				return true
			}
			rec.saveCase(caseDef(s.Suite.Name, c, lc.YAML()))
			return yield(c)
		})
	}
	return seq, func() error {
		if err != nil || sel.counted {
			return err
		}
		return sel.check(s.Suite)
	}
}

// loadStreamed opens the suites at paths to be run as they are read, and
// makes the first pass of each whose cases can be read twice, as
// loadSuites loads and builds them: it reports every problem and returns
// ok false if there was one; the suites it returns are to be closed
// either way.
func loadStreamed(paths []string, f *Options, m *Models, db store.Store, stderr io.Writer) (suites []meteredSuite, ok bool) {
	limits := &llm.Limiters{} // as loadSuites: one per server, a meter per suite
	ok = true
	for _, path := range paths {
		meter := llm.NewMeter(llm.DefaultPrices())
		agentStderr := stderr
		if f.Quiet {
			agentStderr = io.Discard
		}
		env := suiteEnv(limits, m, meter, agentStderr, db)
		env.ReplayTools = f.ReplayTools
		st, err := spec.OpenStream(path, env)
		if err != nil {
			fmt.Fprintln(stderr, err)
			ok = false
			continue
		}
		s := meteredSuite{Built: st.Built, meter: meter, stream: st, sel: new(selection)}
		suites = append(suites, s)
		if *s.sel, err = newSelection(st.Suite, f); err != nil {
			fmt.Fprintf(stderr, "%s: %v\n", path, err)
			ok = false
			continue
		}
		if !firstPass(st, s.sel, f, stderr) {
			ok = false
			continue
		}
		if s.sel.counted { // else said once the cases were read (runStreamed)
			for _, w := range st.Warnings {
				fmt.Fprintln(stderr, w)
			}
		}
		prices := llm.DefaultPrices().With(st.Prices).With(f.Prices)
		meter.SetPrices(prices)
		if f.MaxCostUSD > 0 {
			if err := allPriced(st.Built, prices); err != nil {
				fmt.Fprintf(stderr, "%s: %v\n", path, err)
				ok = false
				continue
			}
		}
		if s.sel.counted {
			if err := s.sel.check(st.Suite); err != nil {
				fmt.Fprintf(stderr, "%s: %v\n", path, err)
				ok = false
				continue
			}
			s.sel.sayChanged(st.Suite, stderr)
		}
	}
	return suites, ok
}

// runStreamed runs a streamed suite's cases with c, and returns the run
// and, for cases from a pipe, the problems found in them (the run then
// stopped at the first) or what is wrong with the selection.
func (s meteredSuite) runStreamed(ctx context.Context, f *Options, rec *Recording, c runner.Config, stderr io.Writer) (*gavel.Run, error) {
	cases, problems := s.cases(f, rec)
	total := 0
	if s.sel.counted {
		total = s.sel.trials
	}
	run := runner.RunCases(ctx, s.Suite, cases, total, c)
	err := problems()
	if !s.sel.counted {
		s.sel.sayChanged(s.Suite, stderr)
		for _, w := range s.stream.Warnings {
			fmt.Fprintln(stderr, w)
		}
	}
	if err != nil && run.Stopped == "" {
		run.Stopped, run.StopReason = gavel.StopInterrupted, "the suite's cases have problems: "+firstLine(err.Error())
	}
	return run, err
}

// firstLine is the first line of s.
func firstLine(s string) string {
	line, _, _ := strings.Cut(s, "\n")
	return line
}
