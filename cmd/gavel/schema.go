package main

import (
	"errors"
	"fmt"
	"io"

	flag "github.com/spf13/pflag"

	"github.com/gavelhq/gavel/eval"
	"github.com/gavelhq/gavel/spec"
)

const schemaHelp = `Usage: gavel schema

Prints the JSON Schema of suite files, so an editor completes field names,
shows each field's description and flags unknown fields as you type. With
the YAML language server (VS Code, Neovim, Helix), save it next to your
suite and add a first line to the suite:

  gavel schema > gavel.schema.json
  # yaml-language-server: $schema=gavel.schema.json

A case file (cases/*.yaml) can point at the one case's or the file's
definition: gavel.schema.json#/$defs/CaseFile.
`

func schemaCommand(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("schema", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() { fmt.Fprint(stderr, schemaHelp) }
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return eval.ExitPassed
		}
		return eval.ExitUsage
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "gavel schema: takes no arguments, got %q\n", fs.Args())
		return eval.ExitUsage
	}
	stdout.Write(spec.Schema())
	return eval.ExitPassed
}
