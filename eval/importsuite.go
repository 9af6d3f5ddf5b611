package eval

import (
	"cmp"
	"fmt"
	"io"
	"path/filepath"

	"github.com/gavelhq/gavel/importer/openaievals"
	"github.com/gavelhq/gavel/importer/promptfoo"
	"github.com/gavelhq/gavel/importer/suitefile"
)

// The tools whose evals ImportSuite converts (gavel import --from).
const (
	FromPromptfoo   = "promptfoo"
	FromOpenAIEvals = "openai-evals"
)

// SuiteImport says how ImportSuite converts another tool's evals into a
// Gavel suite (gavel import --from, docs/migrate.md).
type SuiteImport struct {
	// From is FromPromptfoo or FromOpenAIEvals.
	From string
	// Out is the directory gavel.yaml and cases.yaml are written to.
	// Defaults to the current directory.
	Out string
	// Eval names the eval of an OpenAI Evals file that defines several.
	Eval string
	// Force replaces gavel.yaml and cases.yaml when Out has them.
	Force bool
	// Getenv reads the environment, for validating the suite written
	// (the ${VAR}s of its model references). Defaults to none set.
	Getenv func(string) string
}

// Import converts source (a promptfoo configuration, or an OpenAI Evals
// eval YAML file), writes the suite, prints what was approximated and
// what was not converted to stderr and a summary to stdout, and validates
// the suite as gavel validate does. It returns the exit code: ExitUsage
// when the source cannot be read or the suite cannot be written.
func (si SuiteImport) Import(source string, stdout, stderr io.Writer) int {
	var s *suitefile.Suite
	var err error
	switch si.From {
	case FromPromptfoo:
		if si.Eval != "" {
			fmt.Fprintln(stderr, "gavel import: --eval names an eval of OpenAI Evals: a promptfoo configuration has none")
			return ExitUsage
		}
		s, err = promptfoo.Convert(source)
	case FromOpenAIEvals:
		s, err = openaievals.Convert(source, si.Eval)
	default:
		fmt.Fprintf(stderr, "gavel import: --from %q: want %s or %s\n", si.From, FromPromptfoo, FromOpenAIEvals)
		return ExitUsage
	}
	if err != nil {
		fmt.Fprintln(stderr, "gavel import:", err)
		return ExitUsage
	}
	out := cmp.Or(si.Out, ".")
	if err := s.Write(out, si.Force); err != nil {
		fmt.Fprintln(stderr, "gavel import:", err)
		return ExitUsage
	}
	for _, line := range s.Report.Lines() {
		fmt.Fprintln(stderr, line)
	}
	fmt.Fprintf(stdout, "wrote %s and %s: %s\n", filepath.Join(out, suitefile.Files[0]), filepath.Join(out, suitefile.Files[1]), s.Report.Summary())
	if err := Validate(out, si.Getenv, stdout, stderr); err != nil {
		// A converter writes only what the suite format takes: a suite
		// that does not validate is the converter's mistake.
		fmt.Fprintln(stderr, err)
		fmt.Fprintln(stderr, "gavel import: the suite written does not validate: fix the problems above (and report them: a converted suite should validate)")
		return ExitUsage
	}
	return ExitPassed
}
