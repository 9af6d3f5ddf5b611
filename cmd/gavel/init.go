package main

import (
	"errors"
	"fmt"
	"io"
	"path/filepath"

	flag "github.com/spf13/pflag"

	"github.com/gavelhq/gavel/eval"
)

const initHelp = `Usage: gavel init [DIR]

Writes a starter suite into DIR (default "."), next to your agent: a
gavel.yaml with two cases, the scripted models that let it run offline,
and the JSON Schema your editor uses to complete the suite's fields. A
.gitignore keeps Gavel's outputs (.gavel/, reports/) out of git: written,
or added to when DIR has one. Nothing else is overwritten: if one of the
files exists, nothing is written.

Example:
  gavel init evals && gavel run evals
`

func initCommand(args []string, stdout, stderr io.Writer) int {
	flags := flag.NewFlagSet("init", flag.ContinueOnError)
	flags.SetOutput(stderr)
	flags.Usage = func() { fmt.Fprint(stderr, initHelp) }
	if err := flags.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return eval.ExitPassed
		}
		return eval.ExitUsage
	}
	if flags.NArg() > 1 {
		fmt.Fprint(stderr, "gavel init: give one directory at most\n\n", initHelp)
		return eval.ExitUsage
	}
	dir := "."
	if flags.NArg() == 1 {
		dir = flags.Arg(0)
	}
	if err := eval.Init(dir); err != nil {
		var exists *eval.ExistsError
		if errors.As(err, &exists) {
			fmt.Fprintf(stderr, "gavel init: %v\n", err)
			return eval.ExitUsage
		}
		fmt.Fprintln(stderr, "gavel init:", err)
		return eval.ExitInfra
	}
	fmt.Fprintf(stdout, "Wrote a starter suite to %s. Run it with:\n  gavel run %s\n", filepath.Join(dir, "gavel.yaml"), dir)
	return eval.ExitPassed
}
