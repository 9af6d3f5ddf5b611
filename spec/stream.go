package spec

import (
	"os"
	"slices"

	"github.com/gavelhq/gavel"
)

// A Stream is a suite whose cases are read and built one at a time, as a
// run asks for them, instead of all before the first trial as Open does:
// a JSON Lines file is read a line at a time, so that a suite of any
// size starts at once and holds in memory only the cases its run keeps
// (docs/decisions/0014-streamed-suites.md). OpenStream makes one.
type Stream struct {
	// Built is the suite without its cases (Suite.Cases is empty): the
	// agent, the models, the settings and the judges of every case. Its
	// Models and Warnings grow as Each builds cases.
	*Built

	l             *Loaded
	fieldProblems Problems
	b             *builder
	// head are the warnings and judges of the suite file itself, which
	// Each starts from.
	headWarnings Problems
	headJudges   int
}

// OpenStream loads the suite file at path and builds what every case
// needs (the agent, the models, every_case's judges), without reading
// its cases: Each reads them. It reports the suite file's problems as
// Problems; when there are some, it reads the cases too, as Validate
// does, so that every problem is reported at once.
func OpenStream(path string, env Env) (*Stream, error) {
	l, fieldProblems, problems, err := loadSuiteFile(path)
	if err != nil {
		return nil, err // no suite file at all
	}
	if l.Unreadable {
		return nil, problems.sorted()
	}
	b := newBuilder(l, env)
	b.out.Suite = b.suiteHead()
	if problems = append(problems, b.problems...); len(problems) > 0 {
		b.problems = nil
		problems = append(problems, l.eachCase(fieldProblems, func(lc LoadedCase) { b.addCase(lc) })...)
		problems = append(problems, b.problems...)
		_ = b.out.Close()
		return nil, problems.sorted()
	}
	return &Stream{Built: b.out, l: l, fieldProblems: fieldProblems, b: b,
		headWarnings: slices.Clone(b.out.Warnings), headJudges: len(b.judges)}, nil
}

// Each reads the suite's cases in order, inline ones and those of the
// files its cases: globs match, builds each and hands it to yield with
// the case as loaded (its definition, where it was written); it stops
// handing cases over when yield returns false. It returns every problem
// it found, as Problems: after the first one, no case is handed over,
// but the rest are read and built, to find theirs.
//
// Each may be called again, and reads the files again (Rereadable says
// whether they can be); the cases' ids are checked for duplicates within
// one call. Once it returned, the Built's Warnings count every case read.
func (s *Stream) Each(yield func(*gavel.Case, LoadedCase) bool) error {
	b := s.b
	b.seen, b.problems, b.judges = map[string]string{}, nil, b.judges[:s.headJudges]
	bad, stopped := false, false
	s.l.bad = func() { bad = true }
	defer func() { s.l.bad = nil }()
	problems := s.l.eachCase(s.fieldProblems, func(lc LoadedCase) {
		if stopped {
			return
		}
		n := len(b.problems)
		c := b.addCase(lc)
		if c == nil || len(b.problems) > n {
			bad = true
		}
		if bad {
			return
		}
		stopped = !yield(c, lc)
	})
	b.out.Warnings = slices.Clone(s.headWarnings)
	b.suiteEnd(b.out.Suite)
	if problems = append(problems, b.problems...); len(problems) > 0 {
		return problems.sorted()
	}
	return nil
}

// Rereadable reports whether Each can read the suite's cases again: every
// file its cases: globs match is a regular file, not a pipe (a FIFO) that
// can be read once.
func (s *Stream) Rereadable() bool {
	for _, e := range s.l.Suite.Cases {
		if e.Case != nil || e.bad {
			continue
		}
		files, _ := s.l.globFiles(e)
		for _, f := range files {
			info, err := os.Stat(f)
			if err != nil || !info.Mode().IsRegular() {
				return false
			}
		}
	}
	return true
}
