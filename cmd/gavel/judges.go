package main

import (
	"errors"
	"fmt"
	"io"
	"strings"

	flag "github.com/spf13/pflag"

	"github.com/gavelhq/gavel/eval"
	"github.com/gavelhq/gavel/spec"
)

const judgesHelp = `Usage: gavel judges [KIND]

Lists the kinds of judge a suite file can name under rules:, checks: or
judges:, or prints one kind's reference: what it does, its fields and an
example. docs/judges.md holds the same reference for every kind.

  gavel judges
  gavel judges criteria
`

func judgesCommand(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("judges", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() { fmt.Fprint(stderr, judgesHelp) }
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return eval.ExitPassed
		}
		return eval.ExitUsage
	}
	switch fs.NArg() {
	case 0:
		fmt.Fprintf(stdout, "The kinds of judge (gavel judges KIND for one; docs/judges.md for all):\n\n  %s\n",
			strings.Join(spec.KindNames(), "\n  "))
		return eval.ExitPassed
	case 1:
		ref, err := spec.KindDoc(fs.Arg(0))
		if err != nil {
			fmt.Fprintln(stderr, "gavel judges:", err)
			return eval.ExitUsage
		}
		fmt.Fprint(stdout, ref)
		return eval.ExitPassed
	}
	fmt.Fprintf(stderr, "gavel judges: takes at most one kind, got %q\n", fs.Args())
	return eval.ExitUsage
}
