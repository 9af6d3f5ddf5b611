package eval

import (
	"fmt"
	"io"

	"github.com/gavelhq/gavel/llm/providers"
	"github.com/gavelhq/gavel/spec"
)

// Validate checks the suite at path (a file, or a directory holding
// gavel.yaml) without running anything (gavel validate): its warnings go
// to stderr and "FILE: N cases, valid" to stdout. A suite that is not
// valid is the error spec.Validate returns, every problem at its
// file:line. getenv reads the environment; nil reads none.
func Validate(path string, getenv func(string) string, stdout, stderr io.Writer) error {
	if getenv == nil {
		getenv = func(string) string { return "" }
	}
	// spec.Validate keeps one case at a time: suites of any size.
	v, err := spec.Validate(path, spec.Env{Registry: providers.Registry(), Getenv: getenv, DryRun: true, Probe: providers.Probe})
	if err != nil {
		return err
	}
	for _, w := range v.Warnings {
		fmt.Fprintln(stderr, w)
	}
	fmt.Fprintf(stdout, "%s: %d cases, valid\n", v.File, v.Cases)
	return nil
}
