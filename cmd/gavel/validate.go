package main

import (
	"errors"
	"fmt"
	"io"
	"os"

	flag "github.com/spf13/pflag"

	"github.com/gavelhq/gavel/eval"
)

const validateHelp = `Usage: gavel validate [SUITE...]

Checks suites (default ".") without running anything or calling a model:
every problem is listed at once, as file:line:column: message. Exit code 0
when all are valid, 2 otherwise. Warnings (a judge that is the agent's own
model or of its family) are printed too, and do not fail validation.

Example:
  gavel validate examples/support-desk
`

func validateCommand(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("validate", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() { fmt.Fprint(stderr, validateHelp) }
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return eval.ExitPassed
		}
		return eval.ExitUsage
	}
	suites := fs.Args()
	if len(suites) == 0 {
		suites = []string{"."}
	}
	code := eval.ExitPassed
	for _, path := range suites {
		if err := eval.Validate(path, os.Getenv, stdout, stderr); err != nil {
			fmt.Fprintln(stderr, err)
			code = eval.ExitUsage
		}
	}
	return code
}
